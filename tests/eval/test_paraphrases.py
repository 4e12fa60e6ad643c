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
    assert abstention["tn"] == 4  # of 4 unanswerable (3 before)
    assert attribution["claims_correct"] >= 0.8  # measured 0.846 (0.700 before)
    assert attribution["quote_verbatim_rate"] == 1.0
