"""A question about the case where the first step did not work is answered by the next step.

Real MiniLM embedder and the shipped sentence-choice model, over a chunk built here.
"""

from __future__ import annotations

import pytest

from ragcite.embed.base import Embedder
from ragcite.generate.escalation import asks_past_first_step, escalates
from ragcite.generate.extractive import ExtractiveGenerator
from tests.generate.chunks import passage_chunk

COMPLAINTS = passage_chunk(
    "c_complaints1",
    "Complaints should go first to the Branch Manager, who will acknowledge them within 48 "
    "hours and reply in full within 15 working days. If you are still unhappy, write to our "
    "Head of Lettings, Priya Dorrance. Office hours are Monday to Friday 9am to 5:30pm.",
    heading="10. Complaints",
)


@pytest.mark.parametrize(
    "question",
    [
        "Who do I write to if the branch manager doesn't sort out my complaint?",
        "Who do I write to if my Property Manager hasn't sorted out my complaint?",
        "If I'm still not happy after complaining to the bank, who else can I go to?",
        "I'm not happy with the grievance decision letter, who can I appeal to?",
    ],
)
def test_a_question_past_the_first_step_is_recognised(question: str) -> None:
    assert asks_past_first_step(question)


@pytest.mark.parametrize(
    "question",
    ["Who do I complain to?", "Who sorts out complaints?", "Is the office not open on Sundays?"],
)
def test_a_plain_question_is_not_past_the_first_step(question: str) -> None:
    assert not asks_past_first_step(question)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("If you are still unhappy, write to our Head of Lettings.", True),
        ("If you remain dissatisfied, you may refer the matter to the Ombudsman.", True),
        ("If the matter is not resolved within 8 weeks, contact the Ombudsman.", True),
        ("If this does not resolve your complaint, ask for a review.", True),
        ("If your complaint has not been resolved within 10 working days, write to us.", True),
        ("If you are unhappy with a groom, tell us within 72 hours.", False),
        ("Complaints should go first to the Branch Manager.", False),
    ],
)
def test_the_next_step_sentence_is_recognised(sentence: str, expected: bool) -> None:
    assert escalates(sentence) is expected


def test_the_next_step_is_quoted_when_the_first_did_not_work(embedder: Embedder) -> None:
    draft = ExtractiveGenerator(embedder).generate(
        "Who do I write to if the branch manager doesn't sort out my complaint?", [COMPLAINTS]
    )
    quotes = [claim.citations[0].quote for claim in draft.claims]
    assert any("Priya Dorrance" in quote for quote in quotes)


def test_the_first_step_alone_answers_a_plain_question(embedder: Embedder) -> None:
    draft = ExtractiveGenerator(embedder).generate("Who do complaints go to first?", [COMPLAINTS])
    quotes = [claim.citations[0].quote for claim in draft.claims]
    assert any("Branch Manager" in quote for quote in quotes)
    assert not any("Priya Dorrance" in quote for quote in quotes)
