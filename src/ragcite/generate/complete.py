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
from ragcite.generate.factory import build_llm_generator

Completion = Callable[[str], str]


def build_completion(
    spec: str, settings: GenerateSettings | None = None, *, max_tokens: int | None = None
) -> Completion:
    """`complete(prompt) -> str` for the model `spec` names; `max_tokens` caps each reply
    (default: `settings.llm_max_tokens`). ConfigError when the spec names no LLM."""
    settings = settings or GenerateSettings()
    if spec.strip().casefold() == "extractive":
        raise ConfigError(
            "'extractive' is not a language model: use openai:MODEL, anthropic:MODEL, "
            "local:PATH.gguf, local:smollm2 or openai-compatible:URL#MODEL"
        )
    if max_tokens is not None:
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
        settings = settings.model_copy(update={"llm_max_tokens": max_tokens})
    return build_llm_generator(spec, settings).complete


class LazyCompletion:
    """A completion built on its first call, so that configuring an API model whose key
    is missing breaks only the calls that need it (not ingest, not startup)."""

    def __init__(
        self, spec: str, settings: GenerateSettings | None = None, *, max_tokens: int | None = None
    ) -> None:
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
