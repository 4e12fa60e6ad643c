"""Layer 4: a small learned model that turns the layers' signals into P(supported).

The model is plain JSON (no pickle), written by `scripts/train_support.py`, and needs
only NumPy at run time: logistic regression or gradient-boosted trees over the signals,
then Platt scaling fitted on validation data, then the verdict thresholds.

    >>> model = load_support_model()
    >>> model.score([{"lex_overlap": 1.0, ...}])          # doctest: +SKIP
    array([0.93])
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ragcite.errors import ModelError
from ragcite.learn.trees import Tree

MODEL_FILE = "assets/support_model.json"
Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class SupportModel:
    """Signals -> calibrated P(supported), with the verdict thresholds chosen on validation."""

    features: tuple[str, ...]
    kind: str
    params: dict[str, Any]
    trees: tuple[Tree, ...]
    platt: tuple[float, float]
    supported_threshold: float
    partial_threshold: float

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SupportModel:
        trees = tuple(Tree.from_dict(t) for t in data.get("trees", []))
        if data["kind"] not in ("logistic", "gbt"):
            raise ModelError(f"unknown support model kind {data['kind']!r}: retrain the model")
        return cls(
            features=tuple(data["features"]),
            kind=data["kind"],
            params=data["params"],
            trees=trees,
            platt=(float(data["platt"][0]), float(data["platt"][1])),
            supported_threshold=float(data["thresholds"]["supported"]),
            partial_threshold=float(data["thresholds"]["partial"]),
        )

    def matrix(self, signals: list[dict[str, float]]) -> Array:
        return np.array([[s.get(f, 0.0) for f in self.features] for s in signals], dtype=np.float64)

    def margin(self, x: Array) -> Array:
        """The uncalibrated decision value for each row of `x`."""
        if self.kind == "logistic":
            mean = np.asarray(self.params["mean"])
            scale = np.asarray(self.params["scale"])
            coef = np.asarray(self.params["coef"])
            return np.asarray(((x - mean) / scale) @ coef + float(self.params["intercept"]))
        out = np.full(len(x), float(self.params["init"]))
        rate = float(self.params["learning_rate"])
        for tree in self.trees:
            out += rate * tree.predict(x)
        return out

    def score(self, signals: list[dict[str, float]]) -> Array:
        """Calibrated P(supported) in [0, 1] for each signals dict."""
        if not signals:
            return np.zeros(0)
        a, b = self.platt
        return np.asarray(1.0 / (1.0 + np.exp(-(a * self.margin(self.matrix(signals)) + b))))


def load_support_models(path: Path | None = None) -> dict[str, SupportModel]:
    """The shipped models by variant: "semantic" (needs an embedder) and "lexical"."""
    try:
        if path is None:
            text = resources.files("ragcite.verify.support").joinpath(MODEL_FILE).read_text("utf-8")
        else:
            text = path.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as exc:
        raise ModelError(
            f"could not read the support model {path or MODEL_FILE}: {exc}; "
            "rebuild it with python scripts/train_support.py"
        ) from None
    return {name: SupportModel.from_dict(m) for name, m in data["models"].items()}
