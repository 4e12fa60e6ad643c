"""FAQs, exceptions and lists, end to end: the real pipeline (ingest, retrieval, reranking,
the extractive generator and the gate) over a plain-text FAQ, a Markdown policy with a
bulleted list and a table, and an HTML travel FAQ with a list, written for these tests
(tests/data/answers/)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.embed.cached import CachedEmbedder
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.pipeline import Ragcite
from tests.generate.chunks import passage_chunk
from tests.verified_quotes import verified_claims

DATA = Path(__file__).resolve().parents[1] / "data" / "answers"


@pytest.fixture(scope="module")
def rag(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ragcite]:
    path = tmp_path_factory.mktemp("faq") / "store.db"
    rag = Ragcite.open(load_settings(store_path=path, overrides={"cache.enabled": False}))
    documents = [
        DATA / "procurement-faq.txt",
        DATA / "it-acceptable-use.md",
        DATA / "travel-faq.html",
    ]
    assert rag.ingest(documents).added == 3
    yield rag
    rag.close()


def test_an_faq_answer_is_found_through_its_question(rag: Ragcite) -> None:
    """The answer shares almost no words with the user's question; the FAQ's question
    does ("corporate card")."""
    claims = verified_claims(rag.ask("Can I pay for software with my company credit card?"))
    assert any("purchased through the IT portal" in c for c in claims)


def test_an_faq_answer_is_read_with_its_negated_question(rag: Ragcite) -> None:
    """ "without a PO" is negated; the answer is not, its FAQ question is."""
    claims = verified_claims(rag.ask("What happens to an invoice without a PO?"))
    assert any("returned to the supplier unpaid" in c for c in claims)


def test_a_rules_exception_is_quoted_with_the_rule(rag: Ragcite) -> None:
    claims = verified_claims(rag.ask("Can I accept a gift worth EUR 100 from a supplier?"))
    assert any("EUR 50 may be accepted" in c for c in claims)
    assert any(c.startswith("Anything above that must be declined") for c in claims)


def test_a_list_items_bullet_is_not_part_of_its_claim(rag: Ragcite) -> None:
    response = rag.ask("Can I install my own software on my work laptop?")
    assert verified_claims(response)[0] == "Only software from the company portal may be installed."


def test_the_askers_verbs_are_not_the_questions_subject(rag: Ragcite) -> None:
    """ "look at" is how the asker would do it; the policy says "access"."""
    claims = verified_claims(rag.ask("Can I use my personal laptop to look at customer data?"))
    assert claims == ["Personal laptops may not be used to access customer data."]


def test_an_faq_answer_is_as_relevant_as_its_question(embedder: CachedEmbedder) -> None:
    """The same answer, with and without its FAQ question above it: the question carries
    the words the user asks with."""
    answer = "No. Software must always be purchased through the IT portal."
    asked = passage_chunk("c1", f"Can I buy software with my corporate card?\n{answer}")
    alone = passage_chunk("c2", answer)
    generator = ExtractiveGenerator(embedder)
    question = "Can I pay for software with my company credit card?"
    with_question = generator.decision_inputs(question, [asked])
    without = generator.decision_inputs(question, [alone])
    assert with_question and without
    assert with_question["relevance"] > without["relevance"] + 0.1
    claims = generator.generate(question, [asked]).claims
    assert [c.claim_text for c in claims] == [
        "Software must always be purchased through the IT portal."
    ]


def test_an_acronym_the_documents_spell_out_is_answered(rag: Ragcite) -> None:
    """The FAQ never writes "PO": the question is retrieved and read as "purchase order"."""
    response = rag.ask("How soon will I receive a PO?")
    claims = verified_claims(response)
    assert claims == [
        "A purchase order is normally issued within three working days after approval."
    ]
    assert response.query == "How soon will I receive a PO?"


def test_a_table_row_answers_a_negated_question_with_its_values(rag: Ragcite) -> None:
    """No row says "not": "Approval: Automatic" is what answers "without approval"."""
    claims = verified_claims(rag.ask("Which software can engineers get without approval?"))
    assert claims[0].startswith("JetBrains IDEs — ")
    assert "Approval: Automatic" in claims[0]


def test_a_question_asking_for_a_list_gets_every_item(rag: Ragcite) -> None:
    """The section "What you need before travelling" is what the question asks for."""
    claims = verified_claims(rag.ask("What do I need before travelling abroad?"))
    assert claims == [
        "An approved travel request.",
        "A valid passport for trips abroad.",
        "The emergency number of the travel agency: +49 30 1234567.",
    ]


def test_a_question_about_one_item_gets_that_item(rag: Ragcite) -> None:
    claims = verified_claims(rag.ask("What is the emergency number of the travel agency?"))
    assert claims == ["The emergency number of the travel agency: +49 30 1234567."]
    claims = verified_claims(rag.ask("Can I install my own software on my work laptop?"))
    assert claims == ["Only software from the company portal may be installed."]


def test_items_of_one_list_are_not_near_duplicates(embedder: CachedEmbedder) -> None:
    """ "Below 99.9%: a credit of 10%" and "Below 99.0%: … 25%" say different things."""
    text = (
        "If availability falls below the commitment, customers get a service credit:\n\n"
        "- Below 99.9% but at least 99.0%: a credit of 10% of the monthly fee.\n"
        "- Below 99.0% but at least 95.0%: a credit of 25% of the monthly fee.\n"
        "- Below 95.0%: a credit of 50% of the monthly fee."
    )
    chunk = passage_chunk("c1", text, heading="Service credits")
    question = "What service credit does a customer get if availability drops to 98%?"
    claims = ExtractiveGenerator(embedder).generate(question, [chunk]).claims
    assert "Below 99.0% but at least 95.0%: a credit of 25% of the monthly fee." in [
        c.claim_text for c in claims
    ]
