"""The one LLM spec parser: every form, and what each malformed spec says."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcite.errors import ConfigError
from ragcite.llm.spec import LLMSpec, parse_llm_spec


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("openai:gpt-4o-mini", LLMSpec("openai", "gpt-4o-mini")),
        (" OpenAI : gpt-4o-mini ", LLMSpec("openai", "gpt-4o-mini")),
        ("anthropic:claude-sonnet-4-5", LLMSpec("anthropic", "claude-sonnet-4-5")),
        (
            "openai-compatible:http://127.0.0.1:8080/v1#qwen2.5",
            LLMSpec("openai-compatible", "qwen2.5", base_url="http://127.0.0.1:8080/v1"),
        ),
        ("local:smollm2", LLMSpec("local", "smollm2")),
        ("local:/models/m.GGUF", LLMSpec("local", "m.GGUF", path=Path("/models/m.GGUF"))),
    ],
)
def test_forms(text: str, expected: LLMSpec) -> None:
    assert parse_llm_spec(text) == expected


def test_text_writes_the_spec_back() -> None:
    for text in ("openai:m", "anthropic:m", "openai-compatible:http://h/v1#m", "local:smollm2"):
        assert parse_llm_spec(text).text == text


def test_home_is_expanded_in_local_paths() -> None:
    spec = parse_llm_spec("local:~/m.gguf")
    assert spec.path == Path.home() / "m.gguf"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("extractive", "'extractive' is not a language model: use openai:MODEL"),
        ("gpt-4", "LLM spec 'gpt-4' is not recognised: use openai:MODEL"),
        ("openai:", "'openai:' is not recognised"),
        ("opneai:gpt-4o", "'opneai:gpt-4o' is not recognised"),
        ("openai-compatible:http://h/v1", "needs a model after '#'"),
        ("openai-compatible:#m", "needs a model after '#'"),
        ("local:model.bin", "local models are GGUF files"),
    ],
)
def test_malformed_specs_name_the_spec(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_llm_spec(text)
