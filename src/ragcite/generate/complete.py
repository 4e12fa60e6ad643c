"""A plain completion function from an LLM spec: `complete(prompt) -> text`.

For the parts that ask a model a short question rather than for a cited answer (the
support checker's LLM judge, an LLM reranker). Any spec `build_generator` accepts but
`extractive`: `openai:MODEL`, `anthropic:MODEL`, `local:PATH.gguf`, `local:smollm2`,
`openai-compatible:URL#MODEL`. Temperature 0; the same keys, timeouts and errors
(GenerationError, ConfigError, ModelError) as the generators.

    >>> complete = build_completion("openai-compatible:http://127.0.0.1:8080/v1#qwen2.5")
    >>> complete("Answer with one word: is the sky blue?")
    'Yes'
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ragcite.config import GenerateSettings
from ragcite.errors import ConfigError
from ragcite.generate.factory import LLM_KINDS, build_llm_generator

Completion = Callable[[str], str]
LLM_SPEC_HELP = (
    "use openai:MODEL, anthropic:MODEL, local:PATH.gguf, local:smollm2 "
    "or openai-compatible:URL#MODEL"
)


def build_completion(
    spec: str, settings: GenerateSettings | None = None, *, max_tokens: int | None = None
) -> Completion:
    """`complete(prompt) -> str` for the model `spec` names; `max_tokens` caps each reply
    (default: `settings.llm_max_tokens`). ConfigError when the spec names no LLM."""
    settings = settings or GenerateSettings()
    check_llm_spec(spec)
    if max_tokens is not None:
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
        settings = settings.model_copy(update={"llm_max_tokens": max_tokens})
    return build_llm_generator(spec, settings).complete


def check_llm_spec(spec: str) -> None:
    """ConfigError unless `spec` has the shape of an LLM spec (checked without building it)."""
    kind, _, rest = spec.strip().partition(":")
    if kind.casefold() == "extractive" and not rest:
        raise ConfigError(f"'extractive' is not a language model: {LLM_SPEC_HELP}")
    if kind.casefold() not in LLM_KINDS or not rest.strip():
        raise ConfigError(f"LLM spec {spec!r} is not recognised: {LLM_SPEC_HELP}")


class LazyCompletion:
    """A completion built on its first call, so that configuring an API model whose key
    is missing breaks only the calls that need it (not ingest, not startup)."""

    def __init__(
        self, spec: str, settings: GenerateSettings | None = None, *, max_tokens: int | None = None
    ) -> None:
        check_llm_spec(spec)  # a typo fails now; a missing key or model file on first use
        self.spec = spec
        self._settings = settings
        self._max_tokens = max_tokens
        self._complete: Completion | None = None
        self._lock = threading.Lock()

    def __call__(self, prompt: str) -> str:
        with self._lock:
            if self._complete is None:
                self._complete = build_completion(
                    self.spec, self._settings, max_tokens=self._max_tokens
                )
        return self._complete(prompt)
