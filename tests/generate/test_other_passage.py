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
