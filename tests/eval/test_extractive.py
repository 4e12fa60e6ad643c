"""The extractive-style held-out set: deterministic, held out, and each kind is what it says."""

from __future__ import annotations

import pytest

from ragcite.eval.datasets import DEFAULT_ROOT, split_of
from ragcite.eval.extractive import SOURCE, load_extractive, sentences
from ragcite.text.words import tokens

pytestmark = pytest.mark.skipif(
    not (DEFAULT_ROOT / "squad2_subset").is_dir(), reason="shared data sets not present"
)


def test_the_set_is_the_same_on_every_run_and_changes_with_the_seed() -> None:
    first = list(load_extractive(limit=50))
    assert first == list(load_extractive(limit=50))
    assert first != list(load_extractive(limit=50, seed=14))


def test_supported_claims_copy_their_passage_and_unsupported_ones_do_not() -> None:
    pairs = list(load_extractive(limit=100))
    assert {p.source for p in pairs} == {SOURCE}
    supported = [p for p in pairs if p.supported]
    unsupported = [p for p in pairs if not p.supported]
    assert len(supported) > 200 and len(unsupported) > 300
    for pair in supported:  # verbatim or trimmed: every word of the claim is in the passage
        assert set(tokens(pair.claim)) <= set(tokens(pair.evidence[0])), pair.claim
    assert not any(p.claim in p.evidence[0] for p in unsupported)
    # each passage gives at most one claim of each kind, all with the passage's group
    assert all(p.group.startswith("extractive:") for p in pairs)
    assert max(sum(p.group == g for p in pairs) for g in {p.group for p in pairs}) <= 5


def test_trimmed_and_changed_claims_are_there() -> None:
    pairs = list(load_extractive(limit=100))
    passages = {p.evidence[0]: p for p in pairs}
    verbatim = sum(p.supported and p.claim in sentences(p.evidence[0]) for p in pairs)
    trimmed = sum(p.supported and p.claim not in p.evidence[0] for p in pairs)
    assert verbatim >= len(passages) * 0.9
    assert trimmed >= len(passages) * 0.5


def test_the_training_pairs_never_hold_these_passages() -> None:
    """HaluEval passages come after the 3,000 the support set trains on; SQuAD is not a
    support training set at all."""
    from ragcite.eval.datasets import load_halueval
    from ragcite.eval.extractive import unglued

    trained = {unglued(p.evidence[0]) for p in load_halueval()}
    pairs = list(load_extractive(limit=200))
    assert not any(p.evidence[0] in trained for p in pairs)
    assert {split_of(p) for p in pairs} == {"train", "validation", "test"}
