"""Polarity as policy text writes it: negators, negative predicates, idioms, clauses."""

from __future__ import annotations

import pytest

from ragcite.verify.support.hard_checks import run_hard_checks
from ragcite.verify.support.polarity import (
    best_clause,
    clauses,
    coverage_beside_polarity,
    negated,
    opposite_polarity,
)


@pytest.mark.parametrize(
    "text",
    [
        "Contractors are not eligible.",
        "Pets are never allowed.",
        "The fee isn't refundable.",
        "Data cannot be shared.",
        "Smoking is prohibited on the premises.",
        "Claims are accepted without receipts.",
        "Neither managers nor staff may approve it.",
        "He no longer works there.",
    ],
)
def test_negated(text: str) -> None:
    assert negated(text)


@pytest.mark.parametrize(
    "text",
    [
        "Claims must be submitted no later than 30 days after purchase.",
        "Passwords must be not less than 12 characters long.",
        "Remote work is allowed for no more than three days a week.",
        "Stays must not exceed 14 nights.",
        "This policy applies to all employees, not only to managers.",
        "Incidents must be reported without delay.",
        "The bonus applies to all staff except contractors.",
        "Annual plans can be refunded unless 30 days have passed.",
        "We use email rather than chat.",
        "Smoking is not prohibited here.",  # two negations: allowed
    ],
)
def test_not_negated(text: str) -> None:
    assert not negated(text)


def test_clauses_split_at_semicolons_dashes_and_conjunctions() -> None:
    assert clauses("Backups are encrypted; copies are not kept, but logs are.") == [
        "Backups are encrypted",
        "copies are not kept",
        "but logs are.",
    ]


def test_best_clause_is_the_one_holding_the_claim() -> None:
    sentence = "All backups are encrypted at rest; unencrypted copies are not permitted."
    assert best_clause(sentence, "Backups are encrypted at rest.") == (
        "All backups are encrypted at rest"
    )


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Claims must be submitted within 30 days.", "Claims are due no later than 30 days."),
        ("Passwords need at least 12 characters.", "Passwords must be not less than 12 long."),
        ("Smoking is prohibited.", "Smoking is not allowed."),
        ("Backups are encrypted.", "All backups are encrypted; plain copies are not kept."),
        ("The policy applies to all employees.", "It applies to all employees, not only managers."),
    ],
)
def test_same_polarity_in_other_words_is_no_mismatch(claim: str, evidence: str) -> None:
    result = run_hard_checks(claim, evidence, evidence)
    assert result.signals["hard_negation_mismatch"] == 0.0
    assert result.contradiction is None


def test_opposite_polarity_is_a_contradiction() -> None:
    evidence = "Smoking is prohibited on the premises."
    result = run_hard_checks("Smoking is allowed on the premises.", evidence, evidence)
    assert result.signals["hard_negation_mismatch"] == 1.0
    assert result.contradiction == "the evidence is negated but the claim is not"


def test_opposite_predicate_still_counts_as_aligned() -> None:
    # "allowed" cannot appear in "prohibited" evidence; the rest of the claim does.
    claim = "Smoking is allowed on the premises."
    assert coverage_beside_polarity(claim, "Smoking is prohibited on the premises.") == 1.0
    evidence = "Health and safety. Smoking is prohibited on company premises."
    result = run_hard_checks(claim, evidence, "Smoking is prohibited on company premises.")
    assert result.negation_alignment == 1.0


def test_claim_of_several_clauses_is_compared_clause_by_clause() -> None:
    sentence = "Authenticator apps are approved methods; SMS codes are not allowed."
    assert opposite_polarity(sentence, sentence) is None  # a verbatim quote agrees with itself
    assert opposite_polarity(
        "Authenticator apps are approved; SMS codes are allowed.", sentence
    ) == (
        "SMS codes are allowed.",
        "SMS codes are not allowed.",
    )


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # Found by the property-based gate tests: the negation was removed from a bound.
        ("Alcohol must exceed one third of the bill.", "Alcohol must not exceed one third."),
        ("Claims are due later than 30 days.", "Claims are due no later than 30 days."),
        ("Refunds take no more than 5 days.", "Refunds take more than 5 days."),
    ],
)
def test_a_bound_negated_on_one_side_only_is_opposite_polarity(claim: str, evidence: str) -> None:
    assert opposite_polarity(claim, evidence) is not None


def test_the_same_bound_on_both_sides_agrees() -> None:
    assert opposite_polarity("It must not exceed 50 euros.", "It must not exceed 50 euros.") is None


def test_a_truth_frame_does_not_hide_a_flipped_polarity() -> None:
    """Found by the benchmark profile: "It is not true that X" against X was supported."""
    claim = "It is not true that items that cannot be returned"
    evidence = "Items that cannot be returned"
    assert opposite_polarity(claim, evidence) is not None
    assert coverage_beside_polarity(claim, evidence) == 1.0
