"""The Store protocol: what every store (embedded SQLite, PostgreSQL) offers.

A store holds document versions with their extracted text, chunks, vectors and
keyword index, and answers dense and keyword searches under filters. It stores
versions exactly as it is given them: which version supersedes which is the
indexer's policy (`index.indexer.store_version`), composed from the primitive
operations of a `StoreWriter` inside one transaction. Feedback has its own small
protocol (`index.feedback.FeedbackStore`), and so have API keys (`index.keys.KeyStore`).
Every implementation passes the shared suite in `tests/index/conformance/`.

Who may read what is decided inside each query: every method that returns text or
metadata takes the reader's `access_groups` (None: everything, for an admin or the local
CLI; otherwise public documents and those sharing a group, never deleted ones), and a
version the reader may not see is answered exactly like one that does not exist.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ragcite.ingest.types import PageSpan
from ragcite.models import Document, DocumentStatus, SourceChunk


@dataclass(frozen=True)
class SearchFilters:
    """Which chunks a search may return.

    `corpora` None means every corpus; `access_groups` None means no access check,
    otherwise a chunk is readable when its document and its corpus each have no access
    list or share a group with the reader (`corpus_access`).

    Which version of each document (within `statuses`): `as_of`, the version in force on
    that date (from its `effective_date` until the next version's; a document without
    dates is in force while active); `version`, that version number; `previous_version`,
    the newest superseded version.
    """

    corpora: tuple[str, ...] | None = None
    statuses: tuple[DocumentStatus, ...] = (DocumentStatus.ACTIVE,)
    access_groups: tuple[str, ...] | None = None
    document_ids: tuple[str, ...] | None = None
    as_of: date | None = None
    version: int | None = None
    previous_version: bool = False

    @property
    def scopes_versions(self) -> bool:
        """Whether a version is chosen by date or number rather than by status alone."""
        return self.as_of is not None or self.version is not None or self.previous_version


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
class NewVersion:
    """A document version ready to store: metadata, text, chunks and one vector per chunk."""

    document: Document
    text: str
    pages: tuple[PageSpan, ...]
    chunks: list[SourceChunk]
    vectors: npt.NDArray[np.float32]
    extra: dict[str, Any] = field(default_factory=dict)
    # Per chunk, its sentences' vectors as one blob (`index/sentence_vectors.py`); None
    # (or None for a chunk) stores none, and ask embeds those sentences on the fly.
    sentence_vectors: list[bytes | None] | None = None


class StoreWriter(Protocol):
    """One unit of work inside a store's write transaction (see `Store.write`)."""

    def versions(self, document_id: str) -> list[Document]:
        """Every stored version of a document (deleted ones too), oldest first."""
        ...

    def add_version(self, version: NewVersion) -> Document:
        """Store a version exactly as given (its status and superseded_by included) with its
        chunks, vectors and keyword index; its version number must not be stored yet."""
        ...

    def remove_version(self, document_id: str, version: int) -> bool:
        """Delete one version with its chunks (to replace it); False when it is not stored."""
        ...

    def mark_superseded(self, document_id: str, by_version: int) -> int:
        """Every active version other than `by_version` becomes superseded by it; how many."""
        ...


class Store(Protocol):
    @property
    def dimension(self) -> int | None:
        """The length of the stored vectors; None only for an empty store opened without one."""
        ...

    def write(self) -> AbstractContextManager[StoreWriter]:
        """A unit of work: everything done through the writer commits together when the
        block ends, or, when the block raises, none of it does (and the error propagates).
        Writers are serialised: what `versions` reads stays true until the commit."""
        ...

    def add_version(self, version: NewVersion) -> Document:
        """Store one version exactly as given, in its own transaction; return it as stored."""
        ...

    def find_version_by_hash(self, document_id: str, content_sha256: str) -> Document | None: ...

    def latest_version(self, document_id: str) -> Document | None: ...

    def list_documents(
        self, corpus: str | None = None, *, access_groups: tuple[str, ...] | None = None
    ) -> list[Document]:
        """Every version of every document the reader may see, newest first within a document."""
        ...

    def delete_document(self, document_id: str) -> int:
        """Mark every version deleted (kept for audit, never searched); return how many.
        NotFoundError for a document the store never held."""
        ...

    def mark_verified(self, document_id: str, when: datetime) -> Document:
        """Record that the document's version in force (its newest active one) was checked
        and found current at `when`; return it as stored. Moves the corpus version.
        NotFoundError when the store holds no active version of it."""
        ...

    def document_text(
        self,
        document_id: str,
        version: int | None = None,
        *,
        access_groups: tuple[str, ...] | None = None,
    ) -> DocumentText:
        """A version's extracted text and page map (the newest version the reader may see
        when None); NotFoundError, the same for missing and unreadable, otherwise."""
        ...

    def export_versions(self, corpus: str | None = None) -> Iterator[NewVersion]:
        """Every stored version (superseded and deleted ones too) exactly as stored: its
        document, text, pages, chunks in reading order and their vectors, ready for another
        store's `add_version` (`ragcite migrate`). Document by document (ids in code-point
        order), oldest version first; only `corpus` when given."""
        ...

    def get_chunks(
        self, chunk_ids: list[str], *, access_groups: tuple[str, ...] | None = None
    ) -> list[SourceChunk]:
        """The named chunks that exist and the reader may see, in the order asked."""
        ...

    def neighbours(
        self,
        chunk_id: str,
        before: int = 1,
        after: int = 1,
        *,
        access_groups: tuple[str, ...] | None = None,
    ) -> list[SourceChunk]:
        """The chunk and those around it in its document version, in reading order;
        NotFoundError for a chunk that is missing or the reader may not see."""
        ...

    def dense_search(
        self, vector: npt.NDArray[np.float32], k: int, filters: SearchFilters
    ) -> list[ScoredChunk]:
        """Chunks by cosine similarity (vectors are normalised), best first; the filters are
        applied inside the search, so k eligible chunks come back when there are k."""
        ...

    def keyword_search(self, query: str, k: int, filters: SearchFilters) -> list[ScoredChunk]:
        """Chunks by BM25 (higher is better), best first. Any text is a safe query: its words
        are searched, never interpreted as query syntax."""
        ...

    def similarities(
        self, vector: npt.NDArray[np.float32], chunk_ids: list[str]
    ) -> dict[str, float]:
        """Cosine of `vector` with each named chunk's stored vector."""
        ...

    def sentence_vectors(self, chunk_ids: list[str]) -> dict[str, bytes]:
        """The stored sentence-vector blob of each named chunk that has one."""
        ...

    def counts(self) -> StoreCounts: ...

    def corpus_version(self) -> str:
        """A token that changes on every write (answer caches key on it)."""
        ...

    def close(self) -> None: ...
