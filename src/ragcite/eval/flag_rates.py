"""Warning-flag rates: the share of questions whose response carries each flag."""

from __future__ import annotations

from collections import Counter

from ragcite.eval.runner import QuestionTrace

LOW_CONFIDENCE_FLAGS = ("low_overall_confidence", "majority_claims_low_confidence")


def flag_rates(traces: list[QuestionTrace]) -> dict[str, float]:
    """{code: share of responses with it}, plus "any" (share with at least one flag)."""
    if not traces:
        return {}
    counts: Counter[str] = Counter()
    for trace in traces:
        counts.update({f.code for f in trace.response.warning_flags})
    rates = {code: n / len(traces) for code, n in sorted(counts.items())}
    rates["any"] = sum(bool(t.response.warning_flags) for t in traces) / len(traces)
    return rates


def low_confidence_flag_rates(traces: list[QuestionTrace]) -> dict[str, float]:
    """How often a low-confidence flag fires on correct answers (false alarms) and on
    answered-but-wrong ones (catches)."""
    answered = [t for t in traces if t.response.answerable]

    def flagged(t: QuestionTrace) -> bool:
        return any(f.code in LOW_CONFIDENCE_FLAGS for f in t.response.warning_flags)

    correct = [flagged(t) for t in answered if t.answer_correct]
    wrong = [flagged(t) for t in answered if not t.answer_correct]
    return {
        "false_alarm_rate": sum(correct) / len(correct) if correct else float("nan"),
        "catch_rate": sum(wrong) / len(wrong) if wrong else float("nan"),
    }
