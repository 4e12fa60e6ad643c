"""Fitting models whose response to chosen features has a fixed direction (training only).

A support score should never fall because the evidence covers more of the claim, nor rise
because it holds a conflicting number: with correlated signals an unconstrained fit can
give one of them the wrong sign and throw away what it knows. Both fitters here take a
direction per feature (+1 rising, -1 falling, 0 free) and return an ordinary
`LearnedModel` (logistic, or trees in the shared JSON layout), so scoring needs NumPy only.

    >>> model = fit_signed_logistic(x, y, features=("overlap", "conflict"), signs=(1, -1))
    >>> model.weights[0] >= 0 >= model.weights[1]                     # doctest: +SKIP
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ragcite.errors import ConfigError
from ragcite.learn.fit import require_sklearn, standardisation
from ragcite.learn.model import Array, LearnedModel
from ragcite.learn.trees import Tree


def _check_signs(signs: Sequence[int], features: Sequence[str]) -> None:
    if len(signs) != len(features) or any(s not in (-1, 0, 1) for s in signs):
        raise ConfigError(
            f"signs must give -1, 0 or 1 for each of the {len(features)} features "
            f"({', '.join(features)}); got {list(signs)}"
        )


def fit_signed_logistic(
    x: Array,
    y: npt.NDArray[Any],
    *,
    features: Sequence[str],
    signs: Sequence[int],
    c: float = 1.0,
    sample_weight: Array | None = None,
) -> LearnedModel:
    """L2-regularised logistic regression on standardised `x` (scikit-learn's objective:
    `c` times the weighted log-loss plus half the squared weights, bias unpenalised) with
    each weight's sign bounded by `signs`. With all signs 0 it is scikit-learn's fit."""
    require_sklearn()  # scipy comes with it
    from scipy.optimize import minimize

    _check_signs(signs, features)
    mean, scale = standardisation(x)
    z = (x - mean) / scale
    target = np.asarray(y, dtype=np.float64)
    w = np.ones(len(z)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)

    def loss(theta: Array) -> tuple[float, Array]:
        margin = z @ theta[:-1] + theta[-1]
        # log(1 + e^m) - y m, computed stably
        value = c * float(w @ (np.logaddexp(0.0, margin) - target * margin))
        residual = c * w * (1.0 / (1.0 + np.exp(-margin)) - target)
        grad = np.append(z.T @ residual + theta[:-1], residual.sum())
        return value + 0.5 * float(theta[:-1] @ theta[:-1]), grad

    bounds = [(0.0, None) if s > 0 else (None, 0.0) if s < 0 else (None, None) for s in signs]
    start = np.zeros(len(features) + 1)
    result = minimize(
        loss,
        start,
        jac=True,
        method="L-BFGS-B",
        bounds=[*bounds, (None, None)],
        options={"maxiter": 10000, "gtol": 1e-10, "ftol": 1e-15},
    )
    return LearnedModel(
        features=tuple(features),
        kind="logistic",
        mean=mean,
        scale=scale,
        weights=np.asarray(result.x[:-1], dtype=np.float64),
        bias=float(result.x[-1]),
    )


def fit_monotone_trees(
    x: Array,
    y: npt.NDArray[Any],
    *,
    features: Sequence[str],
    signs: Sequence[int],
    n_trees: int = 150,
    max_leaf_nodes: int = 8,
    learning_rate: float = 0.1,
    l2: float = 1.0,
    seed: int = 13,
    sample_weight: Array | None = None,
) -> LearnedModel:
    """Histogram gradient boosting on raw `x`, monotone in each feature as `signs` says
    (scikit-learn's `monotonic_cst`), as trees in `ragcite.learn.trees` layout."""
    require_sklearn()
    from sklearn.ensemble import HistGradientBoostingClassifier

    _check_signs(signs, features)
    model = HistGradientBoostingClassifier(
        max_iter=n_trees,
        max_leaf_nodes=max_leaf_nodes,
        learning_rate=learning_rate,
        l2_regularization=l2,
        monotonic_cst=list(signs),
        early_stopping=False,
        random_state=seed,
    ).fit(x, y, sample_weight=sample_weight)
    return LearnedModel(
        features=tuple(features),
        kind="trees",
        trees=tuple(_hist_tree(p[0].nodes) for p in model._predictors),
        init=float(np.ravel(model._baseline_prediction)[0]),
        learning_rate=1.0,  # the leaf values already carry the learning rate
    )


def _hist_tree(nodes: Any) -> Tree:
    """One histogram-boosting predictor's nodes as a `Tree` (leaves: left == right == -1).
    Its rows go left when `x <= num_threshold`, as a `Tree` sends them; there are no
    missing values in these features."""
    leaf = nodes["is_leaf"].astype(bool)
    return Tree(
        feature=np.where(leaf, -2, nodes["feature_idx"].astype(np.int64)),
        threshold=np.where(leaf, -2.0, nodes["num_threshold"]).astype(np.float64),
        left=np.where(leaf, -1, nodes["left"].astype(np.int64)),
        right=np.where(leaf, -1, nodes["right"].astype(np.int64)),
        value=np.asarray(nodes["value"], dtype=np.float64),
    )
