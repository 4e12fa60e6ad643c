"""The harness on the demo labelled set, with the real pipeline: one pass, every part.

The thresholds are measured floors (see the README, "Evaluation, calibration and
tuning"), set a little below what the shipped pipeline reaches, so a regression fails.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragcite.cli.main import cli
from ragcite.config import load_settings
from ragcite.eval.harness import EvalReport, evaluate
from ragcite.eval.questions import LabelledQuestion, load_questions
from ragcite.eval.report import compare_runs, write_run
from ragcite.eval.tune import apply_best, tune, tuned_settings_toml
from ragcite.pipeline import Ragcite
from ragcite.score.calibration import calibration_to_dict

ROOT = Path(__file__).resolve().parents[2]
DEMO_SET = ROOT / "eval" / "demo.jsonl"
CITATION_RECALL_FLOOR = 0.9  # measured 1.00 (extractive answers, support checker)
ABSTENTION_F1_FLOOR = 0.9  # measured 0.97


@pytest.fixture(scope="module")
def questions() -> list[LabelledQuestion]:
    return load_questions(DEMO_SET)


@pytest.fixture(scope="module")
def report(
    demo_rag: Ragcite, questions: list[LabelledQuestion], tmp_path_factory: pytest.TempPathFactory
) -> EvalReport:
    return evaluate(demo_rag, questions, plots=tmp_path_factory.mktemp("plots"))


def test_demo_set_is_the_labelled_one(questions: list[LabelledQuestion]) -> None:
    assert len(questions) >= 40
    assert sum(not q.answerable for q in questions) >= 10


def test_retrieval_per_stage(report: EvalReport) -> None:
    stages = report.results["retrieval"]
    assert set(stages) == {"dense", "keyword", "hybrid", "reranked"}
    assert stages["hybrid"]["recall@5"] >= 0.9
    assert stages["reranked"]["recall@5"] >= 0.9
    assert stages["hybrid"]["mrr@10"] >= 0.85
    assert stages["hybrid"]["ndcg@10"] <= 1.0
    # Fusion is at least as good as either retriever alone at 5.
    assert stages["hybrid"]["recall@5"] >= min(
        stages["dense"]["recall@5"], stages["keyword"]["recall@5"]
    )


def test_attribution(report: EvalReport) -> None:
    attribution = report.results["attribution"]
    assert attribution["judge"] == "support-checker"
    assert attribution["quote_verbatim_rate"] >= 0.95
    assert attribution["hallucinated_id_rate"] == 0.0
    assert attribution["citation_recall"] >= CITATION_RECALL_FLOOR
    assert attribution["citation_precision"] <= attribution["citation_recall"] + 1e-9
    assert attribution["unattributed_sentence_rate"] <= 0.05


def test_abstention(report: EvalReport) -> None:
    abstention = report.results["abstention"]
    assert abstention["f1"] >= ABSTENTION_F1_FLOOR
    assert abstention["abstained_when_unanswerable"] >= 0.5


def test_calibration_before_and_after(report: EvalReport) -> None:
    calibration = report.results["calibration"]
    claim = calibration["claim"]
    for level in ("claim", "answer"):
        for when in ("before", "after"):
            metrics = calibration[level][when]
            assert math.isfinite(metrics["ece"]) and math.isfinite(metrics["brier"])
    # Measured: claim ECE 0.07-0.22 raw, 0.03-0.12 after the held-out map, depending on the
    # support checker's version. On 79 claims a 10-bin ECE is mostly binning noise (two
    # retrains with the same Brier 0.181 gave raw ECE 0.069 and 0.110), so the map is held
    # to the proper score: it must not make the held-out Brier worse.
    assert claim["after"]["ece"] <= 0.2
    assert claim["after"]["brier"] <= claim["before"]["brier"]
    if claim["before"]["ece"] > 0.15:
        assert claim["after"]["ece"] < claim["before"]["ece"]
    assert report.fitted is not None
    assert calibration["diagram"] == "reliability.png"


def test_flag_rates(report: EvalReport) -> None:
    flags = report.results["flags"]
    assert all(0.0 <= v <= 1.0 for v in flags.values() if not math.isnan(v))
    assert flags["not_answerable"] > 0


def test_run_folders_compare_and_cli(report: EvalReport, demo_rag: Ragcite, tmp_path: Path) -> None:
    run_a = write_run(
        tmp_path / "a",
        settings=demo_rag.settings,
        dataset=str(DEMO_SET),
        command="all",
        results=report.results,
    )
    changed = json.loads(json.dumps(report.results, default=float))
    changed["abstention"]["f1"] = 0.5
    other = demo_rag.settings.model_copy(
        update={"rerank": demo_rag.settings.rerank.model_copy(update={"vector_weight": 0.5})}
    )
    run_b = write_run(
        tmp_path / "b", settings=other, dataset=str(DEMO_SET), command="all", results=changed
    )
    assert {p.name for p in run_a.iterdir()} >= {"settings.json", "results.json", "report.md"}
    comparison = compare_runs(run_a, run_b)
    f1 = next(m for m in comparison.metrics if m[0] == "abstention.f1")
    assert f1[2] == 0.5 and f1[1] != 0.5
    assert ("rerank.vector_weight", 0.3, 0.5) in comparison.settings
    result = CliRunner().invoke(cli, ["eval", "compare", str(run_a), str(run_b)])
    assert result.exit_code == 0, result.output
    assert "abstention.f1" in result.output and "vector_weight" in result.output


def test_calibration_file_is_used_by_open(
    report: EvalReport, demo_store_path: Path, tmp_path: Path
) -> None:
    assert report.fitted is not None
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(calibration_to_dict(report.fitted)))
    settings = load_settings(
        store_path=demo_store_path, overrides={"score.calibration_path": str(path)}
    )
    rag = Ragcite.open(settings)
    try:
        assert rag.calibration is not None
        assert rag.calibration(0.9) == pytest.approx(report.fitted(0.9))
    finally:
        rag.close()


def test_tune_small_grid_writes_settings(
    demo_rag: Ragcite, questions: list[LabelledQuestion], tmp_path: Path
) -> None:
    subset = questions[::4]  # both answerable and unanswerable ones
    result = tune(demo_rag, subset, vector_weights=(0.3, 0.7), claim_weights=(0.4, 0.6))
    assert len(result.candidates) == 4
    assert result.best.vector_weight + result.best.reranker_weight == pytest.approx(1.0)
    base = tmp_path / "ragcite.toml"
    base.write_text('corpus = "demo"\n[gate]\npolicy = "strict"\n')
    text = tuned_settings_toml(base, result.best, "| table |")
    data = tomllib.loads(text)
    assert data["corpus"] == "demo" and data["gate"]["policy"] == "strict"
    assert data["rerank"]["vector_weight"] == result.best.vector_weight
    base.write_text(text)
    settings = load_settings(base, store_path=tmp_path / "x.db")
    assert settings.score.claim_weight == result.best.claim_weight
    assert apply_best(demo_rag.settings, result.best).rerank == settings.rerank
