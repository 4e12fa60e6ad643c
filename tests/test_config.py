"""Settings: the file in use, label floors as the one source of thresholds, old keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcite.config import config_file_path, load_settings
from ragcite.errors import ConfigError


def test_the_settings_file_in_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert config_file_path() == Path("ragcite.toml")
    monkeypatch.setenv("RAGCITE_CONFIG", str(tmp_path / "hr.toml"))
    assert config_file_path() == tmp_path / "hr.toml"
    assert config_file_path(Path("explicit.toml")) == Path("explicit.toml")


def test_label_floors_and_the_retry_floor_are_one_setting(tmp_path: Path) -> None:
    settings = load_settings(None, tmp_path / "s.db")
    assert (settings.score.high_from, settings.score.medium_from, settings.score.low_from) == (
        0.85,
        0.65,
        0.45,
    )
    assert settings.gate.min_overall_confidence == settings.score.low_from
    moved = load_settings(None, tmp_path / "s.db", {"score.low_from": 0.5})
    assert moved.gate.min_overall_confidence == 0.5  # follows the LOW floor ...
    own = load_settings(
        None, tmp_path / "s.db", {"score.low_from": 0.5, "gate.min_overall_confidence": 0.3}
    )
    assert own.gate.min_overall_confidence == 0.3  # ... unless set itself


def test_the_old_key_still_reads_and_a_conflict_names_the_new_one(tmp_path: Path) -> None:
    settings = load_settings(None, tmp_path / "s.db", {"score.low_confidence_below": 0.7})
    assert settings.score.medium_from == 0.7 == settings.score.low_confidence_below
    with pytest.raises(ConfigError, match="old name of medium_from"):
        load_settings(
            None,
            tmp_path / "s.db",
            {"score.low_confidence_below": 0.7, "score.medium_from": 0.6},
        )
    with pytest.raises(ConfigError, match="low_from <= medium_from <= high_from"):
        load_settings(None, tmp_path / "s.db", {"score.low_from": 0.9})
