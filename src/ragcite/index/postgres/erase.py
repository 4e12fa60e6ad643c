"""Erasing a document from the PostgreSQL store, in one transaction
(`PostgresStore.erase_document`).

Every version goes with its chunks, embeddings and tsvectors (ON DELETE CASCADE); the
answer cache is emptied (the corpus version moves, so none of it could be served
again); saved answers' quotes and claims of the document are redacted, and feedback
about its chunks loses its quoted text. The document's advisory lock (writer.py) keeps
an ingest of the same document out while it runs. Dead tuples are left to autovacuum.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import psycopg

from ragcite.errors import NotFoundError
from ragcite.index.answers import ErasureReport, Tombstone, redact_response, timestamp
from ragcite.index.postgres.db import PostgresDatabase, bump_generation
from ragcite.index.postgres.writer import DOCUMENT_LOCK_SPACE


def erase_document(db: PostgresDatabase, document_id: str, erased_by: str) -> ErasureReport:
    """Erase `document_id` (see the module docstring); NotFoundError when it is not stored."""
    with db.transaction() as conn:
        conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
            (DOCUMENT_LOCK_SPACE + document_id,),
        )
        versions = conn.execute(
            "SELECT version, title FROM ragcite_documents WHERE document_id = %s ORDER BY version",
            (document_id,),
        ).fetchall()
        if not versions:
            raise NotFoundError(
                f"no document with id '{document_id}' in the store; `ragcite documents` "
                "lists the stored ones"
            )
        chunk_ids = [
            r["chunk_id"]
            for r in conn.execute(
                "SELECT chunk_id FROM ragcite_chunks WHERE document_id = %s", (document_id,)
            ).fetchall()
        ]
        conn.execute("DELETE FROM ragcite_documents WHERE document_id = %s", (document_id,))
        cached = conn.execute("DELETE FROM ragcite_answer_cache").rowcount
        saved = _redact_saved_answers(conn, document_id)
        conn.execute(
            "UPDATE ragcite_feedback SET claim_text = NULL, response_json = NULL "
            "WHERE chunk_id = ANY(%s::text[]) OR strpos(response_json, %s) > 0",
            (chunk_ids, document_id),
        )
        tombstone = Tombstone(document_id, versions[-1]["title"], datetime.now(UTC), erased_by)
        conn.execute(
            "INSERT INTO ragcite_tombstones (document_id, title, erased_at, erased_by) "
            "VALUES (%s,%s,%s,%s) ON CONFLICT (document_id) DO UPDATE SET "
            "title = EXCLUDED.title, erased_at = EXCLUDED.erased_at, "
            "erased_by = EXCLUDED.erased_by",
            (document_id, tombstone.title, tombstone.erased_at, erased_by),
        )
        bump_generation(conn)
    return ErasureReport(tombstone, len(versions), len(chunk_ids), cached, saved)


def tombstones(db: PostgresDatabase) -> list[Tombstone]:
    rows = db.query(
        'SELECT * FROM ragcite_tombstones ORDER BY erased_at DESC, document_id COLLATE "C"'
    )
    return [
        Tombstone(
            r["document_id"], r["title"], timestamp(r["erased_at"]).astimezone(UTC), r["erased_by"]
        )
        for r in rows
    ]


def keep_tombstone(db: PostgresDatabase, tombstone: Tombstone) -> bool:
    with db.transaction() as conn:
        added = conn.execute(
            "INSERT INTO ragcite_tombstones (document_id, title, erased_at, erased_by) "
            "VALUES (%s,%s,%s,%s) ON CONFLICT (document_id) DO NOTHING",
            (tombstone.document_id, tombstone.title, tombstone.erased_at, tombstone.erased_by),
        ).rowcount
    return added == 1


def _redact_saved_answers(conn: psycopg.Connection[Any], document_id: str) -> int:
    rows = conn.execute(
        "SELECT answer_id, response_json FROM ragcite_saved_answers WHERE answer_id IN "
        "(SELECT answer_id FROM ragcite_saved_answer_sources WHERE document_id = %s)",
        (document_id,),
    ).fetchall()
    for row in rows:
        conn.execute(
            "UPDATE ragcite_saved_answers SET response_json = %s WHERE answer_id = %s",
            (redact_response(row["response_json"], document_id), row["answer_id"]),
        )
    conn.execute(
        "UPDATE ragcite_saved_answer_sources SET erased = TRUE WHERE document_id = %s",
        (document_id,),
    )
    return len(rows)
