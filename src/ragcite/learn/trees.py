"""Regression trees as plain JSON, for the small learned models ragcite ships.

Training (`ragcite.learn.fit`) turns a fitted scikit-learn tree into a dict (`tree_to_dict`); at run
time `Tree.from_dict` loads it and `Tree.predict` walks every row at once with NumPy, so
no pickle and no scikit-learn are needed to score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Tree:
    """One regression tree in scikit-learn's array layout (a leaf has left == -1)."""

    feature: npt.NDArray[np.int64]
    threshold: Array
    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    value: Array

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tree:
        return cls(
            np.asarray(data["feature"], dtype=np.int64),
            np.asarray(data["threshold"], dtype=np.float64),
            np.asarray(data["left"], dtype=np.int64),
            np.asarray(data["right"], dtype=np.int64),
            np.asarray(data["value"], dtype=np.float64),
        )

    def to_dict(self) -> dict[str, list[Any]]:
        return {
            "feature": self.feature.tolist(),
            "threshold": self.threshold.tolist(),
            "left": self.left.tolist(),
            "right": self.right.tolist(),
            "value": self.value.tolist(),
        }

    @cached_property
    def _lists(self) -> tuple[list[int], list[float], list[int], list[int], list[float]]:
        return (
            self.feature.tolist(),
            self.threshold.tolist(),
            self.left.tolist(),
            self.right.tolist(),
            self.value.tolist(),
        )

    def leaf_value(self, row: Sequence[float]) -> float:
        """The leaf value one row reaches, walked in plain Python: for a single row, about
        fifty times faster than `predict`'s array steps, and the same number."""
        feature, threshold, left, right, value = self._lists
        node = 0
        while left[node] != -1:
            node = left[node] if row[feature[node]] <= threshold[node] else right[node]
        return value[node]

    def predict(self, x: Array) -> Array:
        """The leaf value each row of `x` reaches."""
        node = np.zeros(len(x), dtype=np.int64)
        active = self.left[node] != -1
        while active.any():
            idx = np.nonzero(active)[0]
            n = node[idx]
            go_left = x[idx, self.feature[n]] <= self.threshold[n]
            node[idx] = np.where(go_left, self.left[n], self.right[n])
            active = self.left[node] != -1
        leaves: Array = self.value[node]
        return leaves


def tree_to_dict(estimator: Any) -> dict[str, list[Any]]:
    """A fitted scikit-learn regression tree (e.g. one stage of gradient boosting) as JSON."""
    t = estimator.tree_
    return {
        "feature": t.feature.tolist(),
        "threshold": t.threshold.tolist(),
        "left": t.children_left.tolist(),
        "right": t.children_right.tolist(),
        "value": t.value[:, 0, 0].tolist(),
    }
