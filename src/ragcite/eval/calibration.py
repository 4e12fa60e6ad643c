"""Calibration: is a confidence of 0.8 right 80% of the time? Measure it, and fit a map.

Claim points are (raw claim confidence, claim correct); answer points are (overall
confidence, answer correct) for answered questions. `calibration_report` measures ECE
(10 bins) and Brier before and after a fitted map on held-out questions: nested
cross-validation grouped by question (outer folds give every claim a held-out
calibrated value; inside each, isotonic vs Platt is chosen by inner-fold ECE).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.config import ScoreSettings
from ragcite.errors import ConfigError
from ragcite.eval.datasets import group_fold
from ragcite.eval.metrics import brier_score, expected_calibration_error, reliability_bins
from ragcite.eval.runner import QuestionTrace
from ragcite.score.calibration import IsotonicMap, PlattMap
from ragcite.score.confidence import (
    EVIDENCE_FLOOR,
    Calibration,
    answer_confidence,
    answer_evidence,
    is_exact_and_supported,
)

BINS = 10
# A map must lower the cross-validated Brier score by more than this to replace the raw
# confidence. On a hundred claims the score's standard error is about 0.02, so either choice
# is near the noise: measured on the demo set (held-out Brier, raw → after), 81 claims with
# the earlier score stage: 0.103 → 0.107 at 0, 0.103 at 0.01; 94 claims with today's score
# stage: 0.088 → 0.081 at 0 (ECE 0.109 → 0.068), 0.094 at 0.01 (two folds' maps fitted on
# noise), 0.088 at 0.02 (no map kept).
MIN_GAIN = 0.0
OUTER_FOLDS = 5
BOOTSTRAP = 1000
INNER_FOLDS = 4
Map = IsotonicMap | PlattMap


@dataclass(frozen=True)
class Points:
    confidence: list[float]
    correct: list[bool]
    group: list[str]


def claim_points(traces: list[QuestionTrace]) -> Points:
    conf, ok, group = [], [], []
    for t in traces:
        claims = t.response.cited_claims
        raw = t.raw_confidence or [c.attribution_confidence for c in claims]
        for value, correct in zip(raw, t.claim_correct, strict=True):
            conf.append(value)
            ok.append(correct)
            group.append(t.question.id)
    return Points(conf, ok, group)


def overall_confidence(
    trace: QuestionTrace, claims: list[float] | None = None, calibration: Calibration | None = None
) -> float:
    """The answer confidence of `trace` for other claim confidences (default: the recorded
    raw ones), by the formula of `score_answer` (its weakest claim's, through the answer
    maps of `calibration` when it has them)."""
    response = trace.response
    if not response.answerable or not response.cited_claims:
        return 0.0
    values = (
        claims if claims is not None else [c.attribution_confidence for c in response.cited_claims]
    )
    return answer_confidence(values, calibration)


def answer_points(
    traces: list[QuestionTrace],
    claims_of: dict[str, list[float]] | None = None,
    calibration: Calibration | None = None,
) -> Points:
    """(overall confidence, answer correct) per answered question; `claims_of` maps a
    question id to its claims' confidences when they are not the recorded raw ones, and
    `calibration`'s answer maps (if any) map the weakest of them."""
    answered = [t for t in traces if t.response.answerable]
    return Points(
        [
            overall_confidence(t, (claims_of or {}).get(t.question.id), calibration)
            for t in answered
        ],
        [t.answer_correct for t in answered],
        [t.question.id for t in answered],
    )


def evidence_points(traces: list[QuestionTrace], settings: ScoreSettings) -> Points:
    """(answer evidence under `settings`' blend weights, answer correct) per answered
    question, from the recorded raw claim blends (see `score.confidence.answer_evidence`)."""
    conf, ok, group = [], [], []
    for t in traces:
        claims = t.response.cited_claims
        if not t.response.answerable or not claims or len(t.raw_confidence) != len(claims):
            continue
        values = [
            max(raw, EVIDENCE_FLOOR) if is_exact_and_supported(c) else raw
            for raw, c in zip(t.raw_confidence, claims, strict=True)
        ]
        by_id = t.chunks_by_id
        cited = {i for c in claims for i in c.source_chunk_ids if i in by_id}
        chunk_mean = sum(by_id[i].composite_confidence for i in cited) / len(cited) if cited else 0
        conf.append(answer_evidence(values, chunk_mean, settings))
        ok.append(t.answer_correct)
        group.append(t.question.id)
    return Points(conf, ok, group)


def by_question(points: Points, values: list[float]) -> dict[str, list[float]]:
    """`values` (one per claim point) grouped by question id, in claim order."""
    out: dict[str, list[float]] = {}
    for group, value in zip(points.group, values, strict=True):
        out.setdefault(group, []).append(value)
    return out


def ece_interval(
    points: Points, *, rounds: int = BOOTSTRAP, seed: int = 17
) -> dict[str, float | int]:
    """ECE with a 95% bootstrap interval, resampling groups (questions, or documents), so
    that points that share a group stay together.

    >>> ece_interval(Points([0.9, 0.2], [True, False], ["a", "b"]))["ece"]
    0.15
    """
    by_group: dict[str, list[int]] = {}
    for i, g in enumerate(points.group):
        by_group.setdefault(g, []).append(i)
    members = list(by_group.values())
    conf, ok = np.asarray(points.confidence), np.asarray(points.correct)
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(rounds):
        idx = [i for k in rng.integers(0, len(members), len(members)) for i in members[k]]
        values.append(expected_calibration_error(list(conf[idx]), list(ok[idx]), BINS))
    low, high = np.percentile(values, [2.5, 97.5]) if values else (np.nan, np.nan)
    return {
        "ece": expected_calibration_error(points.confidence, points.correct, BINS),
        "low": float(low),
        "high": float(high),
        "n": len(points.confidence),
        "accuracy": float(np.mean(ok)) if len(ok) else float("nan"),
    }


def calibration_metrics(points: Points) -> dict[str, float | int]:
    return {
        "ece": expected_calibration_error(points.confidence, points.correct, BINS),
        "brier": brier_score(points.confidence, points.correct),
        "mean_confidence": float(np.mean(points.confidence)) if points.confidence else np.nan,
        "accuracy": float(np.mean(points.correct)) if points.correct else np.nan,
        "n": len(points.confidence),
    }


# -- fitting --------------------------------------------------------------------------------


def _sklearn() -> Any:
    try:
        import sklearn
    except ImportError:
        raise ConfigError(
            "fitting a calibration map needs scikit-learn: pip install 'ragcite[eval]'"
        ) from None
    return sklearn


def fit_isotonic(confidence: Sequence[float], correct: Sequence[bool]) -> IsotonicMap:
    """Isotonic regression, each fitted step's rate smoothed as (right + 1) / (n + 2): a
    step of 50 claims all right reads 0.98, not a certainty the data cannot show."""
    _sklearn()
    from sklearn.isotonic import IsotonicRegression

    x = np.asarray(confidence, dtype=np.float64)
    y = np.asarray(correct, dtype=np.float64)
    model = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip")
    fitted = model.fit(x, y).predict(x)
    smoothed = {}
    for rate in np.unique(fitted):
        members = y[fitted == rate]
        smoothed[float(rate)] = (members.sum() + 1.0) / (len(members) + 2.0)
    steps = np.maximum.accumulate([smoothed.get(float(v), float(v)) for v in model.y_thresholds_])
    return IsotonicMap(tuple(float(v) for v in model.X_thresholds_), tuple(float(v) for v in steps))


def fit_platt(confidence: Sequence[float], correct: Sequence[bool]) -> PlattMap:
    _sklearn()
    from sklearn.linear_model import LogisticRegression

    y = np.asarray(correct, dtype=int)
    if y.min() == y.max():  # one class: a constant map at the observed rate
        return PlattMap(0.0, 6.0 if y[0] else -6.0)
    # Default (mild) regularisation: on a hundred claims an unregularised slope overfits,
    # measured as a worse held-out ECE on the demo set.
    model = LogisticRegression(C=1.0)
    model.fit(np.asarray(confidence, dtype=np.float64).reshape(-1, 1), y)
    return PlattMap(float(model.coef_[0][0]), float(model.intercept_[0]))


def fit_identity(confidence: Sequence[float], correct: Sequence[bool]) -> IsotonicMap:
    """No map: the raw confidence as it is (chosen when no map beats it)."""
    del confidence, correct
    return IsotonicMap((0.0, 1.0), (0.0, 1.0))


FITTERS: dict[str, Callable[[Sequence[float], Sequence[bool]], Map]] = {
    "isotonic": fit_isotonic,
    "platt": fit_platt,
    "identity": fit_identity,
}


def _out_of_fold(points: Points, method: str, folds: int, salt: str) -> list[float] | None:
    """Held-out calibrated values for every point, or None if a fold has nothing to fit."""
    assign = [group_fold(g, folds, salt=salt) for g in points.group]
    out = [0.0] * len(points.confidence)
    for fold in range(folds):
        train = [i for i, f in enumerate(assign) if f != fold]
        test = [i for i, f in enumerate(assign) if f == fold]
        if not test:
            continue
        if len(train) < 4:
            return None
        mapping = FITTERS[method](
            [points.confidence[i] for i in train], [points.correct[i] for i in train]
        )
        for i in test:
            out[i] = mapping(points.confidence[i])
    return out


def choose_method(points: Points, *, folds: int = INNER_FOLDS, salt: str = "inner") -> str:
    """isotonic or platt, whichever has the lower cross-validated ECE (Platt on a tie: it
    is the safer of the two on small sets), among the maps whose cross-validated Brier
    score beats the raw confidence's by `MIN_GAIN`. A map that flattens confidence to the base
    rate has a low ECE but has lost the ranking that made confidence useful; when no map
    keeps it, the raw confidence stays ("identity")."""
    raw_brier = brier_score(points.confidence, points.correct)
    scores = {}
    for method in ("platt", "isotonic"):
        held_out = _out_of_fold(points, method, folds, salt)
        if held_out is None or brier_score(held_out, points.correct) > raw_brier - MIN_GAIN:
            continue
        scores[method] = expected_calibration_error(held_out, points.correct, BINS)
    if not scores:
        return "identity"
    return min(scores, key=lambda m: (scores[m], m != "platt"))


def fit_calibration(points: Points) -> tuple[Map, str]:
    """The map (method chosen by held-out ECE) fitted on all `points`."""
    if len(points.confidence) < 2:
        raise ConfigError("too few labelled claims to fit a calibration map (need 2 or more)")
    method = choose_method(points)
    return FITTERS[method](points.confidence, points.correct), method


def held_out_calibration(points: Points) -> dict[str, Any]:
    """ECE and Brier before and after calibration, every point judged by a map fitted
    without its question (outer folds), the method chosen inside each outer fold."""
    assign = [group_fold(g, OUTER_FOLDS, salt="outer") for g in points.group]
    after = [0.0] * len(points.confidence)
    methods = []
    for fold in range(OUTER_FOLDS):
        train_idx = [i for i, f in enumerate(assign) if f != fold]
        test_idx = [i for i, f in enumerate(assign) if f == fold]
        if not test_idx:
            continue
        train = Points(
            [points.confidence[i] for i in train_idx],
            [points.correct[i] for i in train_idx],
            [points.group[i] for i in train_idx],
        )
        mapping, method = fit_calibration(train)
        methods.append(method)
        for i in test_idx:
            after[i] = mapping(points.confidence[i])
    return {
        "before": calibration_metrics(points),
        "after": calibration_metrics(Points(after, points.correct, points.group)),
        "methods_chosen": methods,
        "after_confidence": after,
    }


# -- reliability diagram --------------------------------------------------------------------


def reliability_diagram(curves: dict[str, Points], path: Path, title: str) -> Path:
    """A PNG: observed frequency against mean confidence per bin, one line per curve."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError(
            "reliability diagrams need matplotlib: pip install 'ragcite[eval]'"
        ) from None
    fig, ax = plt.subplots(figsize=(5, 5), dpi=110)
    ax.plot([0, 1], [0, 1], linestyle=":", color="grey", label="perfect calibration")
    for name, points in curves.items():
        bins = [b for b in reliability_bins(points.confidence, points.correct, BINS) if b.count]
        ece = expected_calibration_error(points.confidence, points.correct, BINS)
        ax.plot(
            [b.mean_confidence for b in bins],
            [b.observed for b in bins],
            marker="o",
            label=f"{name} (ECE {ece:.3f}, n={len(points.confidence)})",
        )
    ax.set(
        xlim=(0, 1), ylim=(0, 1), xlabel="confidence", ylabel="observed share correct", title=title
    )
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
