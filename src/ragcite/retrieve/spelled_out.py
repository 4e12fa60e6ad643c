"""Retrieval for a question whose acronym or shortened word the documents spell out.

"How soon will I receive a PO?" finds little by its words when the procurement FAQ always
writes "purchase order": neither the dense nor the keyword lookup knows "PO". When the
passages a first retrieval finds spell out an acronym of the question and never write it
(`ragcite.text.acronyms`), or write in full a shortened word of it ("prod": "production",
`ragcite.text.short_forms`), the question is retrieved again in their words, and the later
stages rank by that wording. So is a question that misspells a word the passages write
("balence": "balance", `ragcite.retrieve.typos`). A question without any costs nothing more.
"""

from __future__ import annotations

from collections.abc import Callable

from ragcite.retrieve.hybrid import RetrievalResult
from ragcite.retrieve.typos import correct_typos
from ragcite.text.short_forms import spell_out


def retrieve_spelled_out(
    retrieve: Callable[[str], RetrievalResult], query: str
) -> tuple[str, RetrievalResult]:
    """(the question as retrieved, what `retrieve` found for it)."""
    retrieved = retrieve(query)
    passages = [c.chunk_text for c in retrieved.chunks]
    spelled = correct_typos(spell_out(query, passages), passages)
    if spelled == query:
        return query, retrieved
    return spelled, retrieve(spelled)
