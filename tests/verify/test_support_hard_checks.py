"""Layer 1 on its own: numbers, negation and named entities."""

from __future__ import annotations

import pytest

from ragcite.verify.support.hard_checks import run_hard_checks
from ragcite.verify.support.text import claim_numbers, named_entities, number_values


def check(claim: str, evidence: str) -> tuple[dict[str, float], str | None]:
    result = run_hard_checks(claim, evidence, evidence)
    return result.signals, result.contradiction


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("1,200 people", [1200.0]),
        ("1200 people", [1200.0]),
        ("three days", [3.0]),
        ("$5k budget", [5000.0]),
        ("2.5 million users", [2_500_000.0]),
        ("a 12% rise", [12.0]),
        ("12 percent", [12.0]),
    ],
)
def test_numbers_are_normalised(text: str, values: list[float]) -> None:
    assert number_values(text) == values


def test_number_words_match_digits() -> None:
    signals, contradiction = check("The data is kept for three years.", "We keep data for 3 years.")
    assert signals["hard_number_missing"] == 0.0
    assert contradiction is None


def test_thousands_separators_match() -> None:
    signals, _ = check("The fee is 1200 euros.", "The fee is 1,200 euros per year.")
    assert signals["hard_number_missing"] == 0.0


def test_rounded_claim_matches_precise_evidence() -> None:
    signals, _ = check("About 1.2 million people live there.", "It has 1,213,000 inhabitants.")
    assert signals["hard_number_missing"] == 0.0


def test_wrong_number_is_a_contradiction() -> None:
    signals, contradiction = check("The warranty lasts 7 years.", "The warranty lasts 3 years.")
    assert signals["hard_number_missing"] == 1.0
    assert signals["hard_number_conflict"] == 1.0
    assert contradiction == "number 7 in the claim is not in the evidence (evidence says 3)"


def test_missing_number_without_rival_is_only_missing() -> None:
    signals, contradiction = check("The warranty lasts 7 years.", "The warranty is generous.")
    assert signals["hard_number_missing"] == 1.0
    assert signals["hard_number_conflict"] == 0.0
    assert contradiction is None


def test_year_is_not_contradicted_by_an_amount() -> None:
    signals, _ = check("It opened in 1998.", "It has 40 rooms.")
    assert signals["hard_number_conflict"] == 0.0


def test_weak_number_words_are_not_claims() -> None:
    assert claim_numbers("It is one of the first museums.") == []


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Contractors are not eligible.", "Contractors are eligible."),
        ("He no longer works there.", "He works there."),
        ("Pets are allowed.", "Pets are never allowed."),
        ("Refunds are possible.", "Refunds aren't possible."),
    ],
)
def test_negation_mismatch(claim: str, evidence: str) -> None:
    signals, contradiction = check(claim, evidence)
    assert signals["hard_negation_mismatch"] == 1.0
    assert contradiction is not None


def test_same_polarity_is_no_mismatch() -> None:
    signals, _ = check("Pets are not allowed.", "Pets are never allowed inside.")
    assert signals["hard_negation_mismatch"] == 0.0


def test_named_entities() -> None:
    assert named_entities("The Beatles were from Liverpool, not New York City.") == [
        "Beatles",
        "Liverpool",
        "New York City",
    ]


def test_missing_entity_with_rival_name() -> None:
    result = run_hard_checks(
        "Python was created by James Gosling.",
        "Python was created by Guido van Rossum.",
        "Python was created by Guido van Rossum.",
    )
    assert result.signals["hard_entity_missing"] == 1.0  # "Python" starts the sentence
    assert result.signals["hard_entity_conflict"] == 1.0
    assert any("James Gosling" in r for r in result.reasons)


def test_present_entities_pass() -> None:
    signals, _ = check("Marie Curie won in 1911.", "In 1911 Marie Curie received the prize.")
    assert signals["hard_entity_missing"] == 0.0
    assert signals["hard_number_missing"] == 0.0
