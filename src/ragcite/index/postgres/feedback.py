"""Feedback in the PostgreSQL store's database: its `FeedbackStore`.

Feedback rows sit in `ragcite_feedback`, next to the documents they judge, reached
through the store's connection pool (`PostgresStore.feedback`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from ragcite.errors import StoreError
from ragcite.index.feedback import FeedbackRecord
from ragcite.index.postgres.db import PostgresDatabase


class PostgresFeedbackStore:
    """Feedback rows in the `ragcite_feedback` table of a store database."""

    def __init__(self, db: PostgresDatabase) -> None:
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
        created_at = created_at or datetime.now(UTC)
        with self._db.transaction() as conn:
            row = conn.execute(
                "INSERT INTO ragcite_feedback (created_at, query, rating, chunk_id, claim_text, "
                "comment, response_json, key_name) VALUES (%s,%s,%s,%s,%s,%s,%s,%s) RETURNING *",
                (created_at, query, rating, chunk_id, claim_text, comment, response_json, key_name),
            ).fetchone()
        if row is None:  # INSERT … RETURNING always gives one row
            raise StoreError(f"{self._db.where}: the feedback was not stored")
        return FeedbackRecord.from_row(row)

    def list_feedback(self, limit: int | None = 100) -> list[FeedbackRecord]:
        rows = self._db.query("SELECT * FROM ragcite_feedback ORDER BY id DESC LIMIT %s", (limit,))
        return [FeedbackRecord.from_row(r) for r in rows]
