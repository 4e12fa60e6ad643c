"""Stacking a support model with overlap folds into one logistic model that scores the same."""

from __future__ import annotations

import numpy as np
import pytest

from ragcite.eval.datasets import SupportPair
from ragcite.learn.fit import fit_logistic, with_calibration
from ragcite.train.support_data import Splits
from ragcite.train.support_overlap import Candidate, choose, shortfall, stacked

pytest.importorskip("sklearn")


def _data(n: int = 600) -> tuple[Splits, np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.uniform(size=(n, 3))
    y = (x[:, 0] + 0.5 * x[:, 1] + 0.3 * rng.normal(size=n) > 0.8).astype(int)
    pairs = [SupportPair(["e"], f"c{i}", bool(y[i]), f"g{i}", "wice") for i in range(n)]
    split = np.array(["train", "validation", "test"])[np.arange(n) % 3]
    return Splits(pairs, y, np.array(["wice"] * n), split), x


def test_the_folded_model_scores_what_the_stack_scores() -> None:
    data, x = _data()
    features = ("lex_overlap", "sem_max", "lex_claim_words")
    model = fit_logistic(x[data.tr], data.y[data.tr], features=features)
    model = with_calibration(model, platt=(0.9, 0.1))
    for weight in (0.0, 0.5, 2.0):
        folded, p = stacked(model, x, data, weight)
        np.testing.assert_allclose(folded.predict(x), p, rtol=1e-9)
        assert folded.kind == "logistic" and folded.features == features
    heavy, _ = stacked(model, x, data, 3.0)
    light, _ = stacked(model, x, data, 0.0)
    assert heavy.weights is not None and light.weights is not None
    share = lambda w: abs(w[0]) / np.abs(w).sum()  # noqa: E731
    assert share(heavy.weights) > share(light.weights)  # overlap weighs more


def test_a_score_below_overlap_somewhere_is_not_chosen_over_one_that_is_not() -> None:
    data, x = _data()
    overlap = x[:, 0]
    assert shortfall(overlap, overlap, data) == 0.0
    noisy = overlap + np.random.default_rng(1).normal(size=len(overlap))
    assert shortfall(noisy, overlap, data) < 0
    model = fit_logistic(x[data.tr], data.y[data.tr], features=("a", "b", "c"))
    below = Candidate("logistic", 0.0, model, noisy, -0.05, 0.99)
    keeps = Candidate("signed logistic", 1.0, model, overlap, 0.0, 0.70)
    worse = Candidate("logistic", 2.0, model, overlap, -0.10, 0.80)
    assert choose([below, keeps]) is keeps
    assert choose([below, worse]) is below  # none keeps: the smallest shortfall
