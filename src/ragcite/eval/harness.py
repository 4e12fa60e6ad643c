"""One evaluation over a labelled question set: run the pipeline once, compute each part.

>>> rag = Ragcite.open(load_settings())
>>> report = evaluate(rag, load_questions(Path("eval/demo.jsonl")))
>>> report.results["retrieval"]["hybrid"]["recall@5"]
0.97
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragcite.eval.abstention import abstention_metrics
from ragcite.eval.attribution import CheckerJudge, SupportJudge, attribution_metrics
from ragcite.eval.calibration import (
    Map,
    Points,
    answer_points,
    by_question,
    calibration_metrics,
    claim_points,
    fit_calibration,
    held_out_calibration,
    reliability_diagram,
)
from ragcite.eval.flag_rates import flag_rates, low_confidence_flag_rates
from ragcite.eval.questions import LabelledQuestion
from ragcite.eval.retrieval import retrieval_metrics
from ragcite.eval.runner import QuestionTrace, run_questions
from ragcite.eval.versions import version_metrics
from ragcite.pipeline import Ragcite
from ragcite.score.calibration import calibration_to_dict

PARTS = ("retrieval", "attribution", "abstention", "calibration", "flags", "versions")


@dataclass(frozen=True)
class EvalReport:
    results: dict[str, Any]
    traces: list[QuestionTrace]
    fitted: Map | None  # the calibration map fitted on all claims (calibration part only)


def evaluate(
    rag: Ragcite,
    questions: list[LabelledQuestion],
    *,
    parts: tuple[str, ...] = PARTS,
    judge: SupportJudge | None = None,
    plots: Path | None = None,
    on_question: Callable[[], None] | None = None,
    traces: list[QuestionTrace] | None = None,
) -> EvalReport:
    """The metrics of `parts` for `questions`; reliability diagrams under `plots` if given."""
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"unknown eval parts {sorted(unknown)}: choose from {PARTS}")
    if traces is None:
        traces = run_questions(rag, questions, on_question=on_question)
    results: dict[str, Any] = {}
    if "retrieval" in parts:
        results["retrieval"] = retrieval_metrics(traces)
    if "attribution" in parts:
        if judge is None:
            if rag.support_checker is None:
                raise ValueError("attribution needs a support checker or an LLM judge")
            judge = CheckerJudge(rag.support_checker)
        results["attribution"] = {"judge": judge.name, **attribution_metrics(traces, judge)}
    if "abstention" in parts:
        results["abstention"] = abstention_metrics(traces)
    fitted = None
    if "calibration" in parts:
        results["calibration"], fitted = calibration_results(rag, traces, plots)
    if "flags" in parts:
        results["flags"] = {**flag_rates(traces), **low_confidence_flag_rates(traces)}
    if "versions" in parts:
        results["versions"] = version_metrics(traces)
    return EvalReport(results, traces, fitted)


def calibration_results(
    rag: Ragcite, traces: list[QuestionTrace], plots: Path | None
) -> tuple[dict[str, Any], Map | None]:
    """Claim and answer calibration before and after a map (held-out), and the map itself."""
    claims = claim_points(traces)
    answers = answer_points(traces)
    out: dict[str, Any] = {
        "claim": {"before": calibration_metrics(claims)},
        "answer": {"before": calibration_metrics(answers)},
    }
    curves = {"claim, raw": claims, "answer, raw": answers}
    fitted: Map | None = None
    if len(set(claims.group)) >= 5 and len(set(claims.correct)) == 2:
        held = held_out_calibration(claims)
        after = Points(held["after_confidence"], claims.correct, claims.group)
        out["claim"]["after"] = held["after"]
        # Each answer's claims mapped by a map fitted without its question.
        answers_after = answer_points(traces, by_question(claims, after.confidence))
        out["answer"]["after"] = calibration_metrics(answers_after)
        out["methods_chosen_per_fold"] = held["methods_chosen"]
        fitted, method = fit_calibration(claims)
        out["fitted"] = {**calibration_to_dict(fitted), "chosen_by_held_out_ece": method}
        curves["claim, calibrated (held-out)"] = after
        curves["answer, calibrated claims (held-out)"] = answers_after
    if rag.calibration is not None:
        mapped = [rag.calibration(v) for v in claims.confidence]
        out["claim"]["configured"] = calibration_metrics(
            Points(mapped, claims.correct, claims.group)
        )
        out["answer"]["configured"] = calibration_metrics(
            answer_points(traces, by_question(claims, mapped), rag.calibration)
        )
    if plots is not None:
        reliability_diagram(curves, plots / "reliability.png", "Reliability diagram")
        out["diagram"] = "reliability.png"
    return out, fitted
