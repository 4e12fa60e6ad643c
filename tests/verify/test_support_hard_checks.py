"""Layer 1 on its own: numbers, negation and named entities."""

from __future__ import annotations

import pytest

from ragcite.verify.support.hard_checks import run_hard_checks
from ragcite.verify.support.quantities import claim_numbers, number_values, quantities
from ragcite.verify.support.text import named_entities


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
        ("twenty-five days", [25.0]),
        ("twenty five days", [25.0]),
        ("two hundred staff", [200.0]),
        ("at 5 pm", [17 * 60.0]),
        ("at 17:30", [17 * 60 + 30.0]),
        ("at 12 am", [0.0]),
    ],
)
def test_numbers_are_normalised(text: str, values: list[float]) -> None:
    assert number_values(text) == values


def test_a_scale_letter_on_the_next_line_is_no_scale() -> None:
    """A table row ending "£205" above the row "B — …" is £205, not 205 billion; the row
    quoted on its own is supported by the table."""
    table = "A — Winter: £205\nB — Winter: £225\nup to 3\n%"
    assert number_values(table) == [205.0, 225.0, 3.0]
    assert number_values("a £5bn fund and 12 B shares") == [5e9, 12e9]
    signals, contradiction = check("A — Winter: £205", table)
    assert contradiction is None and signals["hard_number_missing"] == 0.0


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


@pytest.mark.parametrize(
    ("text", "duration"),
    [
        ("kept for 18 months", ("calendar", 18.0)),
        ("kept for 1.5 years", ("calendar", 18.0)),
        ("kept for three (3) years", ("calendar", 36.0)),
        ("a 35-day window", ("clock", 35 * 86400.0)),
        ("within 5 business days", ("clock", 5 * 86400.0)),
        ("two weeks", ("clock", 14 * 86400.0)),
        ("48 hours", ("clock", 2 * 86400.0)),
        ("a 5% rise in days lost", None),
    ],
)
def test_durations_convert_within_their_family(
    text: str, duration: tuple[str, float] | None
) -> None:
    assert quantities(text)[0].duration == duration


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("PII is kept for 36 months.", "PII is retained for three (3) years."),
        ("Logs are retained for 1.5 years.", "Logs are retained for 18 months."),
        ("Backups are kept for five weeks.", "Backups are kept for 35 days."),
        ("Parents get two weeks of leave.", "Parents are entitled to 14 days of leave."),
        ("Staff receive twenty-five days of leave.", "Staff receive 25 days of leave."),
        ("The helpdesk closes at 5 pm.", "The helpdesk is staffed until 17:00."),
        ("The office opens at 9:00.", "The office opens at 9 a.m."),
        ("It took effect on 2024-03-01.", "It is effective from 1 March 2024."),
        ("It took effect on March 1, 2024.", "It is effective from 2024-03-01."),
        ("The meeting starts at 10:30.", "The meeting starts at 10.30 am."),
        ("Passwords expire every 12 months.", "Passwords expire annually."),
        ("Reports are due within 7 days.", "Reports are due within a week."),
        ("Version 2.1 of the policy applies.", "The policy v2.1 applies."),
    ],
)
def test_same_quantity_in_other_units_is_found(claim: str, evidence: str) -> None:
    signals, contradiction = check(claim, evidence)
    assert signals["hard_number_missing"] == 0.0
    assert contradiction is None


@pytest.mark.parametrize(
    ("claim", "evidence", "rival"),
    [
        ("Logs are kept for 2 years.", "Logs are kept for 18 months.", "18"),
        ("Backups are kept for four weeks.", "Backups are kept for 35 days.", "35"),
        ("The helpdesk closes at 6 pm.", "The helpdesk is staffed until 17:00.", "17:00"),
        ("It took effect on 2024-03-02.", "It is effective from 1 March 2024.", "1"),
        ("Passwords expire every 6 months.", "Passwords expire annually.", "annually"),
    ],
)
def test_other_quantity_of_the_same_kind_is_a_conflict(
    claim: str, evidence: str, rival: str
) -> None:
    _, contradiction = check(claim, evidence)
    assert contradiction is not None
    assert contradiction.endswith(f"(evidence says {rival})")


def test_durations_that_do_not_convert_are_missing_not_rivals() -> None:
    # 60 days is not exactly two months: unsupported, but not a contradiction.
    signals, contradiction = check(
        "Claims are due within 60 days.", "Claims are due in two months."
    )
    assert signals["hard_number_missing"] == 1.0
    assert signals["hard_number_conflict"] == 0.0
    assert contradiction is None


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


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Expenses over $5,000 need CFO approval.", "The Chief Financial Officer approves them."),
        ("The GDPR applies.", "The General Data Protection Regulation applies."),
        ("The General Data Protection Regulation applies.", "The GDPR applies."),
        ("KPIs are reviewed.", "Key Performance Indicators are reviewed."),
        ("Guest Wi-Fi is available.", "Guest WiFi is available."),
    ],
)
def test_acronyms_match_their_expansion(claim: str, evidence: str) -> None:
    signals, _ = check(claim, evidence)
    assert signals["hard_entity_missing"] == 0.0


def test_acronym_does_not_match_lower_case_words() -> None:
    # Initials of ordinary words are no expansion: "customers earn only" is not "CEO".
    signals, _ = check("The CEO signs.", "Customers earn only points; Mary signs.")
    assert signals["hard_entity_missing"] == 1.0


def test_another_acronym_is_a_rival_name() -> None:
    result = run_hard_checks(
        "The CEO approves hires.", "The CFO approves hires.", "The CFO approves hires."
    )
    assert result.signals["hard_entity_conflict"] == 1.0


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # Found by the property-based gate tests: each was judged "supported".
        ("Travel within Europe: EUR 68 per day.", "Travel within Europe: EUR 65 per day."),
        ("They must complete their 91-day probation period.", "A 90-day probation period."),
        ("Please tell us within 50 hours of delivery.", "Tell us within 48 hours of delivery."),
        ("Requests are completed within 47 days.", "Requests are completed within 45 days."),
    ],
)
def test_a_near_number_is_not_a_rounded_one(claim: str, evidence: str) -> None:
    signals, contradiction = check(claim, evidence)
    assert signals["hard_number_missing"] == 1.0
    assert contradiction is not None


def test_a_hedged_round_number_matches_a_precise_one() -> None:
    signals, _ = check("Please tell us within about 50 hours.", "Tell us within 48 hours.")
    assert signals["hard_number_missing"] == 0.0


def test_an_amount_in_the_year_range_is_not_a_year() -> None:
    """Found by the benchmark profile: "$1,500" counted as a year, so "$14,500" had no rival."""
    signals, contradiction = check(
        "The learning budget is $14,500 per year.", "The learning budget is $1,500 per year."
    )
    assert signals["hard_number_conflict"] == 1.0
    assert (
        contradiction == "number $14,500 in the claim is not in the evidence (evidence says $1,500)"
    )
    assert [q.is_year for q in quantities("In 1998 it cost $1,500.")] == [True, False]


def test_the_claims_own_rate_is_not_evidence_for_its_number() -> None:
    """Found by the benchmark profile: "7 days per week" matched the evidence's "per week"."""
    signals, contradiction = check(
        "Employees may work remotely for up to 7 days per week.",
        "Employees may work remotely for up to 3 days per week, or 5 days a week if approved.",
    )
    assert signals["hard_number_conflict"] == 1.0
    assert contradiction is not None
    signals, _ = check("Reviews happen every 12 months.", "Reviews happen annually.")
    assert signals["hard_number_missing"] == 0.0
