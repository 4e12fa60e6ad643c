"""Acronyms a question uses and its passages spell out."""

from __future__ import annotations

import pytest

from ragcite.text.acronyms import expand_acronyms

FAQ = [
    "A purchase order is normally issued within three working days. "
    "The supplier must quote a valid purchase order number.",
    "Multi-factor authentication is mandatory for email and VPN.",
    "Every statement of work is signed by legal.",
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How soon will I get a PO?", "How soon will I get a purchase order?"),
        ("Where do I send POs?", "Where do I send purchase orders?"),
        ("Is MFA needed for VPN?", "Is Multi-factor authentication needed for VPN?"),
        ("Who signs the SOW?", "Who signs the statement of work?"),
    ],
)
def test_an_acronym_is_read_in_the_passages_words(question: str, expected: str) -> None:
    assert expand_acronyms(question, FAQ) == expected


def test_an_acronym_the_passages_write_is_kept() -> None:
    """ "VPN" is written in the passages: the question already matches them."""
    assert expand_acronyms("Is the VPN required?", FAQ) == "Is the VPN required?"


def test_two_letters_spelled_once_by_chance_are_no_acronym() -> None:
    """ "Please order" spells "PO" once, in lower case: chance, not the acronym."""
    assert expand_acronyms("What is the PO limit?", ["Please order it now."]) == (
        "What is the PO limit?"
    )
    assert expand_acronyms("What is the PO limit?", ["Each Purchase Order has one."]) == (
        "What is the Purchase Order limit?"
    )


def test_a_run_must_start_and_end_on_content_words() -> None:
    assert expand_acronyms(
        "Is the TO ready?", ["Send it to the office. Send it to the office."]
    ) == ("Is the TO ready?")


def test_a_question_in_capitals_has_no_acronyms() -> None:
    assert expand_acronyms("HOW SOON WILL I GET A PO?", FAQ) == "HOW SOON WILL I GET A PO?"


def test_a_possessive_in_the_spelled_out_words_is_kept_with_its_word() -> None:
    passages = ["The DPO decides whether the Information Commissioner's Office must be told."]
    assert (
        expand_acronyms("How long do we have to tell the ICO?", passages)
        == "How long do we have to tell the Information Commissioner's Office?"
    )
