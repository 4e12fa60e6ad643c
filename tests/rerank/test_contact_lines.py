"""The contacts passage joins the first passages when the question asks for a number."""

from __future__ import annotations

from ragcite.models import SourceChunk
from ragcite.rerank.contact_lines import WINDOW, contact_query, with_contact_line
from tests.generate.chunks import passage_chunk


def _chunk(chunk_id: str, text: str, document: str = "skips") -> SourceChunk:
    return passage_chunk(chunk_id, text, document_id=document, title=document)


FIRST = [_chunk(f"c{i}", f"When the skip is full, call or email us ({i}).") for i in range(6)]
CONTACTS = _chunk("contacts", "Bookings and collections — Phone: 0117 496 0321")
ELSEWHERE = _chunk("other", "Complaints — Phone: 0117 496 0999", document="another")


def test_the_contacts_passage_takes_the_last_place_the_answer_is_written_from() -> None:
    asked = "What number do I ring to get my skip collected?"
    seen: list[str] = []

    def retrieve(query: str) -> list[SourceChunk]:
        seen.append(query)
        return [ELSEWHERE, FIRST[0], CONTACTS]

    chunks = with_contact_line(asked, FIRST, retrieve)
    assert seen == [contact_query(asked)]
    assert chunks[WINDOW - 1] is CONTACTS  # not the other document's number
    assert [c.chunk_id for c in chunks if c is not CONTACTS] == [c.chunk_id for c in FIRST]


def test_nothing_is_looked_up_when_no_contact_is_asked_or_one_is_there() -> None:
    def retrieve(query: str) -> list[SourceChunk]:
        raise AssertionError(f"looked up {query!r}")

    assert with_contact_line("How big is an 8 yard skip?", FIRST, retrieve) == FIRST
    with_number = [CONTACTS, *FIRST]
    assert with_contact_line("What number do I ring?", with_number, retrieve) == with_number
    assert contact_query("How big is an 8 yard skip?") is None


def test_no_passage_giving_the_contact_leaves_the_passages_as_they_were() -> None:
    assert with_contact_line("What number do I ring?", FIRST, lambda q: [ELSEWHERE]) == FIRST
