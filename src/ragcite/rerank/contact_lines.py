"""The passage holding the contact a question asks for, when retrieval left it out.

"What number do I ring to get my skip collected?" retrieves the passages about booking and
collection; the number is in the document's contacts table ("Bookings and collections —
Phone: 0117 496 0321"), which shares few of the question's words. When none of the first
passages gives the kind of contact asked for, one more retrieval, the question with the
words of a contacts table, looks for the passage of a document already retrieved that
gives one; it joins the passages the answer is written from.

    >>> contact_query("What number do I ring to get my skip collected?")
    'What number do I ring to get my skip collected? phone number contact telephone'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ragcite.models import SourceChunk
from ragcite.text.contacts import gives_contact, wanted_contact

# The first passages the generator reads (`ragcite.generate.extractive`): a contact passage
# found by the second retrieval takes the last of these places when it is not among them.
WINDOW = 5
# Where the question proper may start after the asker's situation ("It's 2am and I'm locked
# out. Who do I ring?", "… no money at all - is there anyone I can ring?").
_CLAUSE = re.compile(r"(?<=[.!?;,:–—-])\s+")
_CONTACT_WORDS = {
    "a phone number": "phone number contact telephone",
    "an email address": "email address contact",
    "a web address": "website web address",
}


def asked_kind(question: str) -> str | None:
    """The kind of contact the question, or its last clause asking, wants (`wanted_contact`)."""
    clauses = _CLAUSE.split(question)
    return next(
        (k for i in range(len(clauses)) if (k := wanted_contact(" ".join(clauses[i:])))), None
    )


def contact_query(question: str) -> str | None:
    """The question with the words of a contacts table, or None when it asks for no contact."""
    kind = asked_kind(question)
    return None if kind is None else f"{question} {_CONTACT_WORDS[kind]}"


def with_contact_line(
    question: str, chunks: list[SourceChunk], retrieve: Callable[[str], list[SourceChunk]]
) -> list[SourceChunk]:
    """`chunks` with a passage giving the contact `question` asks for in its first `WINDOW`
    places, found by `retrieve` among the documents of those places (unchanged when the
    question asks for none, one of them gives it, or no such passage is found)."""
    kind = asked_kind(question)
    window = chunks[:WINDOW]
    if kind is None or not window or any(gives_contact(kind, c.chunk_text) for c in window):
        return chunks
    documents = {c.document_id for c in window}
    shown = {c.chunk_id for c in window}
    query = contact_query(question) or question
    found = next(
        (
            c
            for c in retrieve(query)
            if c.document_id in documents
            and c.chunk_id not in shown
            and gives_contact(kind, c.chunk_text)
        ),
        None,
    )
    if found is None:
        return chunks
    rest = [c for c in chunks if c.chunk_id != found.chunk_id]
    return [*rest[: WINDOW - 1], found, *rest[WINDOW - 1 :]]
