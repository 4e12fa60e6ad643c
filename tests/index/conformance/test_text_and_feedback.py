"""Conformance: document text with its page map, and the feedback store kept next to a
store. Run against every Store implementation."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from ragcite.errors import NotFoundError
from ragcite.index.feedback import FeedbackStore
from ragcite.index.indexer import store_version
from ragcite.index.store import Store
from ragcite.ingest.types import PageSpan

from .builders import version


def test_document_text_with_pages(store: Store) -> None:
    pages = (PageSpan(1, 0, 12), PageSpan(2, 12, 30))
    store_version(store, version("report", 1, ["first page", "second page text"], pages=pages))
    store_version(store, version("report", 2, ["rewritten"]))
    first = store.document_text("report", 1)
    assert first.text == "first page\n\nsecond page text"
    assert first.pages == pages
    assert first.document.version == 1 and first.document.superseded_by == 2
    chunks = store.get_chunks(["report-1-0", "report-1-1"])
    assert [c.page_number for c in chunks] == [1, 2]
    for chunk in chunks:
        assert first.text[chunk.char_start : chunk.char_end] == chunk.chunk_text
    latest = store.document_text("report")
    assert (latest.document.version, latest.text, latest.pages) == (2, "rewritten", ())


def test_document_text_of_an_unknown_document(store: Store) -> None:
    store_version(store, version("report", 1, ["text"]))
    with pytest.raises(NotFoundError, match="'nothing'"):
        store.document_text("nothing")
    with pytest.raises(NotFoundError, match="version 9"):
        store.document_text("report", 9)


def test_feedback_round_trip(store: Store, feedback: FeedbackStore) -> None:
    assert feedback.list_feedback() == []
    first = feedback.add_feedback("How long do we keep PII?", "up")
    second = feedback.add_feedback(
        "Who approves travel?",
        "wrong_citation",
        chunk_id="c_1",
        claim_text="Managers approve travel.",
        comment="off by a year",
        response_json=json.dumps({"answer": "…"}),
    )
    assert second.id > first.id >= 1
    listed = feedback.list_feedback()
    assert listed == [second, first]
    assert listed[0].created_at.tzinfo is not None
    assert json.loads(listed[0].response_json or "") == {"answer": "…"}
    assert feedback.list_feedback(limit=1) == [second]


def test_feedback_does_not_move_the_corpus_version(store: Store, feedback: FeedbackStore) -> None:
    generation = store.corpus_version()
    feedback.add_feedback("q", "down")
    assert store.corpus_version() == generation


def test_feedback_keeps_a_given_time_and_lists_everything(feedback: FeedbackStore) -> None:
    when = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)
    copied = feedback.add_feedback("Who approves travel?", "down", created_at=when)
    for i in range(3):
        feedback.add_feedback(f"q{i}", "up")
    assert copied.created_at == when
    listed = feedback.list_feedback(limit=None)
    assert len(listed) == 4 and listed[-1].created_at == when
