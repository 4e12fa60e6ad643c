"""The words of a question that name what kind of thing its answer is."""

from __future__ import annotations

import pytest

from ragcite.verify.answer_types import answer_kind_words


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("What disease do Minkowski Prize and Oskar Minkowski have in common?", {"disease"}),
        ("Jacques Tourneur and Alex Cox have which mutual occupation?", {"occupation"}),
        ("How many unused vacation days can I carry over?", {"days"}),
        ("What is the birthdate of this American actress?", {"birthdate"}),
        ("Who was the Normans' main enemy in Italy?", {"enemy"}),
        ("Whose signature is needed on a purchase order?", {"signature"}),
    ],
)
def test_the_noun_after_the_question_word_names_the_answers_kind(
    question: str, kinds: set[str]
) -> None:
    assert answer_kind_words(question) == kinds


@pytest.mark.parametrize(
    "question",
    [
        "What is a sabbatical?",  # the phrase is what the question is about
        "Who is the CEO?",
        "Who founded the company?",  # no noun names the kind
        "Does our health insurance include dental cover?",
        "When was the Duchy of Normandy founded?",
    ],
)
def test_no_kind_word_where_none_names_the_answer(question: str) -> None:
    assert answer_kind_words(question) == set()
