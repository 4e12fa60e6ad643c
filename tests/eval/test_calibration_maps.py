"""Fitting, storing and loading calibration maps."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ragcite.errors import ConfigError
from ragcite.eval.calibration import Points, fit_calibration, held_out_calibration
from ragcite.score.calibration import (
    CalibrationMaps,
    IsotonicMap,
    PlattMap,
    calibration_to_dict,
    load_calibration,
    optional_calibration,
)


def _overconfident(n: int = 300) -> Points:
    """Raw scores around 0.8 that are right only about half the time."""
    rng = random.Random(3)
    conf, ok, group = [], [], []
    for i in range(n):
        raw = rng.uniform(0.5, 1.0)
        conf.append(raw)
        ok.append(rng.random() < (raw - 0.5) * 1.6)
        group.append(f"q{i // 2}")
    return Points(conf, ok, group)


def test_fitted_map_lowers_held_out_ece() -> None:
    points = _overconfident()
    report = held_out_calibration(points)
    assert report["after"]["ece"] < report["before"]["ece"] / 2
    mapping, method = fit_calibration(points)
    assert method in ("isotonic", "platt")
    assert mapping(0.55) < mapping(0.95)


@pytest.mark.parametrize(
    "mapping", [IsotonicMap((0.2, 0.6, 1.0), (0.1, 0.3, 0.9)), PlattMap(6.0, -4.0)]
)
def test_map_round_trips_through_json(tmp_path: Path, mapping: IsotonicMap | PlattMap) -> None:
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({**calibration_to_dict(mapping), "note": "kept for people"}))
    loaded = load_calibration(path)
    for raw in (0.0, 0.3, 0.7, 1.0):
        assert loaded(raw) == pytest.approx(mapping(raw))
    assert optional_calibration("none") is None  # the raw blend


def test_the_packaged_map_is_the_default() -> None:
    packaged = optional_calibration(None)
    assert packaged is not None
    values = [packaged(raw / 20) for raw in range(21)]
    assert all(0.0 < v < 1.0 for v in values)  # never a certainty either way
    assert values == sorted(values) and values[-1] - values[0] > 0.5


def test_unusable_file_names_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.write_text('{"format": "something-else"}')
    with pytest.raises(ConfigError, match=r"calibration\.json.*ragcite eval calibration"):
        load_calibration(path)


def test_a_map_that_would_only_flatten_confidence_is_not_chosen() -> None:
    rng = random.Random(5)
    conf = [rng.uniform(0.0, 1.0) for _ in range(200)]
    ok = [rng.random() < c for c in conf]  # already calibrated: no map can help
    points = Points(conf, ok, [f"q{i}" for i in range(200)])
    mapping, method = fit_calibration(points)
    if method == "identity":
        assert mapping(0.3) == pytest.approx(0.3)
    report = held_out_calibration(points)
    assert report["after"]["brier"] <= report["before"]["brier"] + 0.01


def test_answer_maps_round_trip_and_an_answer_without_one_reads_its_weakest_claim(
    tmp_path: Path,
) -> None:
    maps = CalibrationMaps(
        claim=IsotonicMap((0.2, 1.0), (0.1, 0.9)), several_claims=PlattMap(2.0, -0.2)
    )
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(calibration_to_dict(maps)))
    loaded = load_calibration(path)
    assert isinstance(loaded, CalibrationMaps) and loaded.one_claim is None
    assert loaded(0.6) == pytest.approx(0.5)
    assert loaded.answer(0.5, 2) == pytest.approx(PlattMap(2.0, -0.2)(0.5))
    assert loaded.answer(0.5, 1) == 0.5  # no one-claim map: the claim's own value
    assert loaded.answer(0.95, 2) == 0.95  # never below the weakest claim (the map: 0.85)
    path.write_text(json.dumps({**calibration_to_dict(maps), "answer": {"three": {}}}))
    with pytest.raises(ConfigError, match=r"calibration\.json.*one_claim"):
        load_calibration(path)
