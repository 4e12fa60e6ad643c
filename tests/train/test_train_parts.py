"""The training recipes' pieces: sampling by group, weights, thresholds, ranking metrics."""

from __future__ import annotations

import numpy as np
import pytest

from ragcite.eval.datasets import SupportPair
from ragcite.train.rerank_eval import ranking_metrics
from ragcite.train.support_data import Splits, cap_per_source, signals_cache_key, source_weights
from ragcite.train.support_fit import best_threshold, evaluation_groups, fit_form, metrics


def _pair(group: str, source: str) -> SupportPair:
    return SupportPair(["evidence"], f"claim {group}", True, group, source)


def test_sampling_keeps_whole_groups_and_is_deterministic() -> None:
    pairs = [_pair(f"g{i // 3}", "big") for i in range(3000)] + [_pair("s", "small")] * 5
    kept = cap_per_source(pairs, 300)
    assert kept == cap_per_source(pairs, 300)
    groups = {p.group for p in kept if p.source == "big"}
    assert all(sum(p.group == g for p in kept) == 3 for g in groups)  # whole groups only
    assert 200 < sum(p.source == "big" for p in kept) < 400
    assert sum(p.source == "small" for p in kept) == 5  # under the cap: all kept
    assert cap_per_source(pairs, 300, seed=14) != kept


def test_every_data_set_weighs_the_same_real_world_double() -> None:
    sources = np.array(["anli"] * 30 + ["rgb"] * 10 + ["attributionbench"] * 5)
    w = source_weights(sources)
    assert w[sources == "anli"].sum() == pytest.approx(1000)
    assert w[sources == "rgb"].sum() == pytest.approx(1000)
    assert w[sources == "attributionbench"].sum() == pytest.approx(2000)


def test_the_threshold_separates_separable_scores() -> None:
    y = np.array([0] * 50 + [1] * 50)
    p = np.concatenate([np.linspace(0.0, 0.4, 50), np.linspace(0.6, 1.0, 50)])
    t = best_threshold(y, p)
    assert 0.4 < t <= 0.6
    assert metrics(y, p, t)["f1"] == 1.0 and metrics(y, p, t)["auc"] == 1.0
    smoothed = best_threshold(y, p, smooth=7)
    assert metrics(y, p, smoothed)["f1"] > 0.9


def test_ranking_metrics_read_the_first_relevant_rank() -> None:
    rankings = [[True, False], [False, False, True], [False] * 12 + [True]]
    m = ranking_metrics(rankings)
    assert m["recall@1"] == pytest.approx(1 / 3)
    assert m["recall@5"] == pytest.approx(2 / 3)
    assert m["mrr@10"] == pytest.approx((1 + 1 / 3 + 0) / 3)


def test_cached_signals_are_keyed_by_the_pairs() -> None:
    pairs = [_pair("a", "anli"), _pair("b", "anli")]
    assert signals_cache_key(pairs) == signals_cache_key(list(pairs))
    assert signals_cache_key(pairs) != signals_cache_key(pairs[:1])
    assert signals_cache_key(pairs) != signals_cache_key([pairs[0], _pair("c", "anli")])


def _splits(sources: list[str], split: list[str]) -> Splits:
    pairs = [_pair(f"g{i}", s) for i, s in enumerate(sources)]
    return Splits(
        pairs=pairs,
        y=np.array([i % 2 for i in range(len(pairs))]),
        sources=np.array(sources),
        split=np.array(split),
    )


def test_held_out_sets_are_measured_but_never_fitted_or_pooled() -> None:
    data = _splits(
        ["anli", "extractive", "extractive", "anli"], ["validation", "validation", "test", "train"]
    )
    assert data.va.tolist() == [True, True, False, False]
    assert data.va_fit.tolist() == [True, False, False, False]  # calibration, thresholds
    groups = evaluation_groups(data)
    assert groups["extractive"].tolist() == [False, True, True, False]  # its own row
    assert groups["all pooled"].tolist() == [True, False, False, True]


def test_every_form_keeps_the_directions_it_is_given() -> None:
    rng = np.random.default_rng(3)
    features = ("lex_overlap", "hard_number_conflict", "lex_claim_words")
    x = rng.uniform(size=(300, 3))
    # the data say overlap lowers support and a conflict raises it: the constrained forms
    # must not follow them
    y = (x[:, 1] - x[:, 0] + 0.2 * rng.normal(size=300) > 0).astype(int)
    w = np.ones(300)
    grid = rng.uniform(size=(200, 3))
    for form in ("signed logistic", "monotone trees"):
        model = fit_form(form, x, y, w, features, 13)
        for column, sign in ((0, 1), (1, -1)):
            raised = grid.copy()
            raised[:, column] = np.minimum(raised[:, column] + 0.3, 1.0)
            assert np.all(sign * (model.margin(raised) - model.margin(grid)) >= -1e-9), form
    free = fit_form("logistic", x, y, w, features, 13)
    assert free.weights is not None and free.weights[0] < 0 < free.weights[1]
