"""Sign-constrained logistic regression and monotone trees score as scikit-learn fits
them, keep the directions they are given, and survive the JSON round trip."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ragcite.errors import ConfigError
from ragcite.learn.constrained import fit_monotone_trees, fit_signed_logistic
from ragcite.learn.model import LearnedModel, models_to_json

pytest.importorskip("sklearn")


def _data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    x = rng.normal(size=(400, 3)) * [1.0, 10.0, 0.1] + [0.0, 5.0, 1.0]
    y = (x[:, 0] + 0.1 * x[:, 1] - 5 * x[:, 2] + rng.normal(size=400) > 0.0).astype(int)
    return x, y, rng.uniform(0.5, 2.0, size=400)


def _reloaded(model: LearnedModel) -> LearnedModel:
    text = models_to_json({"m": model}, about="test")
    return LearnedModel.from_dict(json.loads(text)["models"]["m"])


def test_unconstrained_signed_logistic_is_scikit_learns_fit() -> None:
    from sklearn.linear_model import LogisticRegression

    x, y, w = _data()
    model = _reloaded(
        fit_signed_logistic(x, y, features=("a", "b", "c"), signs=(0, 0, 0), c=0.5, sample_weight=w)
    )
    z = (x - x.mean(axis=0)) / (x.std(axis=0) + 1e-9)
    reference = LogisticRegression(C=0.5, max_iter=5000, tol=1e-10).fit(z, y, sample_weight=w)
    np.testing.assert_allclose(model.predict(x), reference.predict_proba(z)[:, 1], atol=1e-6)


def test_a_sign_the_data_disagrees_with_is_held_at_zero() -> None:
    x, y, _ = _data()
    free = fit_signed_logistic(x, y, features=("a", "b", "c"), signs=(0, 0, 0))
    held = fit_signed_logistic(x, y, features=("a", "b", "c"), signs=(-1, 0, 1))
    assert free.weights is not None and held.weights is not None
    assert free.weights[0] > 0 and free.weights[2] < 0  # what the data says
    assert held.weights[0] == pytest.approx(0.0, abs=1e-9)
    assert held.weights[2] == pytest.approx(0.0, abs=1e-9)


def test_monotone_trees_match_scikit_learn_and_keep_their_directions() -> None:
    from sklearn.ensemble import HistGradientBoostingClassifier

    x, y, w = _data()
    model = _reloaded(
        fit_monotone_trees(
            x, y, features=("a", "b", "c"), signs=(1, 1, -1), n_trees=30, sample_weight=w
        )
    )
    reference = HistGradientBoostingClassifier(
        max_iter=30,
        max_leaf_nodes=8,
        learning_rate=0.1,
        l2_regularization=1.0,
        monotonic_cst=[1, 1, -1],
        early_stopping=False,
        random_state=13,
    ).fit(x, y, sample_weight=w)
    grid = np.random.default_rng(9).normal(size=(500, 3)) * [1.0, 10.0, 0.1] + [0.0, 5.0, 1.0]
    np.testing.assert_allclose(model.predict(grid), reference.predict_proba(grid)[:, 1], atol=1e-12)
    for column, sign in enumerate((1, 1, -1)):
        raised = grid.copy()
        raised[:, column] += 1.0
        assert np.all(sign * (model.margin(raised) - model.margin(grid)) >= -1e-12)


def test_signs_must_name_a_direction_per_feature() -> None:
    x, y, _ = _data()
    with pytest.raises(ConfigError, match="signs must give"):
        fit_signed_logistic(x, y, features=("a", "b", "c"), signs=(1, 0))
    with pytest.raises(ConfigError, match="signs must give"):
        fit_monotone_trees(x, y, features=("a", "b", "c"), signs=(2, 0, 0))
