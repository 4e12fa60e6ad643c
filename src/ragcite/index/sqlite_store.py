"""The embedded store: one SQLite file per collection, zero setup.

SQLite is the source of truth: documents, versions, chunks, vectors (float32
blobs) and an FTS5 keyword index, each version written in one transaction, so a
crash never leaves half a document. Dense search runs on a faiss index derived
from the rows (see vector_index.py), rebuilt when the store's generation moves.

    >>> store = SQLiteStore(Path("/tmp/demo.db"))
    >>> store.counts().chunks
    0
"""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ragcite.errors import NotFoundError, StoreError
from ragcite.index.migrations import migrate
from ragcite.index.store import (
    DocumentText,
    FeedbackRecord,
    NewVersion,
    ScoredChunk,
    SearchFilters,
    StoreCounts,
)
from ragcite.index.vector_index import VectorIndex
from ragcite.ingest.types import PageSpan
from ragcite.models import Document, DocumentStatus, SourceChunk
from ragcite.text.words import STOPWORDS, WORD

_CHUNK_COLUMNS = """
    c.rowid, c.chunk_id, c.document_id, c.document_version, c.page_number, c.section_heading,
    c.chunk_text, c.char_start, c.char_end, d.title, d.url, d.effective_date, d.status, d.corpus
"""
_WORD = WORD  # the one tokenizer's plain words: runs of letters and digits, as FTS5 cuts


class SQLiteStore:
    """The embedded store. Safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: Path, *, dimension: int = 384) -> None:
        self.path = Path(path).expanduser()
        self.dimension = dimension
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=30
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            migrate(self._db)
        except OSError as exc:
            raise StoreError(
                f"{self.path}: cannot create the store ({exc.strerror}); choose a writable "
                "path with --store or RAGCITE_STORE"
            ) from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path}: cannot open the store ({exc}); is it a ragcite store file?"
            ) from None
        self._lock = threading.RLock()
        self._index: VectorIndex | None = None
        self._index_generation = -1
        self._eligible_cache: dict[tuple[Any, ...], npt.NDArray[np.int64]] = {}

    # -- writing -----------------------------------------------------------------

    def add_version(self, version: NewVersion) -> Document:
        doc = version.document
        if len(version.chunks) != len(version.vectors):
            raise StoreError(
                f"{doc.source_uri}: {len(version.chunks)} chunks but {len(version.vectors)} vectors"
            )
        with self._lock, self._transaction() as db:
            rows = db.execute(
                "SELECT version, status FROM documents WHERE document_id = ? ORDER BY version",
                (doc.document_id,),
            ).fetchall()
            existing = {int(v) for v, _ in rows}
            if doc.version in existing:  # same version number, new content: replace it
                self._delete_version_rows(db, doc.document_id, doc.version)
                existing.discard(doc.version)
            newest_other = max(existing, default=0)
            status = doc.status
            superseded_by = None
            if status is DocumentStatus.ACTIVE and newest_other > doc.version:
                status, superseded_by = DocumentStatus.SUPERSEDED, newest_other
            stored = doc.model_copy(update={"status": status, "superseded_by": superseded_by})
            if status is DocumentStatus.ACTIVE:
                db.execute(
                    "UPDATE documents SET status = ?, superseded_by = ? "
                    "WHERE document_id = ? AND status = ?",
                    (
                        DocumentStatus.SUPERSEDED,
                        doc.version,
                        doc.document_id,
                        DocumentStatus.ACTIVE,
                    ),
                )
            db.execute(
                "INSERT INTO documents (document_id, version, corpus, title, url, source_uri, "
                "content_sha256, effective_date, ingested_at, last_verified, status, "
                "superseded_by, access, extracted_text, pages) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    stored.document_id,
                    stored.version,
                    stored.corpus,
                    stored.title,
                    stored.url,
                    stored.source_uri,
                    stored.content_sha256,
                    _iso(stored.effective_date),
                    _iso(stored.ingested_at),
                    _iso(stored.last_verified),
                    stored.status,
                    stored.superseded_by,
                    json.dumps(list(stored.access)),
                    version.text,
                    json.dumps([[p.page_number, p.char_start, p.char_end] for p in version.pages]),
                ),
            )
            vectors = np.asarray(version.vectors, dtype=np.float32)
            for ordinal, (chunk, vector) in enumerate(zip(version.chunks, vectors, strict=True)):
                cursor = db.execute(
                    "INSERT INTO chunks (chunk_id, document_id, document_version, ordinal, "
                    "page_number, section_heading, chunk_text, char_start, char_end, vector) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
                        chunk.chunk_id,
                        stored.document_id,
                        stored.version,
                        ordinal,
                        chunk.page_number,
                        chunk.section_heading,
                        chunk.chunk_text,
                        chunk.char_start,
                        chunk.char_end,
                        vector.tobytes(),
                    ),
                )
                db.execute(
                    "INSERT INTO chunks_fts (rowid, chunk_text, section_heading, title) "
                    "VALUES (?,?,?,?)",
                    (cursor.lastrowid, chunk.chunk_text, chunk.section_heading or "", stored.title),
                )
            self._bump_generation(db)
        return stored

    def delete_document(self, document_id: str) -> int:
        with self._lock, self._transaction() as db:
            count = db.execute(
                "UPDATE documents SET status = ? WHERE document_id = ? AND status != ?",
                (DocumentStatus.DELETED, document_id, DocumentStatus.DELETED),
            ).rowcount
            if count:
                self._bump_generation(db)
        if not count and self.latest_version(document_id) is None:
            raise NotFoundError(f"no document with id '{document_id}' in {self.path}")
        return count

    # -- reading documents ---------------------------------------------------------

    def find_version_by_hash(self, document_id: str, content_sha256: str) -> Document | None:
        row = self._query_one(
            "SELECT * FROM documents WHERE document_id = ? AND content_sha256 = ? "
            "ORDER BY version DESC LIMIT 1",
            (document_id, content_sha256),
        )
        return _document(row) if row else None

    def latest_version(self, document_id: str) -> Document | None:
        row = self._query_one(
            "SELECT * FROM documents WHERE document_id = ? ORDER BY version DESC LIMIT 1",
            (document_id,),
        )
        return _document(row) if row else None

    def list_documents(self, corpus: str | None = None) -> list[Document]:
        sql = "SELECT * FROM documents"
        args: tuple[Any, ...] = ()
        if corpus is not None:
            sql, args = sql + " WHERE corpus = ?", (corpus,)
        return [
            _document(r) for r in self._query(sql + " ORDER BY document_id, version DESC", args)
        ]

    def document_text(self, document_id: str, version: int | None = None) -> DocumentText:
        if version is None:
            row = self._query_one(
                "SELECT * FROM documents WHERE document_id = ? ORDER BY version DESC LIMIT 1",
                (document_id,),
            )
        else:
            row = self._query_one(
                "SELECT * FROM documents WHERE document_id = ? AND version = ?",
                (document_id, version),
            )
        if row is None:
            which = f"'{document_id}'" + (f" version {version}" if version else "")
            raise NotFoundError(f"no document {which} in the store")
        pages = tuple(PageSpan(p, s, e) for p, s, e in json.loads(row["pages"]))
        return DocumentText(_document(row), row["extracted_text"], pages)

    # -- reading chunks --------------------------------------------------------------

    def get_chunks(self, chunk_ids: list[str]) -> list[SourceChunk]:
        if not chunk_ids:
            return []
        marks = ",".join("?" * len(chunk_ids))
        rows = self._chunk_rows(f"c.chunk_id IN ({marks})", tuple(chunk_ids))
        by_id = {r["chunk_id"]: _chunk(r) for r in rows}
        return [by_id[i] for i in chunk_ids if i in by_id]

    def neighbours(self, chunk_id: str, before: int = 1, after: int = 1) -> list[SourceChunk]:
        row = self._query_one(
            "SELECT document_id, document_version, ordinal FROM chunks WHERE chunk_id = ?",
            (chunk_id,),
        )
        if row is None:
            raise NotFoundError(f"no chunk with id '{chunk_id}' in the store")
        rows = self._chunk_rows(
            "c.document_id = ? AND c.document_version = ? AND c.ordinal BETWEEN ? AND ? "
            "ORDER BY c.ordinal",
            (row[0], row[1], row[2] - before, row[2] + after),
        )
        return [_chunk(r) for r in rows]

    # -- search ------------------------------------------------------------------------

    def dense_search(
        self, vector: npt.NDArray[np.float32], k: int, filters: SearchFilters
    ) -> list[ScoredChunk]:
        with self._lock:
            index = self._vector_index()
            allowed = self._eligible_rowids(filters)
        hits = index.search(vector, k, allowed)
        return self._scored(hits)

    def keyword_search(self, query: str, k: int, filters: SearchFilters) -> list[ScoredChunk]:
        match = _fts_query(query)
        if not match:
            return []
        where, args = _filter_sql(filters)
        rows = self._query(
            "SELECT f.rowid, -bm25(chunks_fts, 1.0, 0.5, 0.3) AS score FROM chunks_fts f "
            "JOIN chunks c ON c.rowid = f.rowid JOIN documents d "
            "ON d.document_id = c.document_id AND d.version = c.document_version "
            f"WHERE chunks_fts MATCH ? AND {where} ORDER BY score DESC LIMIT ?",
            (match, *args, k),
        )
        return self._scored([(int(r[0]), float(r[1])) for r in rows])

    def similarities(
        self, vector: npt.NDArray[np.float32], chunk_ids: list[str]
    ) -> dict[str, float]:
        if not chunk_ids:
            return {}
        marks = ",".join("?" * len(chunk_ids))
        rows = self._query(
            f"SELECT chunk_id, vector FROM chunks WHERE chunk_id IN ({marks})", tuple(chunk_ids)
        )
        return {r[0]: float(np.frombuffer(r[1], dtype=np.float32) @ vector) for r in rows}

    # -- bookkeeping -----------------------------------------------------------------------

    def corpus_version(self) -> str:
        return f"g{self._generation()}"

    def counts(self) -> StoreCounts:
        docs, versions = self._query_one(
            "SELECT COUNT(DISTINCT document_id), COUNT(*) FROM documents WHERE status != ?",
            (DocumentStatus.DELETED,),
        ) or (0, 0)
        chunks = self._query_one("SELECT COUNT(*) FROM chunks")
        return StoreCounts(
            int(docs), int(versions), int(chunks[0] if chunks else 0), self.corpus_version()
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- internals ---------------------------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self.path)

    def _bump_generation(self, db: sqlite3.Connection) -> None:
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")

    def _generation(self) -> int:
        row = self._query_one("SELECT value FROM meta WHERE key = 'generation'")
        return int(row[0]) if row else 0

    def _delete_version_rows(self, db: sqlite3.Connection, document_id: str, version: int) -> None:
        title_row = db.execute(
            "SELECT title FROM documents WHERE document_id = ? AND version = ?",
            (document_id, version),
        ).fetchone()
        for rowid, text, heading in db.execute(
            "SELECT rowid, chunk_text, section_heading FROM chunks "
            "WHERE document_id = ? AND document_version = ?",
            (document_id, version),
        ).fetchall():
            # A contentless FTS5 row is deleted by restating the values it was indexed with.
            db.execute(
                "INSERT INTO chunks_fts (chunks_fts, rowid, chunk_text, section_heading, title) "
                "VALUES ('delete', ?, ?, ?, ?)",
                (rowid, text, heading or "", title_row[0]),
            )
        db.execute(
            "DELETE FROM chunks WHERE document_id = ? AND document_version = ?",
            (document_id, version),
        )
        db.execute(
            "DELETE FROM documents WHERE document_id = ? AND version = ?", (document_id, version)
        )

    def _vector_index(self) -> VectorIndex:
        generation = self._generation()
        if self._index is None or generation != self._index_generation:
            rows = self._query("SELECT rowid, vector FROM chunks")
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
            self._index = VectorIndex(
                self.dimension, ids, vectors.reshape(len(rows), self.dimension)
            )
            self._index_generation = generation
            self._eligible_cache.clear()
        return self._index

    def _eligible_rowids(self, filters: SearchFilters) -> npt.NDArray[np.int64] | None:
        key = (filters, self._index_generation)
        if key not in self._eligible_cache:
            where, args = _filter_sql(filters)
            rows = self._query(
                "SELECT c.rowid FROM chunks c JOIN documents d "
                "ON d.document_id = c.document_id AND d.version = c.document_version "
                f"WHERE {where}",
                args,
            )
            self._eligible_cache[key] = np.array([r[0] for r in rows], dtype=np.int64)
        return self._eligible_cache[key]

    def _scored(self, hits: list[tuple[int, float]]) -> list[ScoredChunk]:
        if not hits:
            return []
        marks = ",".join("?" * len(hits))
        rows = self._chunk_rows(f"c.rowid IN ({marks})", tuple(rowid for rowid, _ in hits))
        by_rowid = {r["rowid"]: _chunk(r) for r in rows}
        return [ScoredChunk(by_rowid[i], s) for i, s in hits if i in by_rowid]

    def _chunk_rows(self, where: str, args: tuple[Any, ...]) -> list[sqlite3.Row]:
        """Chunk rows with their document's metadata, `where` applied."""
        return self._query(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN documents d "
            "ON d.document_id = c.document_id AND d.version = c.document_version "
            f"WHERE {where}",
            args,
        )

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                cursor = self._db.execute(sql, args)
                cursor.row_factory = sqlite3.Row
                return cursor.fetchall()
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path}: store read failed ({exc})") from None

    def _query_one(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        rows = self._query(sql, args)
        return rows[0] if rows else None

    # -- feedback ------------------------------------------------------------------------------

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
        created_at = datetime.now(UTC)
        with self._lock, self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO feedback (created_at, query, rating, chunk_id, claim_text, comment, "
                "response_json) VALUES (?,?,?,?,?,?,?)",
                (
                    created_at.isoformat(),
                    query,
                    rating,
                    chunk_id,
                    claim_text,
                    comment,
                    response_json,
                ),
            )
        return FeedbackRecord(
            int(cursor.lastrowid or 0),
            created_at,
            query,
            rating,
            chunk_id,
            claim_text,
            comment,
            response_json,
        )

    def list_feedback(self, limit: int = 100) -> list[FeedbackRecord]:
        rows = self._query("SELECT * FROM feedback ORDER BY id DESC LIMIT ?", (limit,))
        return [
            FeedbackRecord(
                r["id"],
                datetime.fromisoformat(r["created_at"]),
                r["query"],
                r["rating"],
                r["chunk_id"],
                r["claim_text"],
                r["comment"],
                r["response_json"],
            )
            for r in rows
        ]


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error: all of a write or none of it."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db = db
        self._path = path

    def __enter__(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> None:
        if kind is None:
            self._db.execute("COMMIT")
            return
        self._db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.DatabaseError):
            raise StoreError(
                f"{self._path}: store write failed ({exc}); nothing was changed"
            ) from None


def _filter_sql(filters: SearchFilters) -> tuple[str, tuple[Any, ...]]:
    clauses: list[str] = []
    args: list[Any] = []
    if filters.statuses:
        clauses.append(f"d.status IN ({','.join('?' * len(filters.statuses))})")
        args += [str(s) for s in filters.statuses]
    if filters.corpora is not None:
        clauses.append(f"d.corpus IN ({','.join('?' * len(filters.corpora))})")
        args += list(filters.corpora)
    if filters.document_ids is not None:
        clauses.append(f"d.document_id IN ({','.join('?' * len(filters.document_ids))})")
        args += list(filters.document_ids)
    if filters.access_groups is not None:
        groups = ",".join("?" * len(filters.access_groups)) or "NULL"
        clauses.append(
            "(d.access = '[]' OR EXISTS "
            f"(SELECT 1 FROM json_each(d.access) WHERE value IN ({groups})))"
        )
        args += list(filters.access_groups)
    return (" AND ".join(clauses) or "1"), tuple(args)


def _fts_query(text: str) -> str:
    """A safe FTS5 query: the question's words, quoted, OR-ed (BM25 ranks by how many match)."""
    words = [w.lower() for w in _WORD.findall(text)]
    kept = list(dict.fromkeys(w for w in words if w not in STOPWORDS)) or list(dict.fromkeys(words))
    return " OR ".join(f'"{w}"' for w in kept)


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _document(row: sqlite3.Row) -> Document:
    return Document(
        document_id=row["document_id"],
        corpus=row["corpus"],
        title=row["title"],
        url=row["url"],
        source_uri=row["source_uri"],
        version=row["version"],
        content_sha256=row["content_sha256"],
        effective_date=row["effective_date"],
        ingested_at=row["ingested_at"],
        last_verified=row["last_verified"],
        status=row["status"],
        superseded_by=row["superseded_by"],
        access=tuple(json.loads(row["access"])),
    )


def _chunk(row: sqlite3.Row) -> SourceChunk:
    return SourceChunk(
        chunk_id=row["chunk_id"],
        document_id=row["document_id"],
        document_version=row["document_version"],
        document_title=row["title"],
        document_url=row["url"],
        document_date=row["effective_date"],
        document_status=row["status"],
        corpus=row["corpus"],
        page_number=row["page_number"],
        section_heading=row["section_heading"],
        chunk_text=row["chunk_text"],
        char_start=row["char_start"],
        char_end=row["char_end"],
    )
