"""`--support-judge SPEC` on `ragcite ask` and `ragcite verify`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragcite.cli.main import cli

from .test_verify_cli import SOURCES, write

QUESTION = "How long are system backups kept?"


def test_ask_refuses_a_misspelt_judge(demo_store_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["--store", str(demo_store_path), "ask", QUESTION, "--support-judge", "opneai:gpt"]
    )
    assert result.exit_code == 1
    assert "not recognised" in result.output


def test_ask_answers_when_the_judge_has_no_key(
    demo_store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = CliRunner().invoke(
        cli,
        ["--store", str(demo_store_path), "ask", QUESTION, "--json", "--support-judge", "openai:x"],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["answerable"]


def test_verify_with_a_real_local_judge(tmp_path: Path, llama_server_url: str) -> None:
    answer = write(
        tmp_path / "answer.json",
        {
            "claims": [
                {
                    "claim_text": "Backups are kept for about a month.",
                    "citations": [{"chunk_id": "backups", "quote": ""}],
                }
            ]
        },
    )
    sources = write(tmp_path / "chunks.json", SOURCES)
    spec = f"openai-compatible:{llama_server_url}/v1#smollm2"
    result = CliRunner().invoke(
        cli, ["verify", str(answer), "--sources", str(sources), "--support-judge", spec]
    )
    assert result.exit_code in (0, 3), result.output  # SmolLM2's verdict is not the point
    assert json.loads(result.stdout)["support_checked"]
