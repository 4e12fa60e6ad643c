"""Corpus access groups in the embedded store's file (table `corpus_access`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from ragcite.index.sqlite_db import SQLiteDatabase, bump_generation


class SQLiteCorpusAccess:
    """The `CorpusAccessStore` of a store file."""

    def __init__(self, db: SQLiteDatabase) -> None:
        self._db = db

    def corpus_access(self) -> dict[str, tuple[str, ...]]:
        rows = self._db.query("SELECT corpus, groups FROM corpus_access ORDER BY corpus")
        return {r[0]: tuple(json.loads(r[1])) for r in rows if json.loads(r[1])}

    def set_corpus_access(self, corpus: str, groups: tuple[str, ...]) -> None:
        with self._db.transaction() as db:
            if groups:
                db.execute(
                    "INSERT INTO corpus_access (corpus, groups, updated_at) VALUES (?,?,?) "
                    "ON CONFLICT (corpus) DO UPDATE SET groups = excluded.groups, "
                    "updated_at = excluded.updated_at",
                    (corpus, json.dumps(sorted(set(groups))), datetime.now(UTC).isoformat()),
                )
            else:
                db.execute("DELETE FROM corpus_access WHERE corpus = ?", (corpus,))
            bump_generation(db)
