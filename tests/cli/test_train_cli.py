"""`ragcite train`: registered, documented, and clear about its extra."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragcite.cli.main import cli


def test_train_lists_both_models() -> None:
    result = CliRunner().invoke(cli, ["train", "--help"])
    assert result.exit_code == 0
    assert "support" in result.output and "rerank" in result.output
    result = CliRunner().invoke(cli, ["train", "support", "--help"])
    assert "--seed" in result.output and "--model" in result.output and "--card" in result.output
    assert "--before-model" in result.output and "--keep-overlap" in result.output


@pytest.mark.parametrize("model", ["support", "rerank"])
def test_without_scikit_learn_training_names_the_extra(
    model: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # None in sys.modules makes `import sklearn` raise ImportError, as when it is absent.
    monkeypatch.setitem(sys.modules, "sklearn", None)
    result = CliRunner().invoke(
        cli, ["train", model, "--model", str(tmp_path / "m.json"), "--card", str(tmp_path / "c")]
    )
    assert result.exit_code == 1
    assert "pip install 'ragcite[train]'" in result.output
    assert not (tmp_path / "m.json").exists()


def test_the_answer_decision_asks_for_records_that_hold_its_inputs(tmp_path: Path) -> None:
    model = tmp_path / "m.json"
    args = ["train", "answer-decision", "--model", str(model), "--workdir", str(tmp_path)]
    missing = CliRunner().invoke(cli, [*args, "--records", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2
    assert "no such file" in missing.output and "bench/answerability_records.py" in missing.output
    old = tmp_path / "old.jsonl"
    old.write_text('{"id": "a", "answerable": true, "quotes": []}\n', encoding="utf-8")
    predates = CliRunner().invoke(cli, [*args, "--records", str(old)])
    assert predates.exit_code == 2 and "predates the answer decision" in predates.output
    assert not model.exists()
