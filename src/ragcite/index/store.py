"""The Store protocol: what every store (embedded SQLite, PostgreSQL) offers.

A store holds document versions with their extracted text, chunks, vectors and
keyword index, and answers dense and keyword searches under filters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ragcite.ingest.types import PageSpan
from ragcite.models import Document, DocumentStatus, SourceChunk


@dataclass(frozen=True)
class SearchFilters:
    """Which chunks a search may return.

    `corpora` None means every corpus; `access_groups` None means no access check,
    otherwise a document is readable when it has no access list or shares a group.
    """

    corpora: tuple[str, ...] | None = None
    statuses: tuple[DocumentStatus, ...] = (DocumentStatus.ACTIVE,)
    access_groups: tuple[str, ...] | None = None
    document_ids: tuple[str, ...] | None = None


@dataclass(frozen=True)
class ScoredChunk:
    chunk: SourceChunk
    score: float


@dataclass(frozen=True)
class StoreCounts:
    documents: int
    versions: int
    chunks: int
    corpus_version: str


@dataclass(frozen=True)
class DocumentText:
    document: Document
    text: str
    pages: tuple[PageSpan, ...] = ()


@dataclass(frozen=True)
class FeedbackRecord:
    """A person's judgement of an answer, a claim or a citation, as stored."""

    id: int
    created_at: datetime
    query: str
    rating: str
    chunk_id: str | None = None
    claim_text: str | None = None
    comment: str | None = None
    response_json: str | None = None


@dataclass(frozen=True)
class NewVersion:
    """A document version ready to store: metadata, text, chunks and one vector per chunk."""

    document: Document
    text: str
    pages: tuple[PageSpan, ...]
    chunks: list[SourceChunk]
    vectors: npt.NDArray[np.float32]
    extra: dict[str, Any] = field(default_factory=dict)


class Store(Protocol):
    def add_version(self, version: NewVersion) -> Document:
        """Store a version in one transaction; supersede older ones; return it as stored."""
        ...

    def find_version_by_hash(self, document_id: str, content_sha256: str) -> Document | None: ...

    def latest_version(self, document_id: str) -> Document | None: ...

    def list_documents(self, corpus: str | None = None) -> list[Document]:
        """Every version of every document, newest version first within a document."""
        ...

    def delete_document(self, document_id: str) -> int:
        """Mark every version deleted (kept for audit, never searched); return how many."""
        ...

    def document_text(self, document_id: str, version: int | None = None) -> DocumentText: ...

    def get_chunks(self, chunk_ids: list[str]) -> list[SourceChunk]: ...

    def neighbours(self, chunk_id: str, before: int = 1, after: int = 1) -> list[SourceChunk]: ...

    def dense_search(
        self, vector: npt.NDArray[np.float32], k: int, filters: SearchFilters
    ) -> list[ScoredChunk]:
        """Chunks by cosine similarity (vectors are normalised), best first."""
        ...

    def keyword_search(self, query: str, k: int, filters: SearchFilters) -> list[ScoredChunk]:
        """Chunks by BM25 (higher is better), best first."""
        ...

    def similarities(
        self, vector: npt.NDArray[np.float32], chunk_ids: list[str]
    ) -> dict[str, float]:
        """Cosine of `vector` with each named chunk's stored vector."""
        ...

    def counts(self) -> StoreCounts: ...

    def corpus_version(self) -> str: ...

    def close(self) -> None: ...

    def add_feedback(
        self,
        query: str,
        rating: str,
        *,
        chunk_id: str | None = None,
        claim_text: str | None = None,
        comment: str | None = None,
        response_json: str | None = None,
    ) -> FeedbackRecord:
        """Persist one piece of feedback and return it with its id."""
        ...

    def list_feedback(self, limit: int = 100) -> list[FeedbackRecord]:
        """Stored feedback, newest first."""
        ...
