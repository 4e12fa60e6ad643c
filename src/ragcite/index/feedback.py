"""Feedback on answers: its own small store protocol, apart from the document `Store`.

The embedded store keeps feedback in the same SQLite file (`SQLiteStore.feedback`);
a server store offers its own. `feedback_store` finds the one kept next to a store.

    >>> record = feedback_store(store).add_feedback("How long do we keep PII?", "up")
    >>> feedback_store(store).list_feedback()[0].rating
    'up'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from ragcite.errors import StoreError


class _Row(Protocol):
    """A database row read by column name (sqlite3.Row, a psycopg dict row)."""

    def __getitem__(self, key: str) -> Any: ...


@dataclass(frozen=True)
class FeedbackRecord:
    """A person's judgement of an answer, a claim or a citation, as stored."""

    id: int
    created_at: datetime
    query: str
    rating: str
    chunk_id: str | None = None
    claim_text: str | None = None
    comment: str | None = None
    response_json: str | None = None
    # Who gave it: the API key's name, "cli", or None when it was given before names were kept.
    key_name: str | None = None

    @classmethod
    def from_row(cls, row: _Row) -> FeedbackRecord:
        """A stored row (either store's columns; `created_at` as ISO text or a datetime)."""
        created = row["created_at"]
        return cls(
            int(row["id"]),
            created if isinstance(created, datetime) else datetime.fromisoformat(created),
            row["query"],
            row["rating"],
            row["chunk_id"],
            row["claim_text"],
            row["comment"],
            row["response_json"],
            row["key_name"],
        )


@runtime_checkable
class FeedbackStore(Protocol):
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
        """Persist one piece of feedback and return it with its id; `created_at` (now when
        None) is kept as given, so a copied record keeps its time (`ragcite migrate`);
        `key_name` is who gave it (the API key's name, or "cli")."""
        ...

    def list_feedback(self, limit: int | None = 100) -> list[FeedbackRecord]:
        """Stored feedback, newest first; every record when `limit` is None."""
        ...


def feedback_store(store: object) -> FeedbackStore:
    """The feedback store kept next to `store` (its `feedback` attribute)."""
    found = getattr(store, "feedback", None)
    if isinstance(found, FeedbackStore):
        return found
    raise StoreError(
        f"the {type(store).__name__} store keeps no feedback; use a store that does "
        "(the embedded SQLite store keeps it in its file)"
    )
