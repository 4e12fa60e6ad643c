"""A user-supplied NLI cross-encoder as the support backend (`gate.support_semantic`).

The model is the fixture's grafted MiniLM with an NLI-shaped head (3 labels, one named
"entailment"): its scores carry no meaning, so these tests check the loading path through
the settings, the verdicts' shape and the floors, not reading quality.
"""

from __future__ import annotations

import pytest

from ragcite.config import GateSettings
from ragcite.errors import ConfigError, ModelError
from ragcite.models import SupportVerdict
from ragcite.verify.support.checker import SupportResult
from ragcite.verify.support.cross_encoder import CrossEncoderSupportChecker
from ragcite.verify.support.factory import build_support_checker
from tests.rerank.conftest import BuildCrossEncoder

NLI_LABELS = {"0": "contradiction", "1": "entailment", "2": "neutral"}


def test_nli_directory_plugs_in_through_the_settings(
    build_cross_encoder: BuildCrossEncoder,
) -> None:
    folder = build_cross_encoder(n_labels=3, id2label=NLI_LABELS, name="tiny-nli")
    gate = GateSettings(support_semantic=f"cross-encoder:{folder}")
    checker = build_support_checker(gate.support_semantic, None, gate)
    assert isinstance(checker, CrossEncoderSupportChecker)
    results = checker.check_many(
        [
            ("Primary caregivers receive 16 weeks of paid leave.",
             ["Primary caregivers receive 16 weeks of paid leave."]),
            ("The warranty lasts 7 years.", ["The warranty lasts 3 years."]),
            ("Backups are kept for 35 days.", ["Travel is booked through the portal."]),
        ]
    )  # fmt: skip
    assert all(isinstance(r, SupportResult) and 0.0 <= r.score <= 1.0 for r in results)
    assert all("cross_encoder" in r.signals for r in results)
    # The floors hold whatever the (meaningless) model says: a verbatim claim is supported,
    # a changed number is contradicted.
    assert results[0].verdict is SupportVerdict.SUPPORTED
    assert results[1].verdict is SupportVerdict.CONTRADICTED


def test_a_missing_or_unnamed_directory_says_what_to_set(tmp_path: object) -> None:
    with pytest.raises(ConfigError, match="needs a model directory"):
        build_support_checker("cross-encoder", None, GateSettings())
    with pytest.raises(ModelError, match="not found"):
        build_support_checker("cross-encoder:/nonexistent/model", None, GateSettings())
