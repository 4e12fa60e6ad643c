"""Conformance: saved answers (read back only by readers of all their sources), erasure
with its tombstone, and feedback's key name. Run against every Store implementation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ragcite.errors import NotFoundError
from ragcite.index.answers import (
    ERASED_TEXT,
    Tombstone,
    answers_store,
    erasing_store,
    saved_answer_of,
)
from ragcite.index.feedback import FeedbackStore
from ragcite.index.indexer import store_version
from ragcite.index.store import SearchFilters, Store
from ragcite.models import (
    Citation,
    CitedClaim,
    CitedResponse,
    DocumentStatus,
    SourceChunk,
    new_answer_id,
)

from .builders import axis, version

MARKER = "zebracrossing4711"


def answer_citing(store: Store, chunk_ids: list[str], query: str = "How long?") -> CitedResponse:
    """A verified answer whose one claim quotes each chunk in full."""
    chunks: list[SourceChunk] = store.get_chunks(chunk_ids)
    claim = CitedClaim(
        claim_text=" ".join(c.chunk_text for c in chunks),
        source_chunk_ids=[c.chunk_id for c in chunks],
        citations=[Citation(chunk_id=c.chunk_id, quote=c.chunk_text) for c in chunks],
        verified=True,
    )
    return CitedResponse(
        query=query,
        answer_id=new_answer_id(),
        answer_text=claim.claim_text,
        answerable=True,
        cited_claims=[claim],
        source_chunks=chunks,
    )


def _two_documents(store: Store) -> None:
    store_version(store, version("public", 1, ["Backups are kept for 35 days."]))
    store_version(
        store, version("secret", 1, [f"The vault code is {MARKER}."], access=("finance",))
    )


def test_saved_answer_round_trip(store: Store) -> None:
    _two_documents(store)
    response = answer_citing(store, ["public-1-0"])
    answers = answers_store(store)
    answers.save_answer(saved_answer_of(response, key_name="hr-bot", groups=("hr",)))
    got = answers.get_answer(response.answer_id, access_groups=("hr",))
    assert got.key_name == "hr-bot" and got.groups == ("hr",)
    assert got.sources == (("public", 1),) and got.chunk_ids == ("public-1-0",)
    assert got.response == response
    assert got.created_at.tzinfo is not None
    assert answers.get_answer(response.answer_id).answer_id == response.answer_id


def test_a_saved_answer_is_read_only_by_readers_of_all_its_sources(store: Store) -> None:
    _two_documents(store)
    mixed = answer_citing(store, ["public-1-0", "secret-1-0"])
    public = answer_citing(store, ["public-1-0"])
    answers = answers_store(store)
    for response in (mixed, public):
        answers.save_answer(saved_answer_of(response))
    with pytest.raises(NotFoundError, match=mixed.answer_id):
        answers.get_answer(mixed.answer_id, access_groups=("hr",))
    assert answers.get_answer(mixed.answer_id, access_groups=("finance",)).answer_id
    listed = answers.list_answers(access_groups=())
    assert [a.answer_id for a in listed] == [public.answer_id]
    with pytest.raises(NotFoundError, match="no saved answer with id 'nope'"):
        answers.get_answer("nope")
    store.delete_document("public")  # a deleted source hides the answer from readers
    with pytest.raises(NotFoundError):
        answers.get_answer(public.answer_id, access_groups=())
    assert answers.get_answer(public.answer_id).answer_id == public.answer_id


def test_list_answers_citing_documents_and_prune(store: Store) -> None:
    _two_documents(store)
    answers = answers_store(store)
    old = answer_citing(store, ["public-1-0"])
    new = answer_citing(store, ["secret-1-0"])
    long_ago = datetime.now(UTC) - timedelta(days=100)
    answers.save_answer(saved_answer_of(old, created_at=long_ago))
    answers.save_answer(saved_answer_of(new))
    assert [a.answer_id for a in answers.list_answers()] == [old.answer_id, new.answer_id]
    citing = answers.list_answers(document_ids=("secret",))
    assert [a.answer_id for a in citing] == [new.answer_id]
    assert answers.list_answers(document_ids=()) == []
    assert answers.prune_answers(datetime.now(UTC) - timedelta(days=90)) == 1
    assert [a.answer_id for a in answers.list_answers()] == [new.answer_id]


def test_erase_removes_everything_and_leaves_a_tombstone(
    store: Store, feedback: FeedbackStore
) -> None:
    _two_documents(store)
    store_version(store, version("secret", 2, [f"New code {MARKER}."], access=("finance",)))
    answers = answers_store(store)
    kept = answer_citing(store, ["public-1-0"])
    mixed = answer_citing(store, ["public-1-0", "secret-2-0"])
    for response in (kept, mixed):
        answers.save_answer(saved_answer_of(response))
    store.answer_cache.put("k", mixed.model_dump_json(), corpus_version="g1", ttl_s=60)  # type: ignore[attr-defined]
    feedback.add_feedback("vault?", "wrong_citation", chunk_id="secret-2-0", claim_text=MARKER)
    before = store.corpus_version()
    report = erasing_store(store).erase_document("secret", erased_by="admin-key")
    assert (report.versions, report.chunks, report.saved_answers) == (2, 2, 1)
    assert report.cached_answers == 1 and store.corpus_version() != before
    assert [(t.document_id, t.title, t.erased_by) for t in erasing_store(store).tombstones()] == [
        ("secret", "Secret", "admin-key")
    ]
    assert {d.document_id for d in store.list_documents()} == {"public"}
    with pytest.raises(NotFoundError):
        store.document_text("secret")
    assert store.get_chunks(["secret-1-0", "secret-2-0"]) == []
    every_status = SearchFilters(statuses=tuple(DocumentStatus))
    assert store.keyword_search(MARKER, 10, every_status) == []
    dense = store.dense_search(axis(0), 10, every_status)
    assert all(hit.chunk.document_id == "public" for hit in dense)
    assert store.answer_cache.get("k") is None  # type: ignore[attr-defined]
    redacted = answers.get_answer(mixed.answer_id)
    assert MARKER not in redacted.response_json and redacted.erased_documents == ("secret",)
    assert redacted.response.cited_claims[0].claim_text == ERASED_TEXT
    assert answers.get_answer(kept.answer_id).response == kept
    with pytest.raises(NotFoundError):  # a reader never sees an answer built on it again
        answers.get_answer(mixed.answer_id, access_groups=("finance",))
    assert all(MARKER not in (r.claim_text or "") for r in feedback.list_feedback())
    with pytest.raises(NotFoundError, match="'secret'"):
        erasing_store(store).erase_document("secret", erased_by="admin-key")


def test_feedback_keeps_the_key_name(store: Store, feedback: FeedbackStore) -> None:
    given = feedback.add_feedback("q", "helpful", key_name="hr-bot")
    assert given.key_name == "hr-bot"
    assert feedback.list_feedback()[0].key_name == "hr-bot"
    assert feedback.add_feedback("q", "helpful").key_name is None


def test_keep_tombstone_records_one_made_elsewhere_once(store: Store) -> None:
    erasing = erasing_store(store)
    when = datetime(2026, 2, 3, 4, 5, 6, 789012, tzinfo=UTC)
    made = Tombstone("old-policy", "Old policy", when, "key:admin")
    assert erasing.keep_tombstone(made) is True
    later = Tombstone("old-policy", "Renamed", when + timedelta(days=1), "cli (someone)")
    assert erasing.keep_tombstone(later) is False  # the first one stays as it was
    assert erasing.tombstones() == [made]
