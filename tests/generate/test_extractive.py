"""The extractive generator on the demo corpus (real embedder, real store)."""

from __future__ import annotations

import pytest

from ragcite.embed.base import Embedder
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.generate.missing_parts import gives_what_is_asked
from ragcite.pipeline import Ragcite
from ragcite.rerank.question_parts import question_parts
from tests.generate.chunks import passage_chunk


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "How long do we keep PII, and does the EU differ from the US?",
            ["How long do we keep PII", "does the EU differ from the US"],
        ),
        (
            "how much is a party per kid and whats the minimum number of children?",
            ["how much is a party per kid", "whats the minimum number of children"],
        ),
        ("How much parental leave does the primary caregiver get?", None),
        ("Do salt and pepper count?", None),
    ],
)
def test_compound_questions_split_into_parts(question: str, parts: list[str] | None) -> None:
    assert question_parts(question) == (parts or [question.rstrip("?")])


def test_each_part_of_a_compound_question_is_answered(demo_rag: Ragcite) -> None:
    question = "How quickly do I have to report a suspected security incident, and a lost laptop?"
    response = demo_rag.ask(question)
    text = response.answer_text
    assert "1 hour" in text and "4 hours" in text


def test_a_part_asking_a_price_is_missing_when_its_sentence_states_none(demo_rag: Ragcite) -> None:
    # The equipment table says who may order a monitor, never what one costs.
    response = demo_rag.ask("Who can order an external monitor and how much does it cost?")
    assert response.answerable
    assert any("2 days per week" in c.claim_text for c in response.cited_claims)
    assert "The documents do not say how much it costs." in response.answer_text


@pytest.mark.parametrize(
    ("part", "sentence", "gives"),
    [
        ("how much does it cost", "Monitors are replaced every 5 years.", False),
        ("how much does it cost", "A monitor costs £120.", True),
        ("what's the phone number", "Call the service desk.", False),
        ("what's the phone number", "Call the service desk on 0161 555 0192.", True),
        ("who can order one", "Anyone remote at least 2 days per week.", True),
    ],
)
def test_a_part_is_answered_only_with_the_price_or_contact_it_asks_for(
    part: str, sentence: str, gives: bool
) -> None:
    assert gives_what_is_asked(part, sentence) is gives


def test_claims_are_statements_not_headings(demo_rag: Ragcite) -> None:
    response = demo_rag.ask("How long do we keep customer PII, and does the EU differ from the US?")
    headings = {c.section_heading for c in response.source_chunks}
    assert all(claim.claim_text not in headings for claim in response.cited_claims)
    assert all(claim.claim_text.rstrip()[-1] in ".!?)" for claim in response.cited_claims)


def test_claim_text_is_one_line_but_the_quote_is_verbatim(demo_rag: Ragcite) -> None:
    response = demo_rag.ask("How much parental leave does the primary caregiver get?")
    claim = response.cited_claims[0]
    assert "\n" not in claim.claim_text
    chunk = response.chunk(claim.citations[0].chunk_id)
    assert chunk is not None and claim.citations[0].quote in chunk.chunk_text


TOIL_LIMITS = passage_chunk(
    "c_toil000001",
    "You can hold a maximum of 22.5 hours of TOIL at any one time. Your manager should not "
    "approve extra hours that would take you above this limit. TOIL must be taken within "
    "three months of being earned. TOIL that has not been taken within three months will be "
    "lost, unless your manager has agreed in writing that operational needs prevented you "
    "from taking it.",
    heading="5.2 Limits and taking TOIL",
    title="Flexible Working and Time Off in Lieu (TOIL) Policy",
).model_copy(update={"composite_confidence": 0.5})  # retrieved with middling confidence


def test_a_compound_question_no_part_of_which_is_close_enough_alone_is_answered_whole(
    embedder: Embedder,
) -> None:
    """Each part of "what's the most TOIL I'm allowed to have saved up, and does it run out?"
    reads below the relevance floor on its own, while the answer decision takes the whole
    question: the question is answered as one, and no part is reported missing."""
    asked = "what's the most TOIL I'm allowed to have saved up, and does it run out?"
    draft = ExtractiveGenerator(embedder).generate(asked, [TOIL_LIMITS])
    assert draft.answerable
    assert any("22.5 hours" in c.claim_text for c in draft.claims)
    assert "do not say" not in draft.answer_text
