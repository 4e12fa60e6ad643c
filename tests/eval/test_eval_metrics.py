"""The metric functions against hand-computed values."""

from __future__ import annotations

import math

import pytest

from ragcite.eval.metrics import (
    binary_counts,
    brier_score,
    expected_calibration_error,
    macro_f1,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
    roc_auc,
)


def test_ranking_metrics() -> None:
    hits = [False, True, True, False]
    assert recall_at_k(hits, 1) == 0.0
    assert recall_at_k(hits, 2) == 1.0
    assert recall_at_k(hits, 3) == 1.0  # one expected passage: capped at 1
    assert precision_at_k(hits, 4) == 0.5
    assert reciprocal_rank(hits) == 0.5
    assert ndcg_at_k(hits) == pytest.approx(1 / math.log2(3))
    assert ndcg_at_k([False] * 5) == 0.0


def test_classification_metrics() -> None:
    predicted = [True, True, False, False, True]
    actual = [True, False, False, True, True]
    counts = binary_counts(predicted, actual)
    assert (counts.tp, counts.fp, counts.fn, counts.tn) == (2, 1, 1, 1)
    assert counts.f1 == pytest.approx(2 / 3)
    assert macro_f1(predicted, actual) == pytest.approx((2 / 3 + 0.5) / 2)


def test_roc_auc_with_ties_and_one_class() -> None:
    assert roc_auc([0.9, 0.8, 0.3, 0.1], [True, True, False, False]) == 1.0
    assert roc_auc([0.5, 0.5], [True, False]) == 0.5
    assert math.isnan(roc_auc([0.2, 0.4], [True, True]))


def test_calibration_metrics() -> None:
    assert expected_calibration_error([0.9, 0.2], [True, False]) == pytest.approx(0.15)
    assert expected_calibration_error([1.0, 1.0], [True, True]) == 0.0
    assert brier_score([1.0, 0.0, 0.5], [True, False, True]) == pytest.approx(0.25 / 3)
    assert math.isnan(expected_calibration_error([], []))
