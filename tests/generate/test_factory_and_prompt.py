"""Generator specs and the attribution prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragcite.embed.base import Embedder
from ragcite.errors import ConfigError
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.generate.factory import build_generator
from ragcite.generate.local_llama import LocalLlamaGenerator
from ragcite.generate.openai_compat import OpenAICompatibleGenerator
from ragcite.generate.prompt import answer_schema, build_messages
from ragcite.models import SourceChunk


def test_specs(embedder: Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(build_generator("extractive", embedder), ExtractiveGenerator)
    gen = build_generator("openai-compatible:http://127.0.0.1:11434/v1#llama3.1", embedder)
    assert isinstance(gen, OpenAICompatibleGenerator)
    assert gen.model_id == "openai-compatible:http://127.0.0.1:11434/v1#llama3.1"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert build_generator("openai:gpt-4o-mini", embedder).model_id == "openai:gpt-4o-mini"
    local = build_generator("local:smollm2", embedder)
    assert isinstance(local, LocalLlamaGenerator) and local.can_retry


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-4", "'gpt-4' is not recognised"),
        ("openai:", "'openai:' is not recognised"),
        ("openai-compatible:http://127.0.0.1:8080/v1", "needs a model after '#'"),
        ("local:model.bin", "local models are GGUF files"),
        ("local:/nowhere/m.gguf", "GGUF model file not found"),
    ],
)
def test_bad_specs_name_the_spec(embedder: Embedder, spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        build_generator(spec, embedder)


def test_keys_come_from_the_environment(
    embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        build_generator("openai:gpt-4o-mini", embedder)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        build_generator("anthropic:claude-sonnet-4-5", embedder)


def test_prompt_schema_first_then_rules_then_blocks(tmp_path: Path) -> None:
    chunk = SourceChunk(
        chunk_id="c_1",
        document_id="d",
        document_title="Handbook",
        section_heading="Leave",
        page_number=3,
        chunk_text="Leave is 16 weeks.",
        char_start=0,
        char_end=18,
    )
    system, user = build_messages("How long?", [chunk], violations=["claim 1 cites 'c_9'"])
    schema_at = system["content"].index('{"type":"object"')
    assert schema_at < system["content"].index("Rules:")
    assert "0.9-1.0" in system["content"] and "is_synthesized" in system["content"]
    block = user["content"]
    assert "=== SOURCE c_1 ===" in block and "title: Handbook" in block
    assert "section: Leave" in block and "page: 3" in block
    assert "Leave is 16 weeks." in block and "=== END SOURCE c_1 ===" in block
    assert block.index("Question: How long?") < block.index("claim 1 cites 'c_9'")
    schema = answer_schema(["c_1"], max_claims=2)
    json.dumps(schema)
    items = schema["properties"]["claims"]["items"]
    assert items["properties"]["citations"]["items"]["properties"]["chunk_id"]["enum"] == ["c_1"]
    assert schema["properties"]["claims"]["maxItems"] == 2
    assert items["additionalProperties"] is False and set(items["required"]) == set(
        items["properties"]
    )


def test_ask_llm_option_reports_a_bad_spec_in_one_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ragcite.cli.main import cli

    result = CliRunner().invoke(
        cli, ["--store", str(tmp_path / "s.db"), "ask", "How long?", "--llm", "gpt-4"]
    )
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: LLM spec 'gpt-4' is not recognised: use extractive")
    assert result.stderr.count("\n") == 1


def test_every_built_in_generator_is_an_entry_point() -> None:
    from ragcite.registry import GENERATORS, installed

    names = {"extractive", "openai", "openai-compatible", "anthropic", "local"}
    assert names <= set(installed(GENERATORS))
