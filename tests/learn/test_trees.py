"""Trees exported to JSON predict exactly what scikit-learn predicts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ragcite.learn.fit import fit_trees
from ragcite.learn.trees import Tree, tree_to_dict

ensemble = pytest.importorskip("sklearn.ensemble")


def test_exported_trees_match_scikit_learn() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(300, 4))
    y = (x[:, 0] + 0.5 * x[:, 1] * x[:, 2] > 0).astype(int)
    model = ensemble.GradientBoostingClassifier(n_estimators=20, max_depth=3, random_state=0)
    model.fit(x, y)
    for estimator in model.estimators_[:, 0]:
        tree = Tree.from_dict(json.loads(json.dumps(tree_to_dict(estimator))))
        np.testing.assert_allclose(tree.predict(x), estimator.predict(x))


def test_one_row_walked_in_python_reaches_the_same_leaf_values() -> None:
    rng = np.random.default_rng(4)
    x = rng.normal(size=(200, 4))
    y = (x[:, 0] - x[:, 3] > 0).astype(int)
    model = ensemble.GradientBoostingClassifier(n_estimators=10, max_depth=4, random_state=0)
    model.fit(x, y)
    for estimator in model.estimators_[:, 0]:
        tree = Tree.from_dict(tree_to_dict(estimator))
        walked = [tree.leaf_value(row.tolist()) for row in x]
        assert walked == tree.predict(x).tolist()


def test_a_trees_models_margin_for_one_row_is_its_margin_among_many() -> None:
    rng = np.random.default_rng(5)
    x = rng.normal(size=(300, 3))
    y = (x[:, 0] * x[:, 1] > 0).astype(int)
    model = fit_trees(x, y, features=("a", "b", "c"), n_trees=30, depth=3, seed=1)
    many = model.margin(x[:50])
    assert [model.margin(x[i : i + 1])[0] for i in range(50)] == many.tolist()
