"""Time references in questions: dates, versions and relative versions."""

from __future__ import annotations

from datetime import date

import pytest

from ragcite.text.time_refs import TimeReference, parse_time_reference, without_reference

TODAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("question", "as_of", "phrase"),
    [
        ("How long were backups kept under the 2019 policy?", date(2019, 12, 31), "2019"),
        ("What was the rule in 2019?", date(2019, 12, 31), "2019"),
        ("As of June 2020, how long were invoices kept?", date(2020, 6, 30), "June 2020"),
        ("as of 15 June 2020?", date(2020, 6, 15), "15 June 2020"),
        ("as of June 15th, 2020?", date(2020, 6, 15), "June 15th, 2020"),
        ("on 2021-05-03 what applied", date(2021, 5, 3), "2021-05-03"),
        ("Before March 2024, who approved it?", date(2024, 2, 29), "Before March 2024"),
        ("prior to 1 Jan 2024?", date(2023, 12, 31), "prior to 1 Jan 2024"),
        ("in Sept 2021", date(2021, 9, 30), "Sept 2021"),
        ("2019 policy: how long were backups kept?", date(2019, 12, 31), "2019"),
    ],
)
def test_dates(question: str, as_of: date, phrase: str) -> None:
    assert parse_time_reference(question, today=TODAY) == TimeReference(phrase, as_of=as_of)


@pytest.mark.parametrize(
    ("question", "version"),
    [("What did v1 say?", 1), ("In version 2 of the policy", 2), ("Version 12 rules", 12)],
)
def test_version_numbers(question: str, version: int) -> None:
    found = parse_time_reference(question, today=TODAY)
    assert found is not None and found.version == version and found.as_of is None


@pytest.mark.parametrize(
    ("question", "relative"),
    [
        ("Under the previous policy, who approved exceptions?", "previous"),
        ("In the old handbook, how many days of leave?", "previous"),
        ("the former data retention policy", "previous"),
        ("the earlier version says", "previous"),
        ("In the original policy, what applied?", "original"),
        ("the first edition", "original"),
    ],
)
def test_relative_versions(question: str, relative: str) -> None:
    found = parse_time_reference(question, today=TODAY)
    assert found is not None and found.relative == relative


@pytest.mark.parametrize(
    "question",
    [
        "How long are backups kept?",
        "What does ISO 27001 require?",
        "Is the limit 2000 characters?",  # not a year between 1900 and 2099 in context
        "What happens until 31 December 2099?",  # the future: the current versions
        "Before 31 February 2020?",  # no such day
        "What is the old office address?",  # "old" without a document noun after it
        "How many v2x devices?",
        "Is there a limit of 2000 characters?",
        "How old is the handbook?",
        "What is the first step of the procedure?",
        "Is 1.5 version 2.1 compatible?",
    ],
)
def test_no_reference(question: str) -> None:
    assert parse_time_reference(question, today=TODAY) is None


def test_a_date_wins_over_a_version_word() -> None:
    found = parse_time_reference("In the original 2019 retention policy?", today=TODAY)
    assert found == TimeReference("2019", as_of=date(2019, 12, 31))


def test_this_year_is_capped_at_today() -> None:
    found = parse_time_reference("in 2026", today=TODAY)
    assert found is not None and found.as_of == TODAY


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How long were backups kept in 2019?", "How long were backups kept?"),
        ("Under the 2019 policy, how long?", "Under the policy, how long?"),
        ("As of June 2020, how long were invoices kept?", ", how long were invoices kept?"),
        ("What did v1 say?", "What did say?"),
    ],
)
def test_without_reference(question: str, expected: str) -> None:
    reference = parse_time_reference(question, today=TODAY)
    assert without_reference(question, reference) == expected
    assert without_reference(question, None) == question
