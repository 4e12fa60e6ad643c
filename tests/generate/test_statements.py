"""Which sentences can be claims (`ragcite.generate.statements.is_statement`)."""

from __future__ import annotations

import pytest

from ragcite.generate.statements import about_its_label, about_the_document, is_statement
from ragcite.text.words import content_stems


@pytest.mark.parametrize(
    "line",
    [
        "Christmas Day and Boxing Day: closed",
        "Default admin address: http://192.168.50.1",
        "Monday to Friday: 06:00–22:00",
        "Returns are free.",
    ],
)
def test_a_labelled_value_or_a_short_rule_is_a_statement(line: str) -> None:
    assert is_statement(line, "Opening hours")


@pytest.mark.parametrize("line", ["Opening hours", "Yes.", "Contact details", "How do I join?"])
def test_a_heading_a_bare_label_or_a_question_is_not(line: str) -> None:
    assert not is_statement(line, "Opening hours")


def test_a_bare_labelled_line_answers_only_what_its_label_names() -> None:
    """ "Next review: January 2026" states a date but is no answer to "When will I see my
    pay rise?"; "Christmas Day and Boxing Day: closed" answers "… open on Boxing Day?"."""
    pay_rise = content_stems("When will I actually see my pay rise come through?")
    assert not about_its_label("Next review: January 2026", pay_rise)
    assert about_its_label("Pay rises appear in the June payroll.", pay_rise)
    boxing_day = content_stems("Is the gym open on Boxing Day?")
    assert about_its_label("Christmas Day and Boxing Day: closed", boxing_day)


@pytest.mark.parametrize(
    ("sentence", "question", "about"),
    [
        ("These terms apply to every owner of a caravan.", "When am I paid?", True),
        ("This policy explains how to report a fault.", "How much do I get per day?", True),
        ("This guide sets out our fares.", "How much is a single?", True),
        ("These terms apply to every owner of a caravan.", "Do these rules apply to me?", False),
        ("This policy covers staff and contractors.", "Are contractors covered?", False),
        ("This fee is paid monthly.", "When am I paid?", False),
        ("Refunds are made within 14 days.", "When am I paid?", False),
    ],
)
def test_a_sentence_about_its_document_is_no_answer(
    sentence: str, question: str, about: bool
) -> None:
    assert about_the_document(sentence, question) is about
