"""Plain metric functions (NumPy only): ranking, classification, calibration.

>>> recall_at_k([False, True, False], k=2, total_relevant=1)
1.0
>>> expected_calibration_error([0.9, 0.2], [True, False])
0.15
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


def _nan_if_empty(values: Sequence[float]) -> float:
    return float(np.mean(values)) if len(values) else math.nan


# -- ranking ---------------------------------------------------------------------------------


def precision_at_k(relevant: Sequence[bool], k: int) -> float:
    """Share of the first k results that are relevant (missing results count as misses)."""
    return sum(relevant[:k]) / k


def recall_at_k(relevant: Sequence[bool], k: int, total_relevant: int = 1) -> float:
    """Share of the relevant items found in the first k (capped at 1: a query usually has one)."""
    if total_relevant <= 0:
        return math.nan
    return min(1.0, sum(relevant[:k]) / total_relevant)


def reciprocal_rank(relevant: Sequence[bool], k: int = 10) -> float:
    return next((1.0 / (i + 1) for i, rel in enumerate(relevant[:k]) if rel), 0.0)


def ndcg_at_k(relevant: Sequence[bool], k: int = 10) -> float:
    """nDCG@k for a query with one expected passage: only its first hit counts (chunks
    that overlap the same passage are not extra relevant items), so 1 / log2(1 + rank)."""
    return next((1.0 / math.log2(i + 2) for i, rel in enumerate(relevant[:k]) if rel), 0.0)


# -- classification ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BinaryCounts:
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else math.nan

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else math.nan

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r > 0 else 0.0

    @property
    def accuracy(self) -> float:
        total = self.tp + self.fp + self.fn + self.tn
        return (self.tp + self.tn) / total if total else math.nan


def binary_counts(predicted: Sequence[bool], actual: Sequence[bool]) -> BinaryCounts:
    pairs = list(zip(predicted, actual, strict=True))
    return BinaryCounts(
        tp=sum(p and a for p, a in pairs),
        fp=sum(p and not a for p, a in pairs),
        fn=sum(a and not p for p, a in pairs),
        tn=sum(not p and not a for p, a in pairs),
    )


def macro_f1(predicted: Sequence[bool], actual: Sequence[bool]) -> float:
    """Mean F1 of the positive and the negative class."""
    pos = binary_counts(predicted, actual)
    neg = binary_counts([not p for p in predicted], [not a for a in actual])
    return (pos.f1 + neg.f1) / 2


def roc_auc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """Area under the ROC curve (Mann–Whitney, ties count half); NaN with one class only."""
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=bool)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        return math.nan
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s), dtype=np.float64)
    sorted_s = s[order]
    i = 0
    while i < len(s):  # average ranks over ties
        j = i
        while j + 1 < len(s) and sorted_s[j + 1] == sorted_s[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


# -- calibration ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReliabilityBin:
    lower: float
    upper: float
    count: int
    mean_confidence: float
    observed: float


def reliability_bins(
    confidences: Sequence[float], outcomes: Sequence[bool], bins: int = 10
) -> list[ReliabilityBin]:
    """Equal-width bins over [0, 1]; the last bin includes 1.0."""
    c = np.clip(np.asarray(confidences, dtype=np.float64), 0.0, 1.0)
    y = np.asarray(outcomes, dtype=np.float64)
    index = np.minimum((c * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        mask = index == b
        n = int(mask.sum())
        out.append(
            ReliabilityBin(
                lower=b / bins,
                upper=(b + 1) / bins,
                count=n,
                mean_confidence=float(c[mask].mean()) if n else math.nan,
                observed=float(y[mask].mean()) if n else math.nan,
            )
        )
    return out


def expected_calibration_error(
    confidences: Sequence[float], outcomes: Sequence[bool], bins: int = 10
) -> float:
    """ECE: the count-weighted mean |confidence − observed frequency| over equal-width bins."""
    total = len(confidences)
    if total == 0:
        return math.nan
    return sum(
        b.count / total * abs(b.mean_confidence - b.observed)
        for b in reliability_bins(confidences, outcomes, bins)
        if b.count
    )


def brier_score(confidences: Sequence[float], outcomes: Sequence[bool]) -> float:
    if not len(confidences):
        return math.nan
    c = np.asarray(confidences, dtype=np.float64)
    y = np.asarray(outcomes, dtype=np.float64)
    return float(np.mean((c - y) ** 2))


def mean(values: Sequence[float]) -> float:
    """The mean, or NaN for no values (a metric with nothing to measure)."""
    return _nan_if_empty(values)
