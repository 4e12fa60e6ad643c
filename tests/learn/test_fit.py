"""Models fitted by ragcite.learn.fit score exactly as scikit-learn does, after a round trip."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ragcite.learn.fit import fit_logistic, fit_trees, rounded, with_calibration
from ragcite.learn.model import LearnedModel, models_to_json

pytest.importorskip("sklearn")


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    x = rng.normal(size=(400, 3)) * [1.0, 10.0, 0.1] + [0.0, 5.0, 1.0]
    y = (x[:, 0] + 0.1 * x[:, 1] - 5 * x[:, 2] + rng.normal(size=400) > 0.0).astype(int)
    return x, y


def _reloaded(model: LearnedModel) -> LearnedModel:
    text = models_to_json({"m": model}, about="test")
    return LearnedModel.from_dict(json.loads(text)["models"]["m"])


def test_a_fitted_logistic_model_matches_scikit_learn() -> None:
    from sklearn.linear_model import LogisticRegression

    x, y = _data()
    model = _reloaded(fit_logistic(x, y, features=("a", "b", "c"), c=0.5))
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    reference = LogisticRegression(C=0.5, max_iter=2000).fit((x - mean) / scale, y)
    expected = reference.predict_proba((x - mean) / scale)[:, 1]
    np.testing.assert_allclose(model.predict(x), expected, rtol=1e-9)


@pytest.mark.parametrize("standardise", [True, False])
def test_fitted_trees_match_scikit_learn(standardise: bool) -> None:
    from sklearn.ensemble import GradientBoostingClassifier

    x, y = _data()
    model = fit_trees(
        x, y, features=("a", "b", "c"), n_trees=20, depth=2, seed=13, standardise=standardise
    )
    z = (x - x.mean(axis=0)) / (x.std(axis=0) + 1e-9) if standardise else x
    reference = GradientBoostingClassifier(
        n_estimators=20, max_depth=2, learning_rate=0.1, subsample=0.8, random_state=13
    ).fit(z, y)
    expected = reference.predict_proba(z)[:, 1]
    np.testing.assert_allclose(_reloaded(model).predict(x), expected, rtol=1e-9)


def test_calibration_and_rounding_are_kept() -> None:
    x, y = _data()
    model = with_calibration(
        fit_logistic(x, y, features=("a", "b", "c")),
        platt=(2.0, -1.0),
        thresholds={"supported": 0.61},
        trained_on={"seed": 13},
    )
    small = rounded(model, digits=4)
    assert small.platt == (2.0, -1.0) and small.thresholds == {"supported": 0.61}
    assert small.trained_on == {"seed": 13}
    assert model.weights is not None and small.weights is not None
    assert small.weights.tolist() == [float(f"{w:.4g}") for w in model.weights]
    margin = model.margin(x)
    np.testing.assert_allclose(model.predict(x), 1 / (1 + np.exp(-(2.0 * margin - 1.0))))
