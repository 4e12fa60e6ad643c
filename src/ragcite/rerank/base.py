"""The Reranker protocol: how well does each chunk answer the question?"""

from __future__ import annotations

from typing import Protocol

from ragcite.models import SourceChunk


class Reranker(Protocol):
    """Scores chunks for a query: one relevance score in [0, 1] per chunk, in order."""

    name: str

    def score(self, query: str, chunks: list[SourceChunk]) -> list[float]: ...
