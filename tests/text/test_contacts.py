"""Questions asking for a phone number, an email or a web address, and the sentences that
give one."""

from __future__ import annotations

import pytest

from ragcite.text.contacts import asked_contact, gives_contact, is_contact_line, wanted_contact


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What's the phone number for AFCA?", "a phone number"),
        ("whats the helpdesk phone number?", "a phone number"),
        ("What number do I ring for PALS?", "a phone number"),
        ("whats the number to phone my meter reading through?", "a phone number"),
        ("What's the number for PALS?", "a phone number"),
        ("what's the number to book a bulky waste pick up?", "a phone number"),
        ("What is the number of days I can carry over?", None),
        ("What is the HR extension?", "a phone number"),
        ("What is the email address for payroll?", "an email address"),
        ("What's the website?", "a web address"),
        ("What happens if the website is down?", None),
        ("What happens if I email the wrong person?", None),
        ("What is the number of legions?", None),
        ("What is the link between pay and grade?", None),
        ("is there a phone number for the payments people?", "a phone number"),
        ("Do you have an email address for complaints?", "an email address"),
        ("Is there a fee for a new card?", None),
        ("Is there a number of days I must wait?", None),
    ],
)
def test_a_question_asks_for_a_contact_only_when_it_asks_what_it_is(
    question: str, kind: str | None
) -> None:
    assert asked_contact(question) == kind


def test_a_sentence_gives_the_kind_of_contact_asked() -> None:
    assert gives_contact("a phone number", "Ring the desk on extension 4455.")
    assert not gives_contact("a phone number", "Ring the IT service desk.")
    assert gives_contact("an email address", "Email payroll@example.com.")
    assert not gives_contact("an email address", "Call 0161 496 0725.")
    assert gives_contact("a web address", "Book at www.example.com/rooms.")


def test_a_contact_line_is_labelled_as_one() -> None:
    assert is_contact_line("Phone: 01632 960 418")
    assert is_contact_line("Email: pals@example.org")
    assert not is_contact_line("IT Service Desk: 0161 496 0725")
    assert not is_contact_line("Please phone us on 0161 496 0725.")


@pytest.mark.parametrize(
    "sentence",
    ["Open 9am to 4.30pm.", "It costs £1.50.", "Fees rise in 2025.", "Call us within 48 hours."],
)
def test_a_time_an_amount_or_a_year_is_no_phone_number(sentence: str) -> None:
    assert not gives_contact("a phone number", sentence)


@pytest.mark.parametrize(
    "sentence", ["Dial 111 for advice.", "Call 0800 046 7721.", "(02) 9123 4567"]
)
def test_short_and_long_phone_numbers_are_phone_numbers(sentence: str) -> None:
    assert gives_contact("a phone number", sentence)


def test_who_do_i_ring_wants_a_phone_number_but_asks_for_none() -> None:
    assert wanted_contact("Who do I ring if the chain snaps?") == "a phone number"
    assert asked_contact("Who do I ring if the chain snaps?") is None
    assert wanted_contact("What's the website?") == "a web address"
    assert wanted_contact("Who do I email about my bill?") == "an email address"
    assert wanted_contact("Is there anyone at the uni I can ring?") == "a phone number"
    assert wanted_contact("Is there someone we could call tonight?") == "a phone number"
    assert wanted_contact("Is there anyone who can help me with the form?") is None
    assert wanted_contact("who do i actually phone about my exams?") == "a phone number"
    assert wanted_contact("who do we need to email about it?") == "an email address"
