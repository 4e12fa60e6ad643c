"""Corpus access groups in the PostgreSQL store (table `ragcite_corpus_access`)."""

from __future__ import annotations

from ragcite.index.postgres.db import PostgresDatabase, bump_generation


class PostgresCorpusAccess:
    """The `CorpusAccessStore` of a store database."""

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    def corpus_access(self) -> dict[str, tuple[str, ...]]:
        rows = self._db.query(
            "SELECT corpus, groups FROM ragcite_corpus_access "
            "WHERE cardinality(groups) > 0 ORDER BY corpus"
        )
        return {r["corpus"]: tuple(r["groups"]) for r in rows}

    def set_corpus_access(self, corpus: str, groups: tuple[str, ...]) -> None:
        with self._db.transaction() as conn:
            if groups:
                conn.execute(
                    "INSERT INTO ragcite_corpus_access (corpus, groups, updated_at) "
                    "VALUES (%s, %s, now()) ON CONFLICT (corpus) DO UPDATE "
                    "SET groups = excluded.groups, updated_at = excluded.updated_at",
                    (corpus, sorted(set(groups))),
                )
            else:
                conn.execute("DELETE FROM ragcite_corpus_access WHERE corpus = %s", (corpus,))
            bump_generation(conn)
