"""Saved answers and erased documents: the small protocols kept next to a store.

Every answer the API gives (and `ragcite ask --save`) is saved with the chunks and the
document versions it shows, so it can be read back (`GET /answers/{id}`) and re-checked
against the store later (`ragcite recheck`). A reader gets a saved answer back only when
they may read every document version it shows, decided inside the store query, and an
unreadable answer is answered exactly like a missing one.

Erasing a document (`ErasingStore.erase_document`) removes its text, chunks, vectors,
keyword rows and cached answers in one transaction, redacts what saved answers quote of
it (`redact_response`), and leaves a `Tombstone`.

    >>> answers_store(store).save_answer(saved_answer_of(response, key_name="cli"))
    >>> answers_store(store).get_answer(response.answer_id, access_groups=None).query
    'How long do we keep customer PII?'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

from ragcite.errors import StoreError
from ragcite.models import CitedResponse, utc_now

ERASED_TEXT = "[erased]"
"""What replaces an erased document's text in a saved answer."""


@dataclass(frozen=True)
class SavedAnswer:
    """An answer as saved: its response JSON, the chunks and (document, version) pairs it
    shows, and who asked (a key's name and groups; groups None for an admin or the CLI)."""

    answer_id: str
    created_at: datetime
    query: str
    response_json: str
    chunk_ids: tuple[str, ...]
    sources: tuple[tuple[str, int], ...]
    key_name: str = "cli"
    groups: tuple[str, ...] | None = None
    erased_documents: tuple[str, ...] = ()

    @property
    def response(self) -> CitedResponse:
        return CitedResponse.model_validate_json(self.response_json)


@dataclass(frozen=True)
class Tombstone:
    """What remains of an erased document: its ID and title, when and by whom."""

    document_id: str
    title: str
    erased_at: datetime
    erased_by: str


@dataclass(frozen=True)
class ErasureReport:
    """What one erasure removed."""

    tombstone: Tombstone
    versions: int
    chunks: int
    cached_answers: int
    saved_answers: int


def saved_answer_of(
    response: CitedResponse,
    *,
    key_name: str = "cli",
    groups: tuple[str, ...] | None = None,
    created_at: datetime | None = None,
) -> SavedAnswer:
    """`response` ready to save: the chunks and document versions it shows.

    >>> saved_answer_of(response, key_name="hr-bot", groups=("hr",)).sources
    (('data-retention-policy', 2),)
    """
    if not response.answer_id:
        raise StoreError("the answer has no answer_id to be saved under; ask it again")
    chunks = list(response.source_chunks)
    return SavedAnswer(
        answer_id=response.answer_id,
        created_at=created_at or utc_now(),
        query=response.query,
        response_json=response.model_dump_json(),
        chunk_ids=tuple(dict.fromkeys(c.chunk_id for c in chunks)),
        sources=tuple(dict.fromkeys((c.document_id, c.document_version) for c in chunks)),
        key_name=key_name,
        groups=groups,
    )


def redact_response(response_json: str, document_id: str) -> str:
    """A saved response with everything of `document_id` replaced by `[erased]`: the text
    of its chunks, the quotes of them, and the claims citing them (in the answer text too).

    >>> json.loads(redact_response(saved, "old-policy"))["cited_claims"][0]["claim_text"]
    '[erased]'
    """
    data: dict[str, Any] = json.loads(response_json)
    chunks = data.get("source_chunks", [])
    erased = {c["chunk_id"]: c for c in chunks if c["document_id"] == document_id}
    for chunk in erased.values():
        chunk["chunk_text"] = ERASED_TEXT
        chunk["section_heading"] = None
    answer_text: str = data.get("answer_text", "")
    for claim in data.get("cited_claims", []):
        if not set(erased).intersection(claim.get("source_chunk_ids", [])):
            continue
        if claim["claim_text"]:
            answer_text = answer_text.replace(claim["claim_text"], ERASED_TEXT)
        claim["claim_text"] = ERASED_TEXT
        for citation in claim.get("citations", []):
            citation["quote"] = ""
            citation["quote_start"] = citation["quote_end"] = None
            if citation["chunk_id"] in erased:  # its display names the section
                citation["display"] = erased[citation["chunk_id"]]["document_title"]
    data["answer_text"] = answer_text
    return json.dumps(data, ensure_ascii=False)


def timestamp(value: datetime | str) -> datetime:
    """A stored time (ISO text or a datetime) as an aware UTC datetime."""
    when = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


@runtime_checkable
class AnswerStore(Protocol):
    def save_answer(self, answer: SavedAnswer) -> None:
        """Keep `answer` (saving the same answer_id again replaces it)."""
        ...

    def get_answer(
        self, answer_id: str, *, access_groups: tuple[str, ...] | None = None
    ) -> SavedAnswer:
        """The saved answer, when the reader may read every document version it shows;
        NotFoundError, the same for missing and unreadable, otherwise."""
        ...

    def list_answers(
        self,
        *,
        document_ids: tuple[str, ...] | None = None,
        access_groups: tuple[str, ...] | None = None,
    ) -> list[SavedAnswer]:
        """Saved answers the reader may read, oldest first; only those showing one of
        `document_ids` when given."""
        ...

    def prune_answers(self, before: datetime) -> int:
        """Remove the answers saved before `before`; how many."""
        ...


@runtime_checkable
class ErasingStore(Protocol):
    def erase_document(self, document_id: str, *, erased_by: str) -> ErasureReport:
        """Remove every version of the document with its text, chunks, vectors, keyword
        rows and cached answers, redact saved answers' quotes of it, and leave a tombstone,
        in one transaction (the corpus version moves). NotFoundError for a document the
        store does not hold."""
        ...

    def tombstones(self) -> list[Tombstone]:
        """Every erased document's tombstone, most recently erased first."""
        ...

    def keep_tombstone(self, tombstone: Tombstone) -> bool:
        """Record a tombstone made elsewhere (`ragcite migrate`), keeping its time; False
        (and nothing changes) when the store already holds one for that document."""
        ...


def answers_store(store: object) -> AnswerStore:
    """The saved-answer store kept next to `store` (its `answers` attribute)."""
    found = getattr(store, "answers", None)
    if isinstance(found, AnswerStore):
        return found
    raise StoreError(
        f"the {type(store).__name__} store keeps no saved answers; use a store that does "
        "(the embedded SQLite store and the PostgreSQL store do)"
    )


def erasing_store(store: object) -> ErasingStore:
    """`store` as a store that can erase documents."""
    if isinstance(store, ErasingStore):
        return store
    raise StoreError(
        f"the {type(store).__name__} store cannot erase documents; use the SQLite or "
        "PostgreSQL store"
    )
