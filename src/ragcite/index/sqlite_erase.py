"""Erasing a document from the embedded store, in one transaction (`SQLiteStore.erase_document`).

Every version goes with its chunks, vectors and keyword rows (the contentless FTS5 rows
are deleted by restating their values, then the index is optimised so no segment keeps
the words); the answer cache is emptied (the corpus version moves, so none of it could
be served again); saved answers' quotes and claims of the document are redacted, and
feedback about its chunks loses its quoted text. `secure_delete` zeroes the freed pages
and a WAL checkpoint empties the log, so the text is gone from the file itself.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from ragcite.errors import NotFoundError
from ragcite.index.answers import ErasureReport, Tombstone, redact_response, timestamp
from ragcite.index.sqlite_db import SQLiteDatabase, bump_generation
from ragcite.index.sqlite_rows import delete_version


def erase_document(db: SQLiteDatabase, document_id: str, erased_by: str) -> ErasureReport:
    """Erase `document_id` (see the module docstring); NotFoundError when it is not stored."""
    with db.transaction() as conn:
        conn.execute("PRAGMA secure_delete = ON")
        versions = conn.execute(
            "SELECT version, title FROM documents WHERE document_id = ? ORDER BY version",
            (document_id,),
        ).fetchall()
        if not versions:
            raise NotFoundError(
                f"no document with id '{document_id}' in the store; `ragcite documents` "
                "lists the stored ones"
            )
        chunk_ids = [
            r[0]
            for r in conn.execute(
                "SELECT chunk_id FROM chunks WHERE document_id = ?", (document_id,)
            )
        ]
        for number, _ in versions:
            delete_version(conn, document_id, number)
        conn.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')")
        cached = conn.execute("DELETE FROM answer_cache").rowcount
        saved = _redact_saved_answers(conn, document_id)
        _redact_feedback(conn, document_id, chunk_ids)
        tombstone = Tombstone(document_id, versions[-1][1], datetime.now(UTC), erased_by)
        conn.execute(
            "INSERT OR REPLACE INTO tombstones (document_id, title, erased_at, erased_by) "
            "VALUES (?,?,?,?)",
            (document_id, tombstone.title, tombstone.erased_at.isoformat(), erased_by),
        )
        bump_generation(conn)
        conn.execute("PRAGMA secure_delete = OFF")
    db.checkpoint()
    return ErasureReport(tombstone, len(versions), len(chunk_ids), cached, saved)


def tombstones(db: SQLiteDatabase) -> list[Tombstone]:
    rows = db.query("SELECT * FROM tombstones ORDER BY erased_at DESC, document_id")
    return [
        Tombstone(r["document_id"], r["title"], timestamp(r["erased_at"]), r["erased_by"])
        for r in rows
    ]


def keep_tombstone(db: SQLiteDatabase, tombstone: Tombstone) -> bool:
    with db.transaction() as conn:
        return (
            conn.execute(
                "INSERT OR IGNORE INTO tombstones (document_id, title, erased_at, erased_by) "
                "VALUES (?,?,?,?)",
                (
                    tombstone.document_id,
                    tombstone.title,
                    tombstone.erased_at.astimezone(UTC).isoformat(),
                    tombstone.erased_by,
                ),
            ).rowcount
            == 1
        )


def _redact_saved_answers(conn: sqlite3.Connection, document_id: str) -> int:
    rows = conn.execute(
        "SELECT answer_id, response_json FROM saved_answers WHERE answer_id IN "
        "(SELECT answer_id FROM saved_answer_sources WHERE document_id = ?)",
        (document_id,),
    ).fetchall()
    for answer_id, response_json in rows:
        conn.execute(
            "UPDATE saved_answers SET response_json = ? WHERE answer_id = ?",
            (redact_response(response_json, document_id), answer_id),
        )
    conn.execute("UPDATE saved_answer_sources SET erased = 1 WHERE document_id = ?", (document_id,))
    return len(rows)


def _redact_feedback(conn: sqlite3.Connection, document_id: str, chunk_ids: list[str]) -> None:
    """Feedback about the document's chunks (or carrying a response that shows it) keeps
    its rating and comment but not the claim or response it quoted."""
    marks = ",".join("?" * len(chunk_ids)) or "NULL"
    conn.execute(
        "UPDATE feedback SET claim_text = NULL, response_json = NULL "
        f"WHERE chunk_id IN ({marks}) OR instr(response_json, ?) > 0",
        (*chunk_ids, document_id),
    )
