"""`ragcite verify answer.json --sources chunks.json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragcite.cli.main import cli

SOURCES = [
    {
        "id": "backups",
        "title": "Data Retention Policy",
        "text": "Full system backups are kept for 35 days before they are overwritten.",
    }
]


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("semantic", ["minilm", "static", "none"])
def test_verified_answer_exits_0(tmp_path: Path, semantic: str) -> None:
    answer = write(
        tmp_path / "answer.json",
        {
            "claims": [
                {
                    "claim_text": "Full system backups are kept for 35 days.",
                    "citations": [
                        {"chunk_id": "backups", "quote": "Full system backups are kept for 35 days"}
                    ],
                }
            ]
        },
    )
    sources = write(tmp_path / "chunks.json", SOURCES)
    result = CliRunner().invoke(
        cli, ["verify", str(answer), "--sources", str(sources), "--support-semantic", semantic]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["all_verified"] and report["support_checked"]
    assert report["citations"][0]["quote_status"] == "exact"


def test_unverified_answer_exits_3(tmp_path: Path) -> None:
    answer = write(
        tmp_path / "answer.json",
        {"citations": [{"source_id": "backups", "quote": "kept for ninety days"}]},
    )
    sources = write(tmp_path / "chunks.json", SOURCES)
    result = CliRunner().invoke(
        cli, ["verify", str(answer), "--sources", str(sources), "--no-support"]
    )
    assert result.exit_code == 3
    report = json.loads(result.stdout)
    assert not report["all_verified"] and report["citations"][0]["quote_status"] == "not_found"
    assert "answer.json: not every citation could be verified" in result.stderr


def test_malformed_json_is_one_line_naming_the_file(tmp_path: Path) -> None:
    answer = tmp_path / "answer.json"
    answer.write_text('{"citations": [', encoding="utf-8")
    sources = write(tmp_path / "chunks.json", SOURCES)
    result = CliRunner().invoke(cli, ["verify", str(answer), "--sources", str(sources)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: {answer}: not valid JSON (line 1")


def test_missing_file_and_bad_shape(tmp_path: Path) -> None:
    sources = write(tmp_path / "chunks.json", SOURCES)
    missing = CliRunner().invoke(
        cli, ["verify", str(tmp_path / "nope.json"), "--sources", str(sources)]
    )
    assert missing.exit_code == 1 and "nope.json: file not found" in missing.stderr
    answer = write(tmp_path / "answer.json", {"citations": []})
    bad_sources = write(tmp_path / "bad.json", [{"text": "no id"}])
    shaped = CliRunner().invoke(cli, ["verify", str(answer), "--sources", str(bad_sources)])
    assert shaped.exit_code == 1
    assert shaped.stderr == (
        f"Error: {bad_sources}: source 1 needs an id (chunk_id, source_id or id) and a text\n"
    )


def test_verify_reads_the_settings_file_and_options_override_it(tmp_path: Path) -> None:
    answer = write(
        tmp_path / "answer.json",
        {"citations": [{"source_id": "backups", "quote": "kept for 35 days"}]},
    )
    sources = write(tmp_path / "chunks.json", SOURCES)
    config = tmp_path / "ragcite.toml"
    config.write_text('[gate]\nsupport_semantic = "bert"\n', encoding="utf-8")
    args = ["--config", str(config), "verify", str(answer), "--sources", str(sources)]
    from_file = CliRunner().invoke(cli, args)
    assert from_file.exit_code == 1
    assert "no support checker backend named 'bert'" in from_file.stderr
    overridden = CliRunner().invoke(cli, [*args, "--support-semantic", "none"])
    assert overridden.exit_code == 0, overridden.output
    assert json.loads(overridden.stdout)["support_checked"]
    config.write_text('[gate]\nsupport_judge = "opneai:gpt-4o"\n', encoding="utf-8")
    judged = CliRunner().invoke(cli, [*args, "--support-semantic", "none"])
    assert judged.exit_code == 1 and "'opneai:gpt-4o' is not recognised" in judged.stderr
