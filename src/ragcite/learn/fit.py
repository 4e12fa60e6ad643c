"""Fitting the small learned models (training time only: needs scikit-learn).

Each function fits one kind of `LearnedModel` and returns it ready to write with
`models_to_json`; scikit-learn is imported when a function is called, so nothing at run
time needs it. Install it with `pip install 'ragcite[train]'`.

    >>> model = fit_logistic(x, y, features=("overlap", "cosine"), c=1.0)
    >>> model.predict(x[:2])                                         # doctest: +SKIP
    array([0.91, 0.12])
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ragcite.errors import ConfigError
from ragcite.learn.model import Array, LearnedModel
from ragcite.learn.trees import Tree, tree_to_dict

INSTALL_HINT = "training needs scikit-learn: pip install 'ragcite[train]'"


def require_sklearn() -> None:
    """Raise ConfigError with the install command unless scikit-learn is importable."""
    try:
        importlib.import_module("sklearn")
    except ImportError:
        raise ConfigError(INSTALL_HINT) from None


def standardisation(x: Array) -> tuple[Array, Array]:
    """Per-feature mean and scale (standard deviation, never 0)."""
    return x.mean(axis=0), x.std(axis=0) + 1e-9


def fit_logistic(
    x: Array,
    y: npt.NDArray[Any],
    *,
    features: Sequence[str],
    c: float = 1.0,
    sample_weight: Array | None = None,
) -> LearnedModel:
    """L2-regularised logistic regression (inverse strength `c`) on standardised `x`."""
    require_sklearn()
    from sklearn.linear_model import LogisticRegression

    mean, scale = standardisation(x)
    model = LogisticRegression(C=c, max_iter=2000)
    model.fit((x - mean) / scale, y, sample_weight=sample_weight)
    return LearnedModel(
        features=tuple(features),
        kind="logistic",
        mean=mean,
        scale=scale,
        weights=np.asarray(model.coef_[0], dtype=np.float64),
        bias=float(model.intercept_[0]),
    )


def fit_trees(
    x: Array,
    y: npt.NDArray[Any],
    *,
    features: Sequence[str],
    n_trees: int,
    depth: int,
    seed: int,
    standardise: bool = True,
    learning_rate: float = 0.1,
    sample_weight: Array | None = None,
) -> LearnedModel:
    """Gradient-boosted regression trees (subsample 0.8), on standardised or raw `x`."""
    require_sklearn()
    from sklearn.ensemble import GradientBoostingClassifier

    mean, scale = standardisation(x) if standardise else (None, None)
    z = x if mean is None or scale is None else (x - mean) / scale
    model = GradientBoostingClassifier(
        n_estimators=n_trees,
        max_depth=depth,
        learning_rate=learning_rate,
        subsample=0.8,
        random_state=seed,
    ).fit(z, y, sample_weight=sample_weight)
    prior = float(model.init_.predict_proba(z[:1])[0, 1])
    return LearnedModel(
        features=tuple(features),
        kind="trees",
        mean=mean,
        scale=scale,
        trees=tuple(Tree.from_dict(tree_to_dict(e)) for e in model.estimators_[:, 0]),
        init=float(np.log(prior / (1 - prior))),
        learning_rate=learning_rate,
    )


def with_calibration(
    model: LearnedModel,
    *,
    platt: tuple[float, float] | None = None,
    thresholds: Mapping[str, float] | None = None,
    trained_on: Mapping[str, Any] | None = None,
) -> LearnedModel:
    """`model` with a Platt map, named thresholds or its provenance added."""
    return replace(
        model,
        platt=platt if platt is not None else model.platt,
        thresholds=dict(thresholds) if thresholds is not None else model.thresholds,
        trained_on=dict(trained_on) if trained_on is not None else model.trained_on,
    )


def rounded(model: LearnedModel, digits: int = 10) -> LearnedModel:
    """Every number to `digits` significant digits: a rebuild writes the same bytes despite
    BLAS noise, and what ships is what is evaluated."""
    data = _round(model.to_dict(), digits)
    return LearnedModel.from_dict(data)


def _round(value: Any, digits: int) -> Any:
    if isinstance(value, float):
        return float(f"{value:.{digits}g}")
    if isinstance(value, list):
        return [_round(v, digits) for v in value]
    if isinstance(value, dict):
        return {k: _round(v, digits) for k, v in value.items()}
    return value
