"""Saved answers in the embedded store's file: the SQLite `AnswerStore`.

It shares the store's connection (`SQLiteStore.answers`). Whether a reader may read a
saved answer is decided in the query: every document version it shows must be readable
(sqlite_filters.readable_sql), so an erased, deleted or restricted source hides it.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

from ragcite.errors import NotFoundError
from ragcite.index.answers import SavedAnswer, timestamp
from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.sqlite_filters import readable_sql

BATCH = 500
"""Answers whose sources are read in one query."""


class SQLiteAnswerStore:
    """Answers in the `saved_answers` and `saved_answer_sources` tables of a store file."""

    def __init__(self, db: SQLiteDatabase) -> None:
        self._db = db

    def save_answer(self, answer: SavedAnswer) -> None:
        groups = None if answer.groups is None else json.dumps(list(answer.groups))
        with self._db.transaction() as db:
            db.execute("DELETE FROM saved_answers WHERE answer_id = ?", (answer.answer_id,))
            db.execute(
                "INSERT INTO saved_answers (answer_id, created_at, query, response_json, "
                "chunk_ids, key_name, groups) VALUES (?,?,?,?,?,?,?)",
                (
                    answer.answer_id,
                    answer.created_at.astimezone(UTC).isoformat(),
                    answer.query,
                    answer.response_json,
                    json.dumps(list(answer.chunk_ids)),
                    answer.key_name,
                    groups,
                ),
            )
            db.executemany(
                "INSERT INTO saved_answer_sources (answer_id, document_id, version, erased) "
                "VALUES (?,?,?,?)",
                [
                    (answer.answer_id, d, v, int(d in answer.erased_documents))
                    for d, v in answer.sources
                ],
            )

    def get_answer(
        self, answer_id: str, *, access_groups: tuple[str, ...] | None = None
    ) -> SavedAnswer:
        found = self._answers("a.answer_id = ?", (answer_id,), access_groups)
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
            return self._answers("1", (), access_groups)
        marks = ",".join("?" * len(document_ids)) or "NULL"
        where = (
            "EXISTS (SELECT 1 FROM saved_answer_sources t WHERE t.answer_id = a.answer_id "
            f"AND t.document_id IN ({marks}))"
        )
        return self._answers(where, tuple(document_ids), access_groups)

    def prune_answers(self, before: datetime) -> int:
        with self._db.transaction() as db:
            return db.execute(
                "DELETE FROM saved_answers WHERE created_at < ?",
                (before.astimezone(UTC).isoformat(),),
            ).rowcount

    def _answers(
        self, where: str, args: tuple[Any, ...], access_groups: tuple[str, ...] | None
    ) -> list[SavedAnswer]:
        if access_groups is not None:
            readable, more = readable_sql(access_groups)
            where += (
                " AND NOT EXISTS (SELECT 1 FROM saved_answer_sources s WHERE "
                "s.answer_id = a.answer_id AND NOT EXISTS (SELECT 1 FROM documents d WHERE "
                f"d.document_id = s.document_id AND d.version = s.version AND {readable}))"
            )
            args = (*args, *more)
        rows = self._db.query(
            f"SELECT * FROM saved_answers a WHERE {where} ORDER BY a.created_at, a.answer_id",
            args,
        )
        sources = self._sources([r["answer_id"] for r in rows])
        return [_answer(r, sources.get(r["answer_id"], [])) for r in rows]

    def _sources(self, answer_ids: list[str]) -> dict[str, list[sqlite3.Row]]:
        found: dict[str, list[sqlite3.Row]] = {}
        for start in range(0, len(answer_ids), BATCH):
            batch = answer_ids[start : start + BATCH]
            for row in self._db.query(
                "SELECT * FROM saved_answer_sources WHERE answer_id IN "
                f"({','.join('?' * len(batch))}) ORDER BY rowid",
                tuple(batch),
            ):
                found.setdefault(row["answer_id"], []).append(row)
        return found


def _answer(row: sqlite3.Row, sources: list[sqlite3.Row]) -> SavedAnswer:
    groups = row["groups"]
    return SavedAnswer(
        answer_id=row["answer_id"],
        created_at=timestamp(row["created_at"]),
        query=row["query"],
        response_json=row["response_json"],
        chunk_ids=tuple(json.loads(row["chunk_ids"])),
        sources=tuple((s["document_id"], int(s["version"])) for s in sources),
        key_name=row["key_name"],
        groups=None if groups is None else tuple(json.loads(groups)),
        erased_documents=tuple(dict.fromkeys(s["document_id"] for s in sources if s["erased"])),
    )
