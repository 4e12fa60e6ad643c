"""Questions over the demo corpus asked as a user words them, not as the documents do
(`eval/paraphrases.jsonl`: "What happens if I lose my laptop?" over "Lost or stolen laptops
… must be reported within 4 hours"). Floors a little below what the shipped pipeline
reaches (README, "Evaluation, calibration and tuning"), so a regression fails."""

from __future__ import annotations

from pathlib import Path

from ragcite.eval.harness import evaluate
from ragcite.eval.questions import load_questions
from ragcite.pipeline import Ragcite

PARAPHRASES = Path(__file__).resolve().parents[2] / "eval" / "paraphrases.jsonl"


def test_paraphrased_questions_are_answered_from_the_right_passage(
    demo_rag: Ragcite, tmp_path: Path
) -> None:
    questions = load_questions(PARAPHRASES)
    assert len(questions) == 20 and sum(not q.answerable for q in questions) == 4

    results = evaluate(demo_rag, questions, plots=tmp_path).results

    abstention, attribution = results["abstention"], results["attribution"]
    assert abstention["tp"] >= 12  # of 16 answerable: 12 measured (9 before, issue 19)
    # of 4 unanswerable: 4 before the question map; with it, "Does Northwind match employee
    # donations?" quotes the pension match ("matches 100% of your contributions") instead of
    # the health-insurance sentence it was tied with, and "contributions" passes as a
    # synonym of "donations" (docs/blind-rounds.md, "Rounds 59 to 62")
    assert abstention["tn"] >= 3
    assert attribution["claims_correct"] >= 0.75  # measured 0.765 (0.812 without the map)
    assert attribution["quote_verbatim_rate"] == 1.0
