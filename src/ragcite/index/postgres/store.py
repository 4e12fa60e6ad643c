"""The PostgreSQL store: ragcite on a database server with pgvector, for teams.

The database is the source of truth and the index: documents, versions, chunks, their
pgvector embeddings (HNSW, cosine) and `tsvector`s (GIN) live in `ragcite_*` tables,
each version written in one transaction. Searches run in the server with every filter
inside the query (search.py). Feedback, API keys and saved answers live in the same
database (`store.feedback`, `store.keys`, `store.answers`); erasing is erase.py.
The server needs the pgvector extension (0.8 for iterative index scans); ragcite
creates its tables and indexes itself, by named migrations (schema.py).

    >>> store = PostgresStore("postgresql://rag@db.internal/kb", dimension=384)
    >>> store.counts().chunks
    0
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ragcite.errors import NotFoundError, StoreError
from ragcite.index.answers import AnswerStore, ErasureReport, Tombstone
from ragcite.index.cache import AnswerCache
from ragcite.index.corpus_access import CorpusAccessStore
from ragcite.index.feedback import FeedbackStore
from ragcite.index.keys import KeyStore
from ragcite.index.postgres import erase, search
from ragcite.index.postgres.answers import PostgresAnswerStore
from ragcite.index.postgres.cache import PostgresAnswerCache
from ragcite.index.postgres.corpus_access import PostgresCorpusAccess
from ragcite.index.postgres.db import PostgresDatabase, bump_generation
from ragcite.index.postgres.feedback import PostgresFeedbackStore
from ragcite.index.postgres.filters import readable_sql
from ragcite.index.postgres.keys import PostgresKeyStore
from ragcite.index.postgres.rows import (
    CHUNK_COLUMNS,
    CHUNKS_WITH_DOCUMENTS,
    Row,
    chunk_from_row,
    document_from_row,
    pages_from_row,
)
from ragcite.index.postgres.writer import PostgresWriter
from ragcite.index.store import DocumentText, NewVersion, ScoredChunk, SearchFilters, StoreCounts
from ragcite.models import Document, DocumentStatus, SourceChunk


class PostgresStore:
    """The server store. Safe to share between threads (a pool of connections).

    `dimension` is the embedder's vector length: it sizes the vector column of a new
    store, and a store whose column has another length refuses to open.
    """

    def __init__(self, url: str, *, dimension: int | None = None) -> None:
        self._db = PostgresDatabase(url, dimension)
        self.where = self._db.where
        stored = self._db.stored_dimension
        if dimension is not None and stored is not None and stored != dimension:
            self._db.close()
            raise StoreError(
                f"{self.where}: the store holds {stored}-dimensional vectors but the embedder "
                f"makes {dimension}-dimensional ones; use the embedding model the store was "
                "built with, or ingest into a new database"
            )
        self._dimension = stored if stored is not None else dimension
        self.feedback: FeedbackStore = PostgresFeedbackStore(self._db)
        self.keys: KeyStore = PostgresKeyStore(self._db)
        self.corpus_acl: CorpusAccessStore = PostgresCorpusAccess(self._db)
        self.answer_cache: AnswerCache = PostgresAnswerCache(self._db)
        self.answers: AnswerStore = PostgresAnswerStore(self._db)

    @property
    def dimension(self) -> int | None:
        return self._dimension

    # -- writing -----------------------------------------------------------------

    @contextmanager
    def write(self) -> Iterator[PostgresWriter]:
        with self._db.transaction() as conn:
            writer = PostgresWriter(conn, self.where, self._dimension)
            yield writer
            if writer.changed:
                bump_generation(conn)

    def add_version(self, version: NewVersion) -> Document:
        with self.write() as writer:
            return writer.add_version(version)

    def delete_document(self, document_id: str) -> int:
        with self._db.transaction() as conn:
            count = conn.execute(
                "UPDATE ragcite_documents SET status = %s WHERE document_id = %s AND status != %s",
                (str(DocumentStatus.DELETED), document_id, str(DocumentStatus.DELETED)),
            ).rowcount
            if count:
                bump_generation(conn)
        if not count and self.latest_version(document_id) is None:
            raise NotFoundError(f"no document with id '{document_id}' in the store")
        return count

    def erase_document(self, document_id: str, *, erased_by: str) -> ErasureReport:
        return erase.erase_document(self._db, document_id, erased_by)

    def tombstones(self) -> list[Tombstone]:
        return erase.tombstones(self._db)

    def keep_tombstone(self, tombstone: Tombstone) -> bool:
        return erase.keep_tombstone(self._db, tombstone)

    def mark_verified(self, document_id: str, when: datetime) -> Document:
        with self._db.transaction() as conn:
            found = conn.execute(
                "UPDATE ragcite_documents SET last_verified = %s WHERE document_id = %s AND "
                "version = (SELECT MAX(version) FROM ragcite_documents WHERE document_id = %s "
                "AND status = %s)",
                (when, document_id, document_id, str(DocumentStatus.ACTIVE)),
            ).rowcount
            if found:
                bump_generation(conn)
        if not found:
            raise NotFoundError(f"no active document with id '{document_id}' in the store")
        return cast(Document, self.latest_version(document_id))

    # -- reading documents ---------------------------------------------------------

    def find_version_by_hash(self, document_id: str, content_sha256: str) -> Document | None:
        row = self._db.query_one(
            "SELECT * FROM ragcite_documents WHERE document_id = %s AND content_sha256 = %s "
            "ORDER BY version DESC LIMIT 1",
            (document_id, content_sha256),
        )
        return document_from_row(row) if row else None

    def latest_version(self, document_id: str) -> Document | None:
        row = self._db.query_one(
            "SELECT * FROM ragcite_documents WHERE document_id = %s ORDER BY version DESC LIMIT 1",
            (document_id,),
        )
        return document_from_row(row) if row else None

    def list_documents(
        self, corpus: str | None = None, *, access_groups: tuple[str, ...] | None = None
    ) -> list[Document]:
        where, args = readable_sql(access_groups)
        if corpus is not None:
            where, args = f"{where} AND d.corpus = %s", [*args, corpus]
        rows = self._db.query(
            "SELECT d.document_id, d.version, d.corpus, d.title, d.url, d.source_uri, "
            "d.content_sha256, d.effective_date, d.ingested_at, d.last_verified, d.status, "
            f"d.superseded_by, d.access, d.version_name FROM ragcite_documents d WHERE {where} "
            'ORDER BY d.document_id COLLATE "C", d.version DESC',
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
        found: list[Any]
        if version is None:
            which, found = "d.document_id = %s ORDER BY d.version DESC LIMIT 1", [document_id]
        else:
            which, found = "d.document_id = %s AND d.version = %s", [document_id, version]
        row = self._db.query_one(
            f"SELECT * FROM ragcite_documents d WHERE {where} AND {which}", [*args, *found]
        )
        if row is None:
            name = f"'{document_id}'" + (f" version {version}" if version else "")
            raise NotFoundError(f"no document {name} in the store")
        return DocumentText(document_from_row(row), row["extracted_text"], pages_from_row(row))

    def export_versions(self, corpus: str | None = None) -> Iterator[NewVersion]:
        where, args = ("WHERE corpus = %s", (corpus,)) if corpus is not None else ("", ())
        keys = self._db.query(
            "SELECT document_id, version FROM ragcite_documents "
            f'{where} ORDER BY document_id COLLATE "C", version',
            args,
        )
        for key in keys:
            document_id, number = key["document_id"], key["version"]
            text = self.document_text(document_id, number)
            rows = self._db.query(
                f"SELECT {CHUNK_COLUMNS}, c.embedding, c.sentence_vectors "
                f"FROM {CHUNKS_WITH_DOCUMENTS} "
                "WHERE c.document_id = %s AND c.document_version = %s ORDER BY c.ordinal",
                (document_id, number),
            )
            vectors = np.array([_vector(r["embedding"]) for r in rows], dtype=np.float32).reshape(
                len(rows), self._dimension or 0
            )
            chunks = [chunk_from_row(r) for r in rows]
            sentences = [_blob(r["sentence_vectors"]) for r in rows]
            yield NewVersion(
                text.document, text.text, text.pages, chunks, vectors, sentence_vectors=sentences
            )

    # -- reading chunks --------------------------------------------------------------

    def get_chunks(
        self, chunk_ids: list[str], *, access_groups: tuple[str, ...] | None = None
    ) -> list[SourceChunk]:
        if not chunk_ids:
            return []
        where, args = readable_sql(access_groups)
        rows = self._chunk_rows(f"{where} AND c.chunk_id = ANY(%s::text[])", [*args, chunk_ids])
        by_id = {r["chunk_id"]: chunk_from_row(r) for r in rows}
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
            f"WHERE {where} AND c.chunk_id = %s",
            [*args, chunk_id],
        )
        if row is None:
            raise NotFoundError(f"no chunk with id '{chunk_id}' in the store")
        rows = self._chunk_rows(
            "c.document_id = %s AND c.document_version = %s AND c.ordinal BETWEEN %s AND %s "
            "ORDER BY c.ordinal",
            [
                row["document_id"],
                row["document_version"],
                row["ordinal"] - before,
                row["ordinal"] + after,
            ],
        )
        return [chunk_from_row(r) for r in rows]

    # -- search ------------------------------------------------------------------------

    def dense_search(
        self, vector: npt.NDArray[np.float32], k: int, filters: SearchFilters
    ) -> list[ScoredChunk]:
        self._check_query(vector)
        with self._db.connection() as conn:
            return search.dense_search(
                conn, _as_query(vector), k, filters, iterative=self._db.iterative_scans
            )

    def keyword_search(self, query: str, k: int, filters: SearchFilters) -> list[ScoredChunk]:
        with self._db.connection() as conn:
            return search.keyword_search(conn, query, k, filters)

    def similarities(
        self, vector: npt.NDArray[np.float32], chunk_ids: list[str]
    ) -> dict[str, float]:
        if not chunk_ids:
            return {}
        self._check_query(vector)
        rows = self._db.query(
            "SELECT chunk_id, 1 - (embedding <=> %s) AS score FROM ragcite_chunks "
            "WHERE chunk_id = ANY(%s::text[])",
            (_as_query(vector), chunk_ids),
        )
        return {r["chunk_id"]: float(r["score"]) for r in rows}

    def sentence_vectors(self, chunk_ids: list[str]) -> dict[str, bytes]:
        if not chunk_ids:
            return {}
        rows = self._db.query(
            "SELECT chunk_id, sentence_vectors FROM ragcite_chunks "
            "WHERE chunk_id = ANY(%s::text[]) AND sentence_vectors IS NOT NULL",
            (chunk_ids,),
        )
        return {r["chunk_id"]: bytes(r["sentence_vectors"]) for r in rows}

    # -- bookkeeping -----------------------------------------------------------------------

    def corpus_version(self) -> str:
        return f"g{self._db.generation()}"

    def counts(self) -> StoreCounts:
        row = self._db.query_one(
            "SELECT (SELECT COUNT(DISTINCT document_id) FROM ragcite_documents "
            "WHERE status != %s) AS documents, "
            "(SELECT COUNT(*) FROM ragcite_documents WHERE status != %s) AS versions, "
            "(SELECT COUNT(*) FROM ragcite_chunks) AS chunks, "
            "(SELECT value FROM ragcite_meta WHERE key = 'generation') AS generation",
            (str(DocumentStatus.DELETED), str(DocumentStatus.DELETED)),
        )
        if row is None:
            raise StoreError(f"{self.where}: the store's counts could not be read")
        return StoreCounts(
            int(row["documents"]), int(row["versions"]), int(row["chunks"]), f"g{row['generation']}"
        )

    def close(self) -> None:
        self._db.close()

    # -- internals ---------------------------------------------------------------------------

    def _check_query(self, vector: npt.NDArray[np.float32]) -> None:
        if self._dimension is not None and vector.shape[-1] != self._dimension:
            raise StoreError(
                f"{self.where}: a {vector.shape[-1]}-dimensional query vector, but the store "
                f"holds {self._dimension}-dimensional ones; embed with the store's model"
            )

    def _chunk_rows(self, where: str, args: list[Any]) -> list[Row]:
        """Chunk rows with their document's metadata, `where` applied."""
        return self._db.query(
            f"SELECT {CHUNK_COLUMNS} FROM {CHUNKS_WITH_DOCUMENTS} WHERE {where}", args
        )


def _as_query(vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A one-dimensional float32 query vector, as pgvector's adapter expects."""
    return np.ascontiguousarray(vector, dtype=np.float32).reshape(-1)


def _vector(value: Any) -> npt.NDArray[np.float32]:
    """A stored embedding (pgvector's `Vector`, or an array) as float32, bit for bit."""
    as_numpy = getattr(value, "to_numpy", None)
    return np.asarray(as_numpy() if as_numpy else value, dtype=np.float32)


def _blob(value: bytes | memoryview | None) -> bytes | None:
    return bytes(value) if value is not None else None
