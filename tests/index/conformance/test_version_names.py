"""Conformance: free-text version names ("2024-Q3") are stored with the version and read
back everywhere a version is: documents, document text, export, and the chunks of every
search, so the one version label shows them. Run against every Store implementation."""

from __future__ import annotations

from datetime import date

from ragcite.index.indexer import store_version
from ragcite.index.store import SearchFilters, Store
from ragcite.models import DocumentStatus

from .builders import axis, version

EVERY_STATUS = SearchFilters(statuses=tuple(DocumentStatus))


def test_a_version_name_is_read_back_with_its_document(store: Store) -> None:
    store_version(store, version("plan", 1, ["the old plan"], effective_date=date(2024, 4, 1)))
    named = version(
        "plan", 2, ["the new plan"], version_name="2024-Q3", effective_date=date(2024, 7, 1)
    )
    stored = store_version(store, named)
    assert stored.version_name == "2024-Q3"
    latest = store.latest_version("plan")
    assert latest is not None and latest.version_name == "2024-Q3"
    assert latest.version_label == "2024-Q3 · 2024-07-01"
    found = store.find_version_by_hash("plan", "plan-2")
    assert found is not None and found.version_name == "2024-Q3"
    listed = {d.version: d.version_name for d in store.list_documents()}
    assert listed == {2: "2024-Q3", 1: None}
    assert store.document_text("plan", 2).document.version_name == "2024-Q3"
    assert store.document_text("plan", 1).document.version_label == "v1 · 2024-04-01"
    exported = {v.document.version: v.document.version_name for v in store.export_versions()}
    assert exported == {1: None, 2: "2024-Q3"}


def test_every_search_gives_chunks_their_version_name(store: Store) -> None:
    store_version(store, version("manual", 1, ["pump maintenance steps"], vectors=[axis(0)]))
    store_version(
        store,
        version("manual", 2, ["pump maintenance revised"], vectors=[axis(0)], version_name="Rev B"),
    )
    keyword = store.keyword_search("pump maintenance", 5, EVERY_STATUS)
    dense = store.dense_search(axis(0), 5, EVERY_STATUS)
    for hits in (keyword, dense):
        names = {h.chunk.document_version: h.chunk.document_version_name for h in hits}
        assert names == {1: None, 2: "Rev B"}
    chunk = store.get_chunks(["manual-2-0"])[0]
    assert chunk.document_version_name == "Rev B"
    assert chunk.display == "Manual Rev B" and chunk.version_label == "Rev B"
    assert [c.document_version_name for c in store.neighbours("manual-2-0")] == ["Rev B"]
