"""Which sentences can be claims (`ragcite.generate.statements.is_statement`)."""

from __future__ import annotations

import pytest

from ragcite.generate.statements import is_statement


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
