"""The embedded store: one SQLite file per collection, zero setup.

SQLite is the source of truth: documents, versions, chunks, vectors (float32
blobs) and an FTS5 keyword index, each write in one transaction (sqlite_db.py), so a
crash never leaves half a document. Dense search runs on a faiss index derived
from the rows (sqlite_vectors.py), rebuilt when the store's generation moves.
Feedback, API keys and saved answers live in the same file (`store.feedback`,
sqlite_feedback.py; `store.keys`, sqlite_keys.py; `store.answers`, sqlite_answers.py);
erasing a document is sqlite_erase.py.

    >>> store = open_sqlite_store(parse_store_url("/tmp/demo.db"), dimension=384)
    >>> store.counts().chunks
    0
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ragcite.errors import NotFoundError, StoreError
from ragcite.index.answers import AnswerStore, ErasureReport, Tombstone
from ragcite.index.cache import AnswerCache
from ragcite.index.corpus_access import CorpusAccessStore
from ragcite.index.feedback import FeedbackStore
from ragcite.index.keys import KeyStore
from ragcite.index.sqlite_answers import SQLiteAnswerStore
from ragcite.index.sqlite_cache import SQLiteAnswerCache
from ragcite.index.sqlite_corpus_access import SQLiteCorpusAccess
from ragcite.index.sqlite_db import SQLiteDatabase, bump_generation, stored_dimension
from ragcite.index.sqlite_erase import erase_document, keep_tombstone, tombstones
from ragcite.index.sqlite_feedback import SQLiteFeedbackStore
from ragcite.index.sqlite_filters import readable_sql
from ragcite.index.sqlite_keys import SQLiteKeyStore
from ragcite.index.sqlite_keyword import KeywordIndex
from ragcite.index.sqlite_rows import (
    CHUNK_COLUMNS,
    CHUNKS_WITH_DOCUMENTS,
    DOCUMENT_COLUMNS,
    chunk_from_row,
    document_from_row,
    pages_from_row,
)
from ragcite.index.sqlite_vectors import DenseIndex
from ragcite.index.sqlite_version_names import VersionNames
from ragcite.index.sqlite_writer import SQLiteWriter
from ragcite.index.store import (
    DocumentText,
    NewVersion,
    ScoredChunk,
    SearchFilters,
    StoreCounts,
)
from ragcite.models import Document, DocumentStatus, SourceChunk
from ragcite.registry import BackendSpec


def open_sqlite_store(spec: BackendSpec, *, dimension: int | None) -> SQLiteStore:
    """The `sqlite` store builder (entry point `ragcite.stores`): `spec.rest` is the path.

    >>> store = open_sqlite_store(parse_store_url("sqlite:///tmp/hr.db"), dimension=384)
    >>> store.path, store.dimension
    (PosixPath('/tmp/hr.db'), 384)
    """
    if not spec.rest:
        raise StoreError(f"store {spec.text!r}: no file path; write e.g. sqlite:///data/hr.db")
    return SQLiteStore(Path(spec.rest), dimension=dimension)


class SQLiteStore:
    """The embedded store. Safe to share between threads (one connection behind a lock).

    `dimension` is the embedder's vector length; a store whose vectors have another
    length refuses to open. Without it the store takes the length of its stored vectors
    (or of the first version written) and checks every write against it.
    """

    def __init__(self, path: Path, *, dimension: int | None = None) -> None:
        self._db = SQLiteDatabase(path)
        self.path = self._db.path
        stored = stored_dimension(self._db)
        if dimension is not None and stored is not None and stored != dimension:
            self._db.close()
            raise StoreError(
                f"{self.path}: the store holds {stored}-dimensional vectors but the embedder "
                f"makes {dimension}-dimensional ones; use the embedding model the store was "
                "built with, or ingest into a new store"
            )
        self._dimension = dimension if dimension is not None else stored
        self._dense = DenseIndex(self._db)
        self._keyword = KeywordIndex(self._db)
        self._version_names = VersionNames(self._db)
        self._counts: StoreCounts | None = None
        self.feedback: FeedbackStore = SQLiteFeedbackStore(self._db)
        self.keys: KeyStore = SQLiteKeyStore(self._db)
        self.corpus_acl: CorpusAccessStore = SQLiteCorpusAccess(self._db)
        self.answer_cache: AnswerCache = SQLiteAnswerCache(self._db)
        self.answers: AnswerStore = SQLiteAnswerStore(self._db)

    @property
    def dimension(self) -> int | None:
        return self._dimension

    # -- writing -----------------------------------------------------------------

    @contextmanager
    def write(self) -> Iterator[SQLiteWriter]:
        with self._db.transaction() as db:
            writer = SQLiteWriter(db, self.path, self._dimension)
            yield writer
            if writer.changed:
                bump_generation(db)
        self._dimension = writer.dimension

    def add_version(self, version: NewVersion) -> Document:
        with self.write() as writer:
            return writer.add_version(version)

    def delete_document(self, document_id: str) -> int:
        with self._db.transaction() as db:
            count = db.execute(
                "UPDATE documents SET status = ? WHERE document_id = ? AND status != ?",
                (DocumentStatus.DELETED, document_id, DocumentStatus.DELETED),
            ).rowcount
            if count:
                bump_generation(db)
        if not count and self.latest_version(document_id) is None:
            raise NotFoundError(f"no document with id '{document_id}' in the store")
        return count

    def erase_document(self, document_id: str, *, erased_by: str) -> ErasureReport:
        return erase_document(self._db, document_id, erased_by)

    def tombstones(self) -> list[Tombstone]:
        return tombstones(self._db)

    def keep_tombstone(self, tombstone: Tombstone) -> bool:
        return keep_tombstone(self._db, tombstone)

    def mark_verified(self, document_id: str, when: datetime) -> Document:
        with self._db.transaction() as db:
            found = db.execute(
                "UPDATE documents SET last_verified = ? WHERE document_id = ? AND version = "
                "(SELECT MAX(version) FROM documents WHERE document_id = ? AND status = ?)",
                (when.isoformat(), document_id, document_id, DocumentStatus.ACTIVE),
            ).rowcount
            if found:
                bump_generation(db)
        if not found:
            raise NotFoundError(f"no active document with id '{document_id}' in the store")
        return cast(Document, self.latest_version(document_id))

    # -- reading documents ---------------------------------------------------------

    def find_version_by_hash(self, document_id: str, content_sha256: str) -> Document | None:
        where = "d.document_id = ? AND d.content_sha256 = ?"
        return self._latest(where, (document_id, content_sha256))

    def latest_version(self, document_id: str) -> Document | None:
        return self._latest("d.document_id = ?", (document_id,))

    def _latest(self, where: str, args: tuple[Any, ...]) -> Document | None:
        """The newest version `where` selects, without its extracted text."""
        row = self._db.query_one(
            f"SELECT {DOCUMENT_COLUMNS} FROM documents d WHERE {where} "
            "ORDER BY d.version DESC LIMIT 1",
            args,
        )
        return document_from_row(row) if row else None

    def list_documents(
        self, corpus: str | None = None, *, access_groups: tuple[str, ...] | None = None
    ) -> list[Document]:
        where, args = readable_sql(access_groups)
        if corpus is not None:
            where, args = f"{where} AND d.corpus = ?", (*args, corpus)
        rows = self._db.query(
            f"SELECT {DOCUMENT_COLUMNS} FROM documents d WHERE {where} "
            "ORDER BY d.document_id, d.version DESC",
            args,
        )
        return [document_from_row(r) for r in rows]

    def document_text(
        self,
        document_id: str,
        version: int | None = None,
        *,
        access_groups: tuple[str, ...] | None = None,
    ) -> DocumentText:
        where, args = readable_sql(access_groups)
        found: tuple[Any, ...]
        if version is None:
            which, found = "d.document_id = ? ORDER BY d.version DESC LIMIT 1", (document_id,)
        else:
            which, found = "d.document_id = ? AND d.version = ?", (document_id, version)
        row = self._db.query_one(
            f"SELECT * FROM documents d WHERE {where} AND {which}", (*args, *found)
        )
        if row is None:
            name = f"'{document_id}'" + (f" version {version}" if version else "")
            raise NotFoundError(f"no document {name} in the store")
        return DocumentText(document_from_row(row), row["extracted_text"], pages_from_row(row))

    def export_versions(self, corpus: str | None = None) -> Iterator[NewVersion]:
        where, args = ("WHERE corpus = ?", (corpus,)) if corpus is not None else ("", ())
        keys = self._db.query(
            f"SELECT document_id, version FROM documents {where} ORDER BY document_id, version",
            args,
        )
        for document_id, number in keys:
            text = self.document_text(document_id, number)
            chunks = self._chunks(
                "c.document_id = ? AND c.document_version = ? ORDER BY c.ordinal",
                (document_id, number),
            )
            blobs = self._db.query(
                "SELECT vector, sentence_vectors FROM chunks "
                "WHERE document_id = ? AND document_version = ? ORDER BY ordinal",
                (document_id, number),
            )
            vectors = np.array(
                [np.frombuffer(r[0], dtype=np.float32) for r in blobs], dtype=np.float32
            ).reshape(len(blobs), self._dimension or 0)
            sentences = [r[1] for r in blobs]
            yield NewVersion(
                text.document,
                text.text,
                text.pages,
                [chunk for _, chunk in chunks],
                vectors,
                sentence_vectors=sentences,
            )

    # -- reading chunks --------------------------------------------------------------

    def get_chunks(
        self, chunk_ids: list[str], *, access_groups: tuple[str, ...] | None = None
    ) -> list[SourceChunk]:
        if not chunk_ids:
            return []
        where, args = readable_sql(access_groups)
        marks = ",".join("?" * len(chunk_ids))
        found = self._chunks(f"{where} AND c.chunk_id IN ({marks})", (*args, *chunk_ids))
        by_id = {chunk.chunk_id: chunk for _, chunk in found}
        return [by_id[i] for i in chunk_ids if i in by_id]

    def neighbours(
        self,
        chunk_id: str,
        before: int = 1,
        after: int = 1,
        *,
        access_groups: tuple[str, ...] | None = None,
    ) -> list[SourceChunk]:
        where, args = readable_sql(access_groups)
        row = self._db.query_one(
            f"SELECT c.document_id, c.document_version, c.ordinal FROM {CHUNKS_WITH_DOCUMENTS} "
            f"WHERE {where} AND c.chunk_id = ?",
            (*args, chunk_id),
        )
        if row is None:
            raise NotFoundError(f"no chunk with id '{chunk_id}' in the store")
        found = self._chunks(
            "c.document_id = ? AND c.document_version = ? AND c.ordinal BETWEEN ? AND ? "
            "ORDER BY c.ordinal",
            (row[0], row[1], row[2] - before, row[2] + after),
        )
        return [chunk for _, chunk in found]

    # -- search ------------------------------------------------------------------------

    def dense_search(
        self, vector: npt.NDArray[np.float32], k: int, filters: SearchFilters
    ) -> list[ScoredChunk]:
        self._check_query(vector)
        return self._scored(self._dense.search(vector, k, filters))

    def keyword_search(self, query: str, k: int, filters: SearchFilters) -> list[ScoredChunk]:
        allowed = self._dense.eligible_rowids(filters)
        every = len(allowed) >= self._keyword.chunk_count()
        return self._scored(self._keyword.search(query, k, None if every else allowed))

    def similarities(
        self, vector: npt.NDArray[np.float32], chunk_ids: list[str]
    ) -> dict[str, float]:
        if not chunk_ids:
            return {}
        self._check_query(vector)
        marks = ",".join("?" * len(chunk_ids))
        rows = self._db.query(
            f"SELECT chunk_id, vector FROM chunks WHERE chunk_id IN ({marks})", tuple(chunk_ids)
        )
        return {r[0]: float(np.frombuffer(r[1], dtype=np.float32) @ vector) for r in rows}

    def sentence_vectors(self, chunk_ids: list[str]) -> dict[str, bytes]:
        if not chunk_ids:
            return {}
        marks = ",".join("?" * len(chunk_ids))
        rows = self._db.query(
            f"SELECT chunk_id, sentence_vectors FROM chunks WHERE chunk_id IN ({marks}) "
            "AND sentence_vectors IS NOT NULL",
            tuple(chunk_ids),
        )
        return {r[0]: bytes(r[1]) for r in rows}

    # -- bookkeeping -----------------------------------------------------------------------

    def corpus_version(self) -> str:
        return f"g{self._db.generation()}"

    def counts(self) -> StoreCounts:
        """Counted once per generation (every ask checks for an empty store; counting 1M
        chunks reads their whole index)."""
        with self._db.snapshot():
            version = self.corpus_version()
            if self._counts is None or self._counts.corpus_version != version:
                docs, versions = self._db.query_one(
                    "SELECT COUNT(DISTINCT document_id), COUNT(*) FROM documents WHERE status != ?",
                    (DocumentStatus.DELETED,),
                ) or (0, 0)
                chunks = self._db.query_one("SELECT COUNT(*) FROM chunks")
                count = int(chunks[0] if chunks else 0)
                self._counts = StoreCounts(int(docs), int(versions), count, version)
            return self._counts

    def close(self) -> None:
        self._dense.close()
        self._db.close()

    # -- internals ---------------------------------------------------------------------------

    def _check_query(self, vector: npt.NDArray[np.float32]) -> None:
        if self._dimension is not None and vector.shape[-1] != self._dimension:
            raise StoreError(
                f"{self.path}: a {vector.shape[-1]}-dimensional query vector, but the store "
                f"holds {self._dimension}-dimensional ones; embed with the store's model"
            )

    def _scored(self, hits: list[tuple[int, float]]) -> list[ScoredChunk]:
        if not hits:
            return []
        marks = ",".join("?" * len(hits))
        by_rowid = dict(self._chunks(f"c.rowid IN ({marks})", tuple(rowid for rowid, _ in hits)))
        return [ScoredChunk(by_rowid[i], s) for i, s in hits if i in by_rowid]

    def _chunks(self, where: str, args: tuple[Any, ...]) -> list[tuple[int, SourceChunk]]:
        """(rowid, chunk) of the chunks `where` selects, with their document's metadata (its
        version's name from `VersionNames`, read in the same snapshot)."""
        with self._db.snapshot():
            rows = self._db.query(
                f"SELECT {CHUNK_COLUMNS} FROM {CHUNKS_WITH_DOCUMENTS} WHERE {where}", args
            )
            keys = [(str(r["document_id"]), int(r["document_version"])) for r in rows]
            names = self._version_names.of(self._db.generation(), keys)
        return [
            (int(r["rowid"]), chunk_from_row(r, names.get(key)))
            for r, key in zip(rows, keys, strict=True)
        ]
