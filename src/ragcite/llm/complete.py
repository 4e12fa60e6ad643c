"""A plain completion function from an LLM spec: `complete(prompt) -> text`.

For the parts that ask a model a short question rather than for a cited answer (the
support checker's LLM judge, an LLM reranker). Any LLM spec (`ragcite.llm.spec`):
`openai:MODEL`, `anthropic:MODEL`, `local:PATH.gguf`, `local:smollm2`,
`openai-compatible:URL#MODEL`. Temperature 0; the same keys, timeouts and errors
(GenerationError, ConfigError, ModelError) as the generators, which use the same clients.

    >>> complete = build_completion("openai-compatible:http://127.0.0.1:8080/v1#qwen2.5")
    >>> complete("Answer with one word: is the sky blue?")
    'Yes'
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Protocol

from ragcite.config import GenerateSettings
from ragcite.llm.spec import LLMSpec, parse_llm_spec

Completion = Callable[[str], str]


class CompletionClient(Protocol):
    """What every LLM client answers: a plain prompt, a plain reply."""

    model_id: str

    def complete(self, prompt: str, *, max_tokens: int) -> str: ...


def build_client(spec: LLMSpec, settings: GenerateSettings | None = None) -> CompletionClient:
    """The client of the model `spec` names, with `settings.llm_timeout_s` (API models).
    ConfigError for a missing key or model file, naming what to set."""
    settings = settings or GenerateSettings()
    timeout_s = settings.llm_timeout_s
    if spec.kind == "openai":
        from ragcite.llm.openai import OPENAI_BASE_URL, OPENAI_KEY_ENV, ChatClient

        return ChatClient(
            OPENAI_BASE_URL,
            spec.model,
            api_key_env=OPENAI_KEY_ENV,
            require_key=True,
            timeout_s=timeout_s,
            model_id=spec.text,
        )
    if spec.kind == "openai-compatible":
        from ragcite.llm.openai import ChatClient

        assert spec.base_url is not None  # parse_llm_spec sets it for this kind
        return ChatClient(spec.base_url, spec.model, timeout_s=timeout_s)
    if spec.kind == "anthropic":
        from ragcite.llm.anthropic import MessagesClient

        return MessagesClient(spec.model, timeout_s=timeout_s)
    from ragcite.llm.local import LocalLlama, local_model_path

    return LocalLlama(local_model_path(spec))


def build_completion(
    spec: str, settings: GenerateSettings | None = None, *, max_tokens: int | None = None
) -> Completion:
    """`complete(prompt) -> str` for the model `spec` names; `max_tokens` caps each reply
    (default: `settings.llm_max_tokens`). ConfigError when the spec names no LLM."""
    settings = settings or GenerateSettings()
    parsed = parse_llm_spec(spec)
    if max_tokens is not None and max_tokens < 1:
        raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
    client = build_client(parsed, settings)
    return partial(client.complete, max_tokens=max_tokens or settings.llm_max_tokens)


class LazyCompletion:
    """A completion built on its first call, so that configuring an API model whose key
    is missing breaks only the calls that need it (not ingest, not startup)."""

    def __init__(
        self, spec: str, settings: GenerateSettings | None = None, *, max_tokens: int | None = None
    ) -> None:
        parse_llm_spec(spec)  # a typo fails now; a missing key or model file on first use
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
