"""Saved answers in the PostgreSQL store's database: its `AnswerStore`.

Rows sit in `ragcite_saved_answers` and `ragcite_saved_answer_sources`
(`PostgresStore.answers`). Whether a reader may read a saved answer is decided in the
query: every document version it shows must be readable (filters.readable_sql).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ragcite.errors import NotFoundError
from ragcite.index.answers import SavedAnswer, timestamp
from ragcite.index.postgres.db import PostgresDatabase
from ragcite.index.postgres.filters import readable_sql
from ragcite.index.postgres.rows import Row


class PostgresAnswerStore:
    """Answers in the saved-answer tables of a store database."""

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    def save_answer(self, answer: SavedAnswer) -> None:
        groups = None if answer.groups is None else list(answer.groups)
        with self._db.transaction() as conn:
            conn.execute(
                "DELETE FROM ragcite_saved_answers WHERE answer_id = %s", (answer.answer_id,)
            )
            conn.execute(
                "INSERT INTO ragcite_saved_answers (answer_id, created_at, query, "
                "response_json, chunk_ids, key_name, groups) VALUES (%s,%s,%s,%s,%s,%s,%s)",
                (
                    answer.answer_id,
                    answer.created_at,
                    answer.query,
                    answer.response_json,
                    list(answer.chunk_ids),
                    answer.key_name,
                    groups,
                ),
            )
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO ragcite_saved_answer_sources "
                    "(answer_id, document_id, version, erased) VALUES (%s,%s,%s,%s)",
                    [
                        (answer.answer_id, d, v, d in answer.erased_documents)
                        for d, v in answer.sources
                    ],
                )

    def get_answer(
        self, answer_id: str, *, access_groups: tuple[str, ...] | None = None
    ) -> SavedAnswer:
        found = self._answers("a.answer_id = %s", [answer_id], access_groups)
        if not found:
            raise NotFoundError(
                f"no saved answer with id '{answer_id}'; answers are saved by the API and by "
                "`ragcite ask --save`, and kept for lifecycle.answer_retention_days"
            )
        return found[0]

    def list_answers(
        self,
        *,
        document_ids: tuple[str, ...] | None = None,
        access_groups: tuple[str, ...] | None = None,
    ) -> list[SavedAnswer]:
        if document_ids is None:
            return self._answers("TRUE", [], access_groups)
        where = (
            "EXISTS (SELECT 1 FROM ragcite_saved_answer_sources t WHERE "
            "t.answer_id = a.answer_id AND t.document_id = ANY(%s::text[]))"
        )
        return self._answers(where, [list(document_ids)], access_groups)

    def prune_answers(self, before: datetime) -> int:
        with self._db.transaction() as conn:
            return conn.execute(
                "DELETE FROM ragcite_saved_answers WHERE created_at < %s", (before,)
            ).rowcount

    def _answers(
        self, where: str, args: list[Any], access_groups: tuple[str, ...] | None
    ) -> list[SavedAnswer]:
        if access_groups is not None:
            readable, more = readable_sql(access_groups)
            where += (
                " AND NOT EXISTS (SELECT 1 FROM ragcite_saved_answer_sources s WHERE "
                "s.answer_id = a.answer_id AND NOT EXISTS (SELECT 1 FROM ragcite_documents d "
                f"WHERE d.document_id = s.document_id AND d.version = s.version AND {readable}))"
            )
            args = [*args, *more]
        rows = self._db.query(
            f"SELECT * FROM ragcite_saved_answers a WHERE {where} "
            'ORDER BY a.created_at, a.answer_id COLLATE "C"',
            args,
        )
        ids = [r["answer_id"] for r in rows]
        sources: dict[str, list[Row]] = {}
        for source in self._db.query(
            "SELECT * FROM ragcite_saved_answer_sources WHERE answer_id = ANY(%s::text[]) "
            "ORDER BY answer_id, ctid",
            (ids,),
        ):
            sources.setdefault(source["answer_id"], []).append(source)
        return [_answer(r, sources.get(r["answer_id"], [])) for r in rows]


def _answer(row: Row, sources: list[Row]) -> SavedAnswer:
    groups = row["groups"]
    return SavedAnswer(
        answer_id=row["answer_id"],
        created_at=timestamp(row["created_at"]).astimezone(UTC),
        query=row["query"],
        response_json=row["response_json"],
        chunk_ids=tuple(row["chunk_ids"]),
        sources=tuple((s["document_id"], int(s["version"])) for s in sources),
        key_name=row["key_name"],
        groups=None if groups is None else tuple(groups),
        erased_documents=tuple(dict.fromkeys(s["document_id"] for s in sources if s["erased"])),
    )
