"""The packaged map's recipe: held-out splits by group, the shown answers, ECE intervals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ragcite.config import ScoreSettings
from ragcite.eval.calibration import Points, ece_interval, fit_isotonic
from ragcite.eval.calibration_asset import report, shown, split_of


def _records(n: int = 400) -> list[dict[str, Any]]:
    """Questions whose one claim is right with probability (raw - 0.55) * 3, like the
    shared data's narrow raw range, overconfident as a raw number."""
    rng = random.Random(11)
    out = []
    for i in range(n):
        raw = rng.uniform(0.56, 0.86)
        correct = rng.random() < (raw - 0.55) * 3
        out.append(
            {
                "id": f"q{i}",
                "source": "synthetic" if i % 4 else "other",
                "group": f"paragraph-{i // 2}",
                "generator_answered": True,
                "chunk_mean": 0.5,
                "claims": [{"raw": raw, "exact_supported": True, "correct": correct}],
                "answer_correct": correct,
            }
        )
    return out


def test_the_split_holds_whole_groups_out() -> None:
    records = _records()
    by_group: dict[str, set[str]] = {}
    for r in records:
        by_group.setdefault(r["group"], set()).add(split_of(r))
    assert all(len(splits) == 1 for splits in by_group.values())
    held_out = sum(split_of(r) == "test" for r in records) / len(records)
    assert 0.2 < held_out < 0.4


def test_only_answers_the_pipeline_shows_count() -> None:
    record = _records(1)[0]
    settings = ScoreSettings()
    assert shown(record, settings)
    assert not shown({**record, "generator_answered": False}, settings)
    weak = {**record, "chunk_mean": 0.0, "claims": [{**record["claims"][0], "raw": 0.3}]}
    weak["claims"][0]["exact_supported"] = False
    assert not shown(weak, settings)  # evidence 0.18 < 0.45: the pipeline degrades it


def test_report_fits_on_one_part_and_measures_on_the_other() -> None:
    mapping, result = report(_records(), ScoreSettings())
    pooled = result["held_out"]["pooled"]
    assert pooled["claim"]["calibrated"]["ece"] < pooled["claim"]["raw"]["ece"] / 2
    assert pooled["claim"]["raw"]["n"] + result["fit"]["claims"] == 400
    assert mapping(0.6) < mapping(0.8)
    labels = result["held_out"]["synthetic"]["labels"]
    assert sum(labels["correct"].values()) + sum(labels["wrong"].values()) > 0


def test_ece_interval_resamples_groups() -> None:
    points = Points([0.9, 0.9, 0.2, 0.2], [True, True, False, True], ["a", "a", "b", "b"])
    result = ece_interval(points, rounds=200)
    assert result["ece"] == pytest.approx(0.2)
    assert 0.0 <= result["low"] <= result["high"] <= 1.0
    assert result["n"] == 4 and result["accuracy"] == 0.75


def test_isotonic_steps_never_claim_certainty() -> None:
    mapping = fit_isotonic([0.1] * 20 + [0.9] * 20, [False] * 20 + [True] * 20)
    assert mapping(0.1) == pytest.approx(1 / 22) and mapping(0.9) == pytest.approx(21 / 22)


def _two_claim_records(n: int = 600) -> list[dict[str, Any]]:
    """Answers of two claims, right when either claim is: surer than their weakest claim."""
    rng = random.Random(5)
    out = []
    for i in range(n):
        claims = []
        for _ in range(2):
            raw = rng.uniform(0.56, 0.86)
            correct = rng.random() < (raw - 0.55) * 2
            claims.append({"raw": raw, "exact_supported": True, "correct": correct})
        out.append(
            {
                "id": f"q{i}",
                "source": "synthetic",
                "group": f"paragraph-{i}",
                "generator_answered": True,
                "chunk_mean": 0.5,
                "claims": claims,
                "answer_correct": any(c["correct"] for c in claims),
            }
        )
    return out


def test_answers_of_several_claims_get_their_own_map() -> None:
    maps, result = report(_records() + _two_claim_records(), ScoreSettings())
    assert result["methods"]["several_claims"] in ("isotonic", "platt")
    assert maps.several_claims is not None
    answer = result["held_out"]["pooled"]["answer"]
    # The weakest claim alone understates answers that are right when one claim is.
    assert answer["calibrated"]["ece"] < answer["weakest_claim"]["ece"] / 2
    assert answer["calibrated"]["ece"] < 0.08


def test_held_out_cases_a_shipped_model_saw_are_set_aside() -> None:
    records = _records()
    seen = [{**r, "seen_by": ["support"]} for r in records]
    assert {split_of(r) for r in seen} == {"fit", "aside"}
    assert [split_of(r) == "fit" for r in seen] == [split_of(r) == "fit" for r in records]
    _, result = report(records[:200] + seen[200:], ScoreSettings())
    aside = result["answers_by_split"]["synthetic"]["aside"]
    aside += result["answers_by_split"]["other"]["aside"]
    held_out = result["held_out"]["pooled"]["claim"]["raw"]["n"]
    assert aside > 0 and held_out + aside + result["fit"]["claims"] == 400
