"""Calibration maps: raw claim confidence -> observed probability that the claim is correct.

ragcite ships a map (`assets/calibration.json`, rebuilt by `python -m
ragcite.eval.calibration_asset`, see docs/models/calibration.md) fitted on held-out
end-to-end questions over the shared data and the demo corpus; it is used unless
`score.calibration_path` names another. The evaluation harness fits one for your own labelled
questions (`ragcite eval calibration --fit`); `score.calibration_path = "none"` keeps the raw
blend. A map is a small JSON file; only NumPy is needed to apply it.

    >>> calibrate = load_calibration(Path("calibration.json"))
    >>> round(calibrate(0.8), 2)
    0.91

File format (version 1), one of:
    {"format": "ragcite-calibration", "version": 1, "method": "isotonic",
     "x": [0.1, 0.5, 0.9], "y": [0.05, 0.4, 0.95]}
    {"format": "ragcite-calibration", "version": 1, "method": "platt", "a": 6.1, "b": -3.2}
with, optionally, answer maps: `"answer": {"one_claim": MAP, "several_claims": MAP}` (MAP:
`{"method": ...}` as above; either may be absent), from the answer's weakest calibrated
claim value to P(the answer is correct), for answers of one claim and of several (an
answer of several claims is right when one of them is, so it can be surer than its weakest
claim, and never reads below it). Without one, an answer's confidence is its weakest
claim's.
Other keys (what it was fitted on, held-out ECE) are kept for people and ignored here.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.errors import ConfigError
from ragcite.score.confidence import Calibration

FORMAT = "ragcite-calibration"
PACKAGED = "assets/calibration.json"
NO_MAP = "none"  # `score.calibration_path` value that keeps the raw blend


@dataclass(frozen=True)
class IsotonicMap:
    """A non-decreasing step-free map: linear interpolation between fitted points."""

    x: tuple[float, ...]
    y: tuple[float, ...]

    def __call__(self, raw: float) -> float:
        return float(np.interp(raw, self.x, self.y))


@dataclass(frozen=True)
class PlattMap:
    """A logistic map: 1 / (1 + exp(-(a · raw + b)))."""

    a: float
    b: float

    def __call__(self, raw: float) -> float:
        z = self.a * raw + self.b
        return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


Map = IsotonicMap | PlattMap


@dataclass(frozen=True)
class CalibrationMaps:
    """The claim map (called as the map itself) and the answer maps by claim count."""

    claim: Map
    one_claim: Map | None = None
    several_claims: Map | None = None

    def __call__(self, raw: float) -> float:
        return self.claim(raw)

    def answer(self, weakest: float, claims: int) -> float:
        """P(an answer of `claims` claims is correct), given its weakest claim's value. An
        answer of several claims is right when one of them is, so it reads at least its
        weakest claim's value."""
        if claims == 1:
            return self.one_claim(weakest) if self.one_claim is not None else weakest
        several = self.several_claims
        return max(weakest, several(weakest)) if several is not None else weakest


def calibration_to_dict(calibration: Map | CalibrationMaps) -> dict[str, Any]:
    if isinstance(calibration, CalibrationMaps):
        answer = {
            name: _map_body(m)
            for name, m in (
                ("one_claim", calibration.one_claim),
                ("several_claims", calibration.several_claims),
            )
            if m is not None
        }
        body = _map_body(calibration.claim)
        return {"format": FORMAT, "version": 1, **body, **({"answer": answer} if answer else {})}
    return {"format": FORMAT, "version": 1, **_map_body(calibration)}


def _map_body(calibration: Map) -> dict[str, Any]:
    if isinstance(calibration, IsotonicMap):
        body: dict[str, Any] = {
            "method": "isotonic",
            "x": list(calibration.x),
            "y": list(calibration.y),
        }
    else:
        body = {"method": "platt", "a": calibration.a, "b": calibration.b}
    return body


def calibration_from_dict(data: dict[str, Any]) -> CalibrationMaps:
    """The maps of a version-1 calibration file's JSON (see the module doc)."""
    if data.get("format") != FORMAT or data.get("version") != 1:
        raise ValueError("not a version-1 ragcite calibration file")
    answer = data.get("answer") or {}
    if not isinstance(answer, dict) or set(answer) - {"one_claim", "several_claims"}:
        raise ValueError('"answer" holds only "one_claim" and "several_claims" maps')
    maps = {name: _map_from_dict(body) for name, body in answer.items()}
    return CalibrationMaps(_map_from_dict(data), **maps)


def _map_from_dict(data: dict[str, Any]) -> Map:
    if data["method"] == "platt":
        return PlattMap(float(data["a"]), float(data["b"]))
    if data["method"] == "isotonic":
        x, y = [float(v) for v in data["x"]], [float(v) for v in data["y"]]
        if not x or len(x) != len(y) or any(b < a for a, b in pairwise(x)):
            raise ValueError("isotonic x must be non-empty, sorted and as long as y")
        return IsotonicMap(tuple(x), tuple(y))
    raise ValueError(f"unknown calibration method {data['method']!r}")


def load_calibration(path: str | Path) -> Calibration:
    """The calibration map stored at `path`; ConfigError naming the file if it is unusable."""
    path = Path(path).expanduser()
    try:
        return calibration_from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(
            f"{path}: not a usable calibration file ({exc}); refit it with "
            "`ragcite eval calibration eval/demo.jsonl --fit`, or unset score.calibration_path "
            "(the packaged map)"
        ) from None


def packaged_calibration() -> Calibration:
    """The map ragcite ships (see the module doc)."""
    text = resources.files("ragcite.score").joinpath(PACKAGED).read_text(encoding="utf-8")
    return calibration_from_dict(json.loads(text))


def optional_calibration(path: str | Path | None) -> Calibration | None:
    """The map at `path`; the packaged map when no path is set; None (the raw blend is
    used) for `"none"`."""
    if path is None or str(path) == "":
        return packaged_calibration()
    if str(path).strip().casefold() == NO_MAP:
        return None
    return load_calibration(path)
