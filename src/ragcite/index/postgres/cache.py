"""Cached answers in the PostgreSQL store's database: its `AnswerCache`.

Rows sit in `ragcite_answer_cache` (`PostgresStore.answer_cache`); they expire after
their TTL, and each write drops the rows of other corpus versions, which no key can reach.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ragcite.index.cache import CachedAnswer
from ragcite.index.postgres.db import PostgresDatabase


class PostgresAnswerCache:
    """Answers in the `ragcite_answer_cache` table of a store database."""

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    def get(self, key: str) -> CachedAnswer | None:
        row = self._db.query_one(
            "SELECT response_json, created_at FROM ragcite_answer_cache "
            "WHERE key = %s AND expires_at > %s",
            (key, datetime.now(UTC)),
        )
        if row is None:
            return None
        return CachedAnswer(row["response_json"], row["created_at"].astimezone(UTC))

    def put(self, key: str, response_json: str, *, corpus_version: str, ttl_s: float) -> None:
        now = datetime.now(UTC)
        with self._db.transaction() as conn:
            conn.execute(
                "DELETE FROM ragcite_answer_cache WHERE expires_at <= %s OR corpus_version != %s",
                (now, corpus_version),
            )
            conn.execute(
                "INSERT INTO ragcite_answer_cache "
                "(key, corpus_version, created_at, expires_at, response_json) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (key) DO UPDATE SET "
                "corpus_version = EXCLUDED.corpus_version, created_at = EXCLUDED.created_at, "
                "expires_at = EXCLUDED.expires_at, response_json = EXCLUDED.response_json",
                (key, corpus_version, now, now + timedelta(seconds=ttl_s), response_json),
            )

    def clear(self) -> int:
        with self._db.transaction() as conn:
            return conn.execute("DELETE FROM ragcite_answer_cache").rowcount
