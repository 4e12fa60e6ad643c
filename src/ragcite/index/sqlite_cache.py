"""Cached answers in the embedded store's file: the SQLite `AnswerCache`.

It shares the store's connection (`SQLiteStore.answer_cache`); rows expire after their
TTL, and each write drops the rows of other corpus versions, which no key can reach.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from ragcite.index.cache import CachedAnswer
from ragcite.index.sqlite_db import SQLiteDatabase


class SQLiteAnswerCache:
    """Answers in the `answer_cache` table of a store file."""

    def __init__(self, db: SQLiteDatabase) -> None:
        self._db = db

    def get(self, key: str) -> CachedAnswer | None:
        row = self._db.query_one(
            "SELECT response_json, created_at FROM answer_cache WHERE key = ? AND expires_at > ?",
            (key, time.time()),
        )
        if row is None:
            return None
        return CachedAnswer(row[0], datetime.fromtimestamp(row[1], UTC))

    def put(self, key: str, response_json: str, *, corpus_version: str, ttl_s: float) -> None:
        now = time.time()
        with self._db.transaction() as db:
            db.execute(
                "DELETE FROM answer_cache WHERE expires_at <= ? OR corpus_version != ?",
                (now, corpus_version),
            )
            db.execute(
                "INSERT OR REPLACE INTO answer_cache "
                "(key, corpus_version, created_at, expires_at, response_json) VALUES (?,?,?,?,?)",
                (key, corpus_version, now, now + ttl_s, response_json),
            )

    def clear(self) -> int:
        with self._db.transaction() as db:
            return db.execute("DELETE FROM answer_cache").rowcount
