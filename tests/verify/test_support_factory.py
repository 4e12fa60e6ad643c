"""Support checkers by name, through the `ragcite.support` entry points."""

from __future__ import annotations

import pytest

from ragcite.embed.base import Embedder
from ragcite.errors import ConfigError
from ragcite.registry import SUPPORT, installed
from ragcite.verify.support import LayeredSupportChecker, build_support_checker


def test_built_in_layers_are_entry_points(embedder: Embedder) -> None:
    assert {"minilm", "static", "none"} <= set(installed(SUPPORT))
    minilm = build_support_checker("minilm", embedder)
    static = build_support_checker("static", None)
    lexical = build_support_checker("None", None)
    assert isinstance(minilm, LayeredSupportChecker) and minilm.semantic is not None
    assert isinstance(static, LayeredSupportChecker) and static.semantic is not None
    assert isinstance(lexical, LayeredSupportChecker) and lexical.semantic is None
    claim, evidence = "Backups are kept for 35 days.", ["Backups are kept 35 days."]
    assert "sem_max" in minilm.check(claim, evidence).signals


def test_an_unknown_layer_lists_the_installed_ones() -> None:
    with pytest.raises(ConfigError, match=r"no support checker backend named 'bert'.*minilm"):
        build_support_checker("bert", None)
