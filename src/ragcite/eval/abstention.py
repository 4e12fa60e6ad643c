"""Abstention: does `answerable` match whether the documents answer the question?

The positive class is "answered": precision is the share of answered questions that
were answerable, recall the share of answerable questions that were answered. The
`decline_*` figures take declining as the positive class (as issue reports do: precision
is the share of declined questions that were unanswerable, recall the share of
unanswerable questions declined).
"""

from __future__ import annotations

from ragcite.eval.metrics import binary_counts
from ragcite.eval.runner import QuestionTrace


def abstention_metrics(traces: list[QuestionTrace]) -> dict[str, float | int]:
    counts = binary_counts(
        [t.response.answerable for t in traces], [t.question.answerable for t in traces]
    )
    unanswerable = counts.fp + counts.tn
    declined = counts.tn + counts.fn
    decline_precision = counts.tn / declined if declined else float("nan")
    decline_recall = counts.tn / unanswerable if unanswerable else float("nan")
    both = decline_precision + decline_recall
    return {
        "precision": counts.precision,
        "recall": counts.recall,
        "f1": counts.f1,
        "accuracy": counts.accuracy,
        "abstained_when_unanswerable": decline_recall,
        "decline_precision": decline_precision,
        "decline_recall": decline_recall,
        "decline_f1": 2 * decline_precision * decline_recall / both if both else float("nan"),
        "answered": counts.tp + counts.fp,
        "questions": len(traces),
        "tp": counts.tp,
        "fp": counts.fp,
        "fn": counts.fn,
        "tn": counts.tn,
    }
