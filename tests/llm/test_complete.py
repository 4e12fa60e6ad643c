"""build_completion: a plain `complete(prompt) -> text` from an LLM spec."""

from __future__ import annotations

import pytest

from ragcite.errors import ConfigError
from ragcite.llm.complete import LazyCompletion, build_completion


def test_plain_completion_over_http(llama_server_url: str) -> None:
    complete = build_completion(f"openai-compatible:{llama_server_url}/v1#smollm2", max_tokens=8)
    reply = complete("Answer with one word: what colour is the sky on a clear day?")
    assert isinstance(reply, str) and reply.strip()


def test_extractive_is_not_a_language_model() -> None:
    with pytest.raises(ConfigError, match="not a language model"):
        build_completion("extractive")


def test_bad_specs_and_limits_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        build_completion("openai:gpt-4o-mini")
    with pytest.raises(ConfigError, match="not recognised"):
        build_completion("nonsense:x")
    with pytest.raises(ValueError, match="max_tokens"):
        build_completion("openai-compatible:http://127.0.0.1:9/v1#m", max_tokens=0)


def test_lazy_completion_fails_only_when_called(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    complete = LazyCompletion("anthropic:claude-sonnet-4-5")  # no key: building is deferred
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        complete("hello")


def test_a_misspelt_spec_fails_at_once_even_when_lazy() -> None:
    with pytest.raises(ConfigError, match="not recognised"):
        LazyCompletion("opneai:gpt-4o-mini")
    with pytest.raises(ConfigError, match="not a language model"):
        LazyCompletion("extractive")
