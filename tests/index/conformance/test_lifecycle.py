"""Conformance: marking a document re-verified (`Store.mark_verified`). Run against every
Store implementation."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ragcite.errors import NotFoundError
from ragcite.index.indexer import store_version
from ragcite.index.store import Store

from .builders import version


def test_mark_verified_stamps_the_version_in_force(store: Store) -> None:
    store_version(store, version("policy", 1, ["old rule"]))
    store_version(store, version("policy", 2, ["new rule"]))
    before = store.corpus_version()
    when = datetime(2026, 3, 14, 9, 30, tzinfo=UTC)
    marked = store.mark_verified("policy", when)
    assert (marked.document_id, marked.version, marked.last_verified) == ("policy", 2, when)
    assert store.corpus_version() != before  # cached answers with old flags are not served
    versions = {d.version: d.last_verified for d in store.list_documents()}
    assert versions == {2: when, 1: None}  # the superseded version keeps its history
    later = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
    assert store.mark_verified("policy", later).last_verified == later


def test_mark_verified_refuses_unknown_and_deleted_documents(store: Store) -> None:
    with pytest.raises(NotFoundError, match="'nothing'"):
        store.mark_verified("nothing", datetime.now(UTC))
    store_version(store, version("gone", 1, ["text"]))
    store.delete_document("gone")
    before = store.corpus_version()
    with pytest.raises(NotFoundError, match="'gone'"):
        store.mark_verified("gone", datetime.now(UTC))
    assert store.corpus_version() == before
    assert store.list_documents()[0].last_verified is None
