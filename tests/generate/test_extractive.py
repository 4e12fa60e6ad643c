"""The extractive generator on the demo corpus (real embedder, real store)."""

from __future__ import annotations

import pytest

from ragcite.pipeline import Ragcite
from ragcite.rerank.question_parts import question_parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "How long do we keep PII, and does the EU differ from the US?",
            ["How long do we keep PII", "does the EU differ from the US"],
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
