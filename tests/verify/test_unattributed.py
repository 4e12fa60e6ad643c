"""Which sentences of an answer state a fact that a claim must carry."""

from __future__ import annotations

import pytest

from ragcite.verify.unattributed import is_fact_bearing, unattributed_sentences


@pytest.mark.parametrize(
    "sentence",
    [
        "Here is what I found:",
        "Based on the documents, the answer is below.",
        "Please contact HR if you have questions.",
        "Feel free to ask the People Team for more detail.",
        "I hope this helps!",
        "If you have any further questions, ask your manager.",
    ],
)
def test_framing_and_courtesy_bear_no_fact(sentence: str) -> None:
    assert not is_fact_bearing(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Note that contractors are not eligible.",
        "The policy was last updated in 2024.",
        "Expenses over $5,000 need CFO approval.",
        "Managers must approve leave requests.",
    ],
)
def test_statements_bear_facts(sentence: str) -> None:
    assert is_fact_bearing(sentence)


def test_uncited_facts_are_found_and_courtesy_is_not() -> None:
    answer = (
        "Based on the handbook, here is the answer. Employees receive 25 days of annual "
        "leave [1]. Please contact HR if you have questions. Note that contractors are not "
        "eligible."
    )
    claims = ["Employees receive 25 days of annual leave."]
    assert unattributed_sentences(answer, claims) == ["Note that contractors are not eligible."]
