"""Rows of the embedded store: documents and chunks in and out of their SQLite tables.

A version is a `documents` row (with its extracted text and page map), one `chunks`
row per chunk (with its vector as a float32 blob) and one contentless FTS5 row per
chunk, keyed by the chunk's rowid.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import date, datetime

import numpy as np

from ragcite.index.store import NewVersion
from ragcite.ingest.types import PageSpan
from ragcite.models import Document, SourceChunk

CHUNK_COLUMNS = """
    c.rowid, c.chunk_id, c.document_id, c.document_version, c.page_number, c.section_heading,
    c.chunk_text, c.char_start, c.char_end, d.title, d.url, d.effective_date, d.status, d.corpus
"""
"""A chunk's columns and its document's, but for `version_name`: stored after the
document's extracted text, it is read apart (sqlite_version_names.py)."""
DOCUMENT_COLUMNS = """
    d.document_id, d.version, d.corpus, d.title, d.url, d.source_uri, d.content_sha256,
    d.effective_date, d.ingested_at, d.last_verified, d.status, d.superseded_by, d.access,
    d.version_name
"""
"""What `document_from_row` reads of a `documents d` row: not the extracted text (about
480 KB a document in bench/scale.py's 1M-chunk store, read and decoded for nothing)."""
CHUNKS_WITH_DOCUMENTS = (
    "chunks c JOIN documents d ON d.document_id = c.document_id AND d.version = c.document_version"
)


def insert_version(db: sqlite3.Connection, version: NewVersion) -> None:
    """Write the version's document row, chunks, vectors and keyword rows as given."""
    insert_document(db, version)
    title = version.document.title
    vectors = np.asarray(version.vectors, dtype=np.float32)
    sentences = version.sentence_vectors or [None] * len(version.chunks)
    for ordinal, (chunk, vector, blob) in enumerate(
        zip(version.chunks, vectors, sentences, strict=True)
    ):
        cursor = db.execute(
            "INSERT INTO chunks (chunk_id, document_id, document_version, ordinal, "
            "page_number, section_heading, chunk_text, char_start, char_end, vector, "
            "sentence_vectors) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                chunk.chunk_id,
                version.document.document_id,
                version.document.version,
                ordinal,
                chunk.page_number,
                chunk.section_heading,
                chunk.chunk_text,
                chunk.char_start,
                chunk.char_end,
                vector.tobytes(),
                blob,
            ),
        )
        db.execute(
            "INSERT INTO chunks_fts (rowid, chunk_text, section_heading, title) VALUES (?,?,?,?)",
            (cursor.lastrowid, chunk.chunk_text, chunk.section_heading or "", title),
        )


def insert_document(db: sqlite3.Connection, version: NewVersion) -> None:
    doc = version.document
    db.execute(
        "INSERT INTO documents (document_id, version, corpus, title, url, source_uri, "
        "content_sha256, effective_date, ingested_at, last_verified, status, "
        "superseded_by, access, extracted_text, pages, version_name) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            doc.document_id,
            doc.version,
            doc.corpus,
            doc.title,
            doc.url,
            doc.source_uri,
            doc.content_sha256,
            _iso(doc.effective_date),
            _iso(doc.ingested_at),
            _iso(doc.last_verified),
            doc.status,
            doc.superseded_by,
            json.dumps(list(doc.access)),
            version.text,
            json.dumps([[p.page_number, p.char_start, p.char_end] for p in version.pages]),
            doc.version_name,
        ),
    )


def delete_version(db: sqlite3.Connection, document_id: str, version: int) -> bool:
    """Remove a version's rows (document, chunks, keyword rows); False when it is absent."""
    title_row = db.execute(
        "SELECT title FROM documents WHERE document_id = ? AND version = ?",
        (document_id, version),
    ).fetchone()
    if title_row is None:
        return False
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
    return True


def document_from_row(row: sqlite3.Row) -> Document:
    return Document(
        document_id=row["document_id"],
        corpus=row["corpus"],
        title=row["title"],
        url=row["url"],
        source_uri=row["source_uri"],
        version=row["version"],
        version_name=row["version_name"],
        content_sha256=row["content_sha256"],
        effective_date=row["effective_date"],
        ingested_at=row["ingested_at"],
        last_verified=row["last_verified"],
        status=row["status"],
        superseded_by=row["superseded_by"],
        access=tuple(json.loads(row["access"])),
    )


def pages_from_row(row: sqlite3.Row) -> tuple[PageSpan, ...]:
    return tuple(PageSpan(p, s, e) for p, s, e in json.loads(row["pages"]))


def chunk_from_row(row: sqlite3.Row, version_name: str | None) -> SourceChunk:
    """A chunk row joined with its document's columns (CHUNK_COLUMNS), and the name of
    its document's version."""
    return SourceChunk(
        chunk_id=row["chunk_id"],
        document_id=row["document_id"],
        document_version=row["document_version"],
        document_version_name=version_name,
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


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value is not None else None
