"""Rows of the PostgreSQL store: documents and chunks in and out of their tables.

A version is a `ragcite_documents` row (with its extracted text and page map) and one
`ragcite_chunks` row per chunk, holding its pgvector embedding and its `tsvector`: the
chunk text weighted A, the section heading B and the document title C (FTS5's column
weights 1.0, 0.5 and 0.3 become ts_rank's weights for A, B and C; see `search`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from ragcite.index.postgres.schema import TEXT_SEARCH_CONFIG
from ragcite.index.store import NewVersion
from ragcite.ingest.types import PageSpan
from ragcite.models import Document, SourceChunk

CHUNK_COLUMNS = """
    c.id, c.chunk_id, c.document_id, c.document_version, c.page_number, c.section_heading,
    c.chunk_text, c.char_start, c.char_end, d.title, d.url, d.effective_date, d.status, d.corpus,
    d.version_name
"""
CHUNKS_WITH_DOCUMENTS = (
    "ragcite_chunks c JOIN ragcite_documents d "
    "ON d.document_id = c.document_id AND d.version = c.document_version"
)

_INSERT_CHUNK = sql.SQL(
    "INSERT INTO ragcite_chunks (chunk_id, document_id, document_version, ordinal, "
    "page_number, section_heading, chunk_text, char_start, char_end, embedding, "
    "sentence_vectors, search) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s, "
    "setweight(to_tsvector({config}, %s), 'A') || "
    "setweight(to_tsvector({config}, %s), 'B') || "
    "setweight(to_tsvector({config}, %s), 'C'))"
).format(config=sql.Literal(TEXT_SEARCH_CONFIG))

Row = dict[str, Any]


def insert_version(conn: psycopg.Connection[Any], version: NewVersion) -> None:
    """Write the version's document row and its chunks, vectors and search vectors as given."""
    insert_document(conn, version)
    doc = version.document
    vectors = np.asarray(version.vectors, dtype=np.float32)
    sentences = version.sentence_vectors or [None] * len(version.chunks)
    rows = [
        (
            chunk.chunk_id,
            doc.document_id,
            doc.version,
            ordinal,
            chunk.page_number,
            chunk.section_heading,
            chunk.chunk_text,
            chunk.char_start,
            chunk.char_end,
            vector,
            blob,
            chunk.chunk_text,
            chunk.section_heading or "",
            doc.title,
        )
        for ordinal, (chunk, vector, blob) in enumerate(
            zip(version.chunks, vectors, sentences, strict=True)
        )
    ]
    with conn.cursor() as cursor:
        cursor.executemany(_INSERT_CHUNK, rows)


def insert_document(conn: psycopg.Connection[Any], version: NewVersion) -> None:
    doc = version.document
    conn.execute(
        "INSERT INTO ragcite_documents (document_id, version, corpus, title, url, source_uri, "
        "content_sha256, effective_date, ingested_at, last_verified, status, "
        "superseded_by, access, extracted_text, pages, version_name) "
        "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
        (
            doc.document_id,
            doc.version,
            doc.corpus,
            doc.title,
            doc.url,
            doc.source_uri,
            doc.content_sha256,
            doc.effective_date,
            doc.ingested_at,
            doc.last_verified,
            str(doc.status),
            doc.superseded_by,
            list(doc.access),
            version.text,
            Jsonb([[p.page_number, p.char_start, p.char_end] for p in version.pages]),
            doc.version_name,
        ),
    )


def delete_version(conn: psycopg.Connection[Any], document_id: str, version: int) -> bool:
    """Remove a version with its chunks (ON DELETE CASCADE); False when it is absent."""
    cursor = conn.execute(
        "DELETE FROM ragcite_documents WHERE document_id = %s AND version = %s",
        (document_id, version),
    )
    return cursor.rowcount > 0


def document_from_row(row: Row) -> Document:
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
        access=tuple(row["access"]),
    )


def pages_from_row(row: Row) -> tuple[PageSpan, ...]:
    return tuple(PageSpan(p, s, e) for p, s, e in row["pages"])


def chunk_from_row(row: Row) -> SourceChunk:
    """A chunk row joined with its document's columns (CHUNK_COLUMNS)."""
    return SourceChunk(
        chunk_id=row["chunk_id"],
        document_id=row["document_id"],
        document_version=row["document_version"],
        document_version_name=row["version_name"],
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
