"""The small learned models ragcite ships: one class, one JSON format, one loader.

A model maps a row of named features to a probability: logistic regression over
standardised features, or gradient-boosted regression trees, then the logistic function,
optionally Platt-scaled. It may carry named decision thresholds chosen on validation data
(the support checker's `supported` and `partial`). A file holds one or more models by name
and is plain JSON (no pickle); scoring needs NumPy only. `ragcite train` writes the files
(`ragcite.learn.fit` fits and serialises).

    >>> models = load_models(Path("support_model.json"), what="support model")
    >>> models["lexical"].predict(np.array([[0.0, 1.0, ...]]))          # doctest: +SKIP
    array([0.93])
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ragcite.errors import ModelError
from ragcite.learn.trees import Tree

FORMAT = "ragcite-learned-model/1"
Kind = Literal["logistic", "trees"]
KINDS: tuple[Kind, ...] = ("logistic", "trees")
Array = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class LearnedModel:
    """Features -> P(positive): a logistic regression or boosted trees, optional Platt map.

    `mean` / `scale` standardise each feature before the model (None: raw features);
    a logistic model uses `weights` and `bias`, a trees model `trees`, `init` and
    `learning_rate`; `platt` = (a, b) maps the margin m to 1 / (1 + exp(-(a·m + b))).
    """

    features: tuple[str, ...]
    kind: Kind
    mean: Array | None = None
    scale: Array | None = None
    weights: Array | None = None
    bias: float = 0.0
    trees: tuple[Tree, ...] = ()
    init: float = 0.0
    learning_rate: float = 1.0
    platt: tuple[float, float] | None = None
    thresholds: Mapping[str, float] = field(default_factory=dict)
    trained_on: Mapping[str, Any] = field(default_factory=dict)

    def matrix(self, rows: Sequence[Mapping[str, float]]) -> Array:
        """Named feature dicts as a matrix in this model's feature order (missing: 0)."""
        return np.array([[r.get(f, 0.0) for f in self.features] for r in rows], dtype=np.float64)

    def margin(self, x: Array) -> Array:
        """The uncalibrated decision value (log-odds) for each row of `x`."""
        if x.ndim != 2 or x.shape[1] != len(self.features):
            raise ModelError(
                f"the model takes {len(self.features)} features per row, got an array of "
                f"shape {x.shape}"
            )
        z = x if self.mean is None or self.scale is None else (x - self.mean) / self.scale
        if self.kind == "logistic":
            assert self.weights is not None  # checked when loaded
            return np.asarray(z @ self.weights + self.bias, dtype=np.float64)
        if len(z) == 1:  # one row (a decision per question): walked tree by tree in Python
            row, total = z[0].tolist(), self.init
            for tree in self.trees:
                total += self.learning_rate * tree.leaf_value(row)
            return np.array([total], dtype=np.float64)
        out = np.full(len(z), self.init, dtype=np.float64)
        for tree in self.trees:
            out += self.learning_rate * tree.predict(z)
        return out

    def predict(self, x: Array) -> Array:
        """P(positive) in [0, 1] for each row of `x` (Platt-scaled when the model has it)."""
        if len(x) == 0:
            return np.zeros(0)
        m = self.margin(x)
        if self.platt is not None:
            m = self.platt[0] * m + self.platt[1]
        with np.errstate(over="ignore"):  # exp overflows to inf for a very sure row: p = 0
            return np.asarray(1.0 / (1.0 + np.exp(-m)), dtype=np.float64)

    def threshold(self, name: str) -> float:
        """A named decision threshold, e.g. `threshold("supported")`."""
        try:
            return float(self.thresholds[name])
        except KeyError:
            raise ModelError(
                f"the model has no {name!r} threshold (it has: "
                f"{', '.join(self.thresholds) or 'none'}); retrain it with `ragcite train`"
            ) from None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of this model (one entry of a file's `models`)."""
        out: dict[str, Any] = {"features": list(self.features), "kind": self.kind}
        if self.mean is not None and self.scale is not None:
            out["mean"], out["scale"] = self.mean.tolist(), self.scale.tolist()
        if self.kind == "logistic":
            assert self.weights is not None
            out["weights"], out["bias"] = self.weights.tolist(), self.bias
        else:
            out["init"], out["learning_rate"] = self.init, self.learning_rate
            out["trees"] = [t.to_dict() for t in self.trees]
        if self.platt is not None:
            out["platt"] = list(self.platt)
        if self.thresholds:
            out["thresholds"] = dict(self.thresholds)
        if self.trained_on:
            out["trained_on"] = dict(self.trained_on)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LearnedModel:
        """A model from its JSON form; ModelError names what is missing or wrong."""
        try:
            return _from_dict(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"malformed model entry ({type(exc).__name__}: {exc})") from None


def _from_dict(data: Mapping[str, Any]) -> LearnedModel:
    kind = data["kind"]
    if kind not in KINDS:
        raise ModelError(f"unknown model kind {kind!r}; expected one of {', '.join(KINDS)}")
    features = tuple(str(f) for f in data["features"])
    mean = _vector(data, "mean", len(features))
    scale = _vector(data, "scale", len(features))
    weights = _vector(data, "weights", len(features))
    if kind == "logistic" and weights is None:
        raise ModelError("a logistic model needs `weights` and `bias`")
    platt = data.get("platt")
    return LearnedModel(
        features=features,
        kind=kind,
        mean=mean,
        scale=scale,
        weights=weights,
        bias=float(data.get("bias", 0.0)),
        trees=tuple(Tree.from_dict(t) for t in data.get("trees", ())),
        init=float(data.get("init", 0.0)),
        learning_rate=float(data.get("learning_rate", 1.0)),
        platt=None if platt is None else (float(platt[0]), float(platt[1])),
        thresholds={str(k): float(v) for k, v in data.get("thresholds", {}).items()},
        trained_on=dict(data.get("trained_on", {})),
    )


def _vector(data: Mapping[str, Any], key: str, size: int) -> Array | None:
    if key not in data:
        return None
    vector = np.asarray(data[key], dtype=np.float64)
    if vector.shape != (size,):
        raise ModelError(f"`{key}` has {vector.size} values for {size} features")
    return vector


def models_to_json(models: Mapping[str, LearnedModel], *, about: str) -> str:
    """The file text for `models` (compact, one model per line)."""
    entries = ",\n".join(
        f" {json.dumps(name)}: {json.dumps(m.to_dict(), separators=(',', ':'))}"
        for name, m in models.items()
    )
    return f'{{"format": "{FORMAT}", "about": {json.dumps(about)}, "models": {{\n{entries}\n}}}}\n'


def load_models(
    source: Path | Traversable, *, what: str = "model", retrain: str = "ragcite train"
) -> dict[str, LearnedModel]:
    """Every model in the file at `source`, by name. `what` names the file in errors
    ("support model") and `retrain` is the command that rebuilds it."""
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(
            f"cannot read the {what} {source} ({exc}); rebuild it with `{retrain}`"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ModelError(
            f"the {what} {source} has format {found!r}, not {FORMAT!r}; rebuild it with `{retrain}`"
        )
    models = data.get("models")
    if not isinstance(models, dict) or not models:
        raise ModelError(f"the {what} {source} holds no models; rebuild it with `{retrain}`")
    out = {}
    for name, entry in models.items():
        try:
            out[name] = LearnedModel.from_dict(entry)
        except ModelError as exc:
            raise ModelError(
                f"the {what} {source}, model {name!r}: {exc}; rebuild it with `{retrain}`"
            ) from None
    return out


def require_features(
    model: LearnedModel, expected: Sequence[str], *, what: str, retrain: str
) -> None:
    """Raise ModelError unless `model` was trained on exactly `expected` (in order)."""
    if model.features != tuple(expected):
        raise ModelError(
            f"the {what} was trained on other features ({', '.join(model.features)}) than "
            f"this version computes ({', '.join(expected)}); rebuild it with `{retrain}`"
        )
