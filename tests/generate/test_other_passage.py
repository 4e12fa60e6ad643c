"""The extractive generator cites a second passage when the question is about both.

Real MiniLM embedder and the shipped sentence-choice model, over chunks built here.
"""

from __future__ import annotations

from ragcite.embed.base import Embedder
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.models import SourceChunk
from tests.generate.chunks import passage_chunk


def _chunk(chunk_id: str, heading: str, text: str) -> SourceChunk:
    return passage_chunk(
        chunk_id,
        text,
        heading=heading,
        document_id="lake-orrin-notes",
        title="Lake Orrin Visitor Notes",
    )


LODGE = _chunk(
    "c_lodge00001",
    "Brackwater Lodge",
    "Brackwater Lodge on Lake Orrin is run by the Ferris Trust, a charity founded in 1931.",
)
BOATS = _chunk(
    "c_boats00002",
    "Boats",
    "The lodge rents rowing boats and kayaks to its guests from May to September.",
)


def test_a_question_about_two_passages_cites_both(embedder: Embedder) -> None:
    draft = ExtractiveGenerator(embedder).generate(
        "Who runs the lodge on Lake Orrin that rents rowing boats?", [LODGE, BOATS]
    )
    assert draft.answerable
    cited = {citation.chunk_id for claim in draft.claims for citation in claim.citations}
    assert cited == {LODGE.chunk_id, BOATS.chunk_id}
    for claim in draft.claims:
        chunk = LODGE if claim.citations[0].chunk_id == LODGE.chunk_id else BOATS
        assert claim.citations[0].quote in chunk.chunk_text


def test_a_passage_that_adds_nothing_the_question_asks_is_not_cited(embedder: Embedder) -> None:
    draft = ExtractiveGenerator(embedder).generate(
        "Who runs Brackwater Lodge on Lake Orrin?", [LODGE, BOATS]
    )
    assert [claim.citations[0].chunk_id for claim in draft.claims] == [LODGE.chunk_id]


# The passage of the other case ranks first, as retrieval ranked it where this was found.
FAIR_USE = _chunk(
    "c_fairuse0003",
    "1. Why we have a fair use policy",
    "All of our residential broadband plans come with unlimited data. We do not put caps on "
    "how much you download, and we do not slow down particular websites, apps or services.",
).model_copy(update={"composite_confidence": 0.9})
TRAFFIC = _chunk(
    "c_traffic0004",
    "3. What happens if your usage is outside fair use",
    "Step 2 - If usage stays outside fair use in the calendar month after our first message, "
    "we may apply traffic management to your connection between 7pm and 11pm for up to 30 "
    "days. During this time your download speed may be reduced to no less than 50Mbps.",
).model_copy(update={"composite_confidence": 0.7})


def test_a_passage_of_the_other_case_is_not_joined_to_the_answer(embedder: Embedder) -> None:
    # "We do not put caps …" speaks of the case where nothing is put on the line.
    draft = ExtractiveGenerator(embedder).generate(
        "If you put traffic management on my line, how slow can my download speed get?",
        [FAIR_USE, TRAFFIC],
    )
    cited = [claim.citations[0].chunk_id for claim in draft.claims]
    assert TRAFFIC.chunk_id in cited
    assert FAIR_USE.chunk_id not in cited


def test_a_question_about_not_doing_something_gets_the_sentence_of_that_case(
    embedder: Embedder,
) -> None:
    clamps = _chunk(
        "c_clamps00005",
        "4. Security",
        "4.2 Your caravan must be fitted with a wheel clamp and a hitch lock whenever it is on "
        "the pitch. Motorhomes must have a steering wheel lock fitted. If we find a caravan "
        "without a wheel clamp, we will fit one of ours and charge GBP 10 per week until you "
        "fit your own.",
    )
    draft = ExtractiveGenerator(embedder).generate(
        "What happens if I forget to put a wheel clamp on the caravan?", [clamps]
    )
    assert any("GBP 10 per week" in claim.citations[0].quote for claim in draft.claims)


def test_not_doing_something_is_read_as_it_is_typed_without_an_apostrophe(
    embedder: Embedder,
) -> None:
    trees = _chunk(
        "c_trees00005",
        "5. Pot-grown trees and Rent-a-Tree",
        "Rent-a-Tree costs £40.00 plus a refundable deposit of £25.00. Trees must be returned to "
        "the farm by 10 January. If the tree is returned on time, we refund the £25.00 deposit "
        "to your card within 7 days. If you do not bring it back by 10 January, we keep the "
        "deposit and the tree is yours to keep.",
    )
    asked = "we did rent a tree - what happens if we dont manage to bring it back in january?"
    draft = ExtractiveGenerator(embedder).generate(asked, [trees])
    assert any("we keep the deposit" in claim.claim_text for claim in draft.claims)
