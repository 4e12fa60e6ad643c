"""The OpenAI-compatible client against a real llama.cpp server on loopback (no fakes)."""

from __future__ import annotations

import socket

import pytest

from ragcite.errors import ConfigError, GenerationError, UnusableOutputError
from ragcite.generate.openai_compat import OpenAICompatibleGenerator
from ragcite.models import SourceChunk


def test_structured_answer_over_http(
    llama_server_url: str, small_chunks: list[SourceChunk]
) -> None:
    generator = OpenAICompatibleGenerator(
        f"{llama_server_url}/v1", "smollm2", max_tokens=160, max_claims=1, max_chars=60
    )
    draft = generator.generate("How long is parental leave?", small_chunks)
    # The schema (sent as json_schema, which llama.cpp honours) bounds the claims and
    # limits cited IDs to the retrieved ones.
    assert generator.response_format == "json_schema"
    assert draft.model_id == f"openai-compatible:{llama_server_url}/v1#smollm2"
    assert len(draft.claims) <= 1
    ids = {c.chunk_id for c in small_chunks}
    assert all(c.chunk_id in ids for claim in draft.claims for c in claim.citations)
    assert all(len(claim.claim_text) <= 60 for claim in draft.claims)
    generator.close()


def test_truncated_output_is_unusable_not_a_crash(
    llama_server_url: str, small_chunks: list[SourceChunk]
) -> None:
    generator = OpenAICompatibleGenerator(f"{llama_server_url}/v1", "smollm2", max_tokens=4)
    with pytest.raises(UnusableOutputError, match="no readable JSON"):
        generator.generate("How long is parental leave?", small_chunks)


def test_wrong_path_names_the_status(
    llama_server_url: str, small_chunks: list[SourceChunk]
) -> None:
    generator = OpenAICompatibleGenerator(f"{llama_server_url}/no-such-api", "smollm2")
    with pytest.raises(GenerationError, match="HTTP 404"):
        generator.generate("q?", small_chunks)


def test_unreachable_server_says_so(small_chunks: list[SourceChunk]) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    generator = OpenAICompatibleGenerator(f"http://127.0.0.1:{port}/v1", "m", timeout_s=5)
    with pytest.raises(GenerationError, match=f"cannot reach http://127.0.0.1:{port}/v1"):
        generator.generate("q?", small_chunks)


def test_the_key_is_never_shown(
    monkeypatch: pytest.MonkeyPatch, small_chunks: list[SourceChunk]
) -> None:
    monkeypatch.setenv("RAGCITE_LLM_API_KEY", "sk-very-secret")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    generator = OpenAICompatibleGenerator(f"http://127.0.0.1:{port}/v1", "m", timeout_s=5)
    with pytest.raises(GenerationError) as caught:
        generator.generate("q?", small_chunks)
    shown = " ".join([repr(generator), generator.model_id, str(caught.value), str(vars(generator))])
    assert "sk-very-secret" not in shown


def test_bad_settings_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="must start with http"):
        OpenAICompatibleGenerator("localhost:8080", "m")
    with pytest.raises(ConfigError, match="OPENAI_TEST_KEY"):
        OpenAICompatibleGenerator(
            "https://x.invalid/v1", "m", api_key_env="OPENAI_TEST_KEY", require_key=True
        )
