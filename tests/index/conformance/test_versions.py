"""Conformance: storing versions, the supersession policy through the indexer, deletion,
atomic writes and the corpus version. Run against every Store implementation."""

from __future__ import annotations

import pytest

from ragcite.errors import NotFoundError, StoreError
from ragcite.index.indexer import store_version
from ragcite.index.store import NewVersion, SearchFilters, Store
from ragcite.models import DocumentStatus

from .builders import version

EVERY_STATUS = SearchFilters(statuses=tuple(DocumentStatus))


def _statuses(store: Store, doc_id: str) -> dict[int, tuple[DocumentStatus, int | None]]:
    return {
        d.version: (d.status, d.superseded_by)
        for d in store.list_documents()
        if d.document_id == doc_id
    }


def test_versions_are_stored_and_read_back(store: Store) -> None:
    stored = store.add_version(version("policy", 1, ["one rule"], corpus="hr", access=("staff",)))
    assert (stored.document_id, stored.version, stored.status) == ("policy", 1, "active")
    latest = store.latest_version("policy")
    assert latest is not None and latest.corpus == "hr" and latest.access == ("staff",)
    assert latest.title == "Policy" and latest.source_uri == "/docs/policy.md"
    found = store.find_version_by_hash("policy", "policy-1")
    assert found is not None and found.version == 1
    assert store.find_version_by_hash("policy", "other") is None
    assert store.latest_version("unknown") is None


def test_list_documents_newest_version_first_and_by_corpus(store: Store) -> None:
    store.add_version(version("b", 1, ["bee"], corpus="x"))
    store.add_version(version("a", 1, ["ay one"], corpus="y"))
    store.add_version(version("a", 2, ["ay two"], corpus="y"))
    listed = [(d.document_id, d.version) for d in store.list_documents()]
    assert listed == [("a", 2), ("a", 1), ("b", 1)]
    assert [d.document_id for d in store.list_documents("x")] == ["b"]
    assert store.list_documents("nowhere") == []


def test_add_version_stores_exactly_the_status_given(store: Store) -> None:
    store.add_version(version("policy", 1, ["first"]))
    store.add_version(version("policy", 2, ["second"]))
    archived = store.add_version(version("policy", 3, ["third"], status=DocumentStatus.SUPERSEDED))
    assert archived.status is DocumentStatus.SUPERSEDED
    assert _statuses(store, "policy") == {
        1: (DocumentStatus.ACTIVE, None),
        2: (DocumentStatus.ACTIVE, None),
        3: (DocumentStatus.SUPERSEDED, None),
    }


def test_a_new_version_supersedes_the_active_ones(store: Store) -> None:
    store_version(store, version("policy", 1, ["old rule about backups"]))
    stored = store_version(store, version("policy", 2, ["new rule about backups"]))
    assert stored.status is DocumentStatus.ACTIVE
    assert _statuses(store, "policy") == {
        1: (DocumentStatus.SUPERSEDED, 2),
        2: (DocumentStatus.ACTIVE, None),
    }
    hits = store.keyword_search("backups", 10, SearchFilters())
    assert [h.chunk.document_version for h in hits] == [2]
    assert len(store.keyword_search("backups", 10, EVERY_STATUS)) == 2


def test_an_older_version_arriving_late_is_stored_superseded(store: Store) -> None:
    store_version(store, version("policy", 3, ["newest"]))
    stored = store_version(store, version("policy", 1, ["oldest"]))
    assert (stored.status, stored.superseded_by) == (DocumentStatus.SUPERSEDED, 3)
    assert _statuses(store, "policy") == {
        1: (DocumentStatus.SUPERSEDED, 3),
        3: (DocumentStatus.ACTIVE, None),
    }
    assert store.latest_version("policy").status is DocumentStatus.ACTIVE  # type: ignore[union-attr]


def test_the_same_version_with_new_content_replaces_it(store: Store) -> None:
    store_version(store, version("policy", 1, ["alpha text"], sha="a"))
    store_version(store, version("policy", 1, ["beta text", "gamma text"], sha="b"))
    assert store.counts().chunks == 2 and store.counts().versions == 1
    assert store.keyword_search("alpha", 5, EVERY_STATUS) == []
    assert [h.chunk.chunk_text for h in store.keyword_search("beta", 5, SearchFilters())] == [
        "beta text"
    ]
    assert store.find_version_by_hash("policy", "b") is not None
    assert store.find_version_by_hash("policy", "a") is None


def test_replacing_a_superseded_version_keeps_it_superseded(store: Store) -> None:
    store_version(store, version("policy", 1, ["one"], sha="a"))
    store_version(store, version("policy", 2, ["two"]))
    store_version(store, version("policy", 1, ["one, corrected"], sha="b"))
    assert _statuses(store, "policy") == {
        1: (DocumentStatus.SUPERSEDED, 2),
        2: (DocumentStatus.ACTIVE, None),
    }


def test_deleted_documents_are_hidden_but_kept_for_audit(store: Store) -> None:
    store_version(store, version("gone", 1, ["secret plans"]))
    store_version(store, version("gone", 2, ["secret plans, revised"]))
    store_version(store, version("kept", 1, ["public plans"]))
    assert store.delete_document("gone") == 2
    assert store.delete_document("gone") == 0  # already deleted: nothing more to do
    assert [h.chunk.document_id for h in store.keyword_search("plans", 5, SearchFilters())] == [
        "kept"
    ]
    query = version("gone", 2, ["secret plans, revised"]).vectors[0]
    assert {h.chunk.document_id for h in store.dense_search(query, 5, SearchFilters())} == {"kept"}
    audit = [d for d in store.list_documents() if d.document_id == "gone"]
    assert [d.status for d in audit] == [DocumentStatus.DELETED] * 2
    assert store.document_text("gone", 1).text == "secret plans"
    assert store.counts().documents == 1
    with pytest.raises(NotFoundError, match="never-was"):
        store.delete_document("never-was")


def test_a_failed_write_leaves_nothing_behind(store: Store) -> None:
    store_version(store, version("a", 1, ["first document"]))
    before = (store.corpus_version(), store.counts())
    clashing = version("b", 1, ["x", "y"])
    bad_chunk = clashing.chunks[1].model_copy(update={"chunk_id": "a-1-0"})  # a's chunk ID
    broken = NewVersion(
        clashing.document, clashing.text, (), [clashing.chunks[0], bad_chunk], clashing.vectors
    )
    with pytest.raises(StoreError, match="nothing was changed"):
        store_version(store, broken)
    assert store.latest_version("b") is None
    assert (store.corpus_version(), store.counts()) == before
    assert store.keyword_search("x", 5, EVERY_STATUS) == []


def test_a_failed_supersession_leaves_the_old_version_active(store: Store) -> None:
    store_version(store, version("policy", 1, ["old rule"]))
    clashing = version("policy", 2, ["new rule"])
    bad_chunk = clashing.chunks[0].model_copy(update={"chunk_id": "policy-1-0"})
    broken = NewVersion(clashing.document, clashing.text, (), [bad_chunk], clashing.vectors)
    with pytest.raises(StoreError):
        store_version(store, broken)
    assert _statuses(store, "policy") == {1: (DocumentStatus.ACTIVE, None)}


def test_a_unit_of_work_that_raises_changes_nothing(store: Store) -> None:
    store_version(store, version("policy", 1, ["old rule"]))
    generation = store.corpus_version()
    with pytest.raises(RuntimeError, match="crash"), store.write() as writer:
        writer.mark_superseded("policy", 2)
        writer.add_version(version("policy", 2, ["new rule"]))
        raise RuntimeError("crash between the writes and the commit")
    assert _statuses(store, "policy") == {1: (DocumentStatus.ACTIVE, None)}
    assert store.counts().chunks == 1 and store.corpus_version() == generation


def test_writer_primitives(store: Store) -> None:
    with store.write() as writer:
        assert writer.versions("policy") == []
        writer.add_version(version("policy", 1, ["one"]))
        writer.add_version(version("policy", 2, ["two"]))
        assert [d.version for d in writer.versions("policy")] == [1, 2]
        assert writer.mark_superseded("policy", 2) == 1
        assert writer.remove_version("policy", 7) is False
    assert _statuses(store, "policy") == {
        1: (DocumentStatus.SUPERSEDED, 2),
        2: (DocumentStatus.ACTIVE, None),
    }
    with store.write() as writer:
        assert writer.remove_version("policy", 1) is True
    assert store.get_chunks(["policy-1-0"]) == []
    assert store.keyword_search("one", 5, EVERY_STATUS) == []


def test_adding_a_stored_version_number_fails(store: Store) -> None:
    store.add_version(version("policy", 1, ["one"], sha="a"))
    with pytest.raises(StoreError):
        store.add_version(version("policy", 1, ["one again"], sha="b"))
    assert store.find_version_by_hash("policy", "a") is not None


def test_corpus_version_moves_on_every_write(store: Store) -> None:
    seen = [store.corpus_version()]

    def moved() -> bool:
        seen.append(store.corpus_version())
        return seen[-1] != seen[-2]

    store_version(store, version("doc", 1, ["one"]))
    assert moved()
    store_version(store, version("doc", 2, ["two"]))
    assert moved()
    store_version(store, version("doc", 2, ["two, again"], sha="other"))
    assert moved()
    store.keyword_search("two", 5, SearchFilters())
    store.list_documents()
    assert not moved()
    store.delete_document("doc")
    assert moved()
    assert len(set(seen)) == 5


def test_counts(store: Store) -> None:
    empty = store.counts()
    assert (empty.documents, empty.versions, empty.chunks) == (0, 0, 0)
    store_version(store, version("a", 1, ["one", "two"]))
    store_version(store, version("a", 2, ["three"]))
    store_version(store, version("b", 1, ["four"]))
    counts = store.counts()
    assert (counts.documents, counts.versions, counts.chunks) == (2, 3, 4)
    assert counts.corpus_version == store.corpus_version()


def test_chunks_and_vectors_must_match(store: Store) -> None:
    good = version("doc", 1, ["one", "two"])
    broken = NewVersion(good.document, good.text, (), good.chunks, good.vectors[:1])
    with pytest.raises(StoreError, match="2 chunks"):
        store.add_version(broken)
    assert store.latest_version("doc") is None
