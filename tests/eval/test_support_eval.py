"""Support-checker metrics and the shared data-set adapters."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragcite.cli.main import cli
from ragcite.embed.base import Embedder
from ragcite.eval.datasets import DEFAULT_ROOT, split_of
from ragcite.eval.support import load_support_jsonl, load_support_pairs, support_metrics
from ragcite.verify.support import default_support_checker

PAIRS = [
    {
        "premise": "Full system backups are kept for 35 days before they are overwritten.",
        "claim": "Backups are kept for 35 days.",
        "label": "supported",
    },
    {
        "premise": "Full system backups are kept for 35 days before they are overwritten.",
        "claim": "Backups are kept for 90 days.",
        "label": False,
    },
    {
        "references": ["Parental leave is 16 weeks at full pay.", "It applies to all parents."],
        "claim": "Parents get 16 weeks of paid parental leave.",
        "label": 1,
    },
    {
        "premise": "The office is closed on public holidays.",
        "claim": "The cafeteria serves breakfast from 7 am.",
        "label": "not_supported",
    },
]


def _write(path: Path) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in PAIRS))
    return path


def test_jsonl_pairs_and_metrics(tmp_path: Path, embedder: Embedder) -> None:
    pairs = load_support_jsonl(_write(tmp_path / "pairs.jsonl"))
    assert [p.supported for p in pairs] == [True, False, True, False]
    assert len(pairs[2].evidence) == 2
    metrics = support_metrics(default_support_checker(embedder), pairs)
    assert metrics["pairs"] == 4
    assert metrics["accuracy"] >= 0.75
    assert metrics["roc_auc"] >= 0.75
    assert sum(metrics["confusion"].values()) == 4


@pytest.mark.skipif(not (DEFAULT_ROOT / "rgb").is_dir(), reason="shared data sets not present")
def test_shared_set_uses_the_held_out_split() -> None:
    pairs = load_support_pairs("rgb", split="test", limit=30)
    assert pairs and all(split_of(p) == "test" for p in pairs)
    assert {p.supported for p in pairs} == {True, False}


def test_cli_support_writes_a_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        cli, ["eval", "support", str(_write(tmp_path / "pairs.jsonl")), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    saved = json.loads((out / "results.json").read_text())["support"]
    assert saved["pairs"] == 4 and math.isfinite(saved["accuracy"])
    assert "macro_f1" in result.output
