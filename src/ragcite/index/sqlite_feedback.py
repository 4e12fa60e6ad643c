"""Feedback in the embedded store's file: the SQLite `FeedbackStore`.

It shares the store's connection (`SQLiteStore.feedback`), so feedback sits next to
the documents it judges and needs no second file.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from ragcite.index.feedback import FeedbackRecord
from ragcite.index.sqlite_db import SQLiteDatabase


class SQLiteFeedbackStore:
    """Feedback rows in the `feedback` table of a store file."""

    def __init__(self, db: SQLiteDatabase) -> None:
        self._db = db

    def add_feedback(
        self,
        query: str,
        rating: str,
        *,
        chunk_id: str | None = None,
        claim_text: str | None = None,
        comment: str | None = None,
        response_json: str | None = None,
        created_at: datetime | None = None,
        key_name: str | None = None,
    ) -> FeedbackRecord:
        record = FeedbackRecord(
            0,
            created_at or datetime.now(UTC),
            query,
            rating,
            chunk_id,
            claim_text,
            comment,
            response_json,
            key_name,
        )
        with self._db.transaction() as db:
            cursor = db.execute(
                "INSERT INTO feedback (created_at, query, rating, chunk_id, claim_text, comment, "
                "response_json, key_name) VALUES (?,?,?,?,?,?,?,?)",
                (
                    record.created_at.isoformat(),
                    query,
                    rating,
                    chunk_id,
                    claim_text,
                    comment,
                    response_json,
                    key_name,
                ),
            )
        return replace(record, id=int(cursor.lastrowid or 0))

    def list_feedback(self, limit: int | None = 100) -> list[FeedbackRecord]:
        rows = self._db.query(
            "SELECT * FROM feedback ORDER BY id DESC LIMIT ?", (-1 if limit is None else limit,)
        )
        return [FeedbackRecord.from_row(r) for r in rows]
