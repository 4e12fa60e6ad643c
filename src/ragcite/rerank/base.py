"""The Reranker protocol: how well does each chunk answer the question?"""

from __future__ import annotations

from typing import Protocol

from ragcite.models import SourceChunk


class Reranker(Protocol):
    """Scores chunks for a query: one relevance score in [0, 1] per chunk, in order."""

    name: str

    def score(self, query: str, chunks: list[SourceChunk]) -> list[float]: ...


def passage_text(chunk: SourceChunk) -> str:
    """What a text reranker reads of a chunk: its title and section on a line, then its text.

    >>> passage_text(chunk)
    'Handbook → Parental leave\\nPrimary caregivers receive 16 weeks of paid leave.'
    """
    heading = " → ".join(h for h in (chunk.document_title, chunk.section_heading) if h)
    return f"{heading}\n{chunk.chunk_text}" if heading else chunk.chunk_text
