"""Trees exported to JSON predict exactly what scikit-learn predicts."""

from __future__ import annotations

import json

import numpy as np
import pytest

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
