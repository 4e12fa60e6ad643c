"""The embedded store reads its chunks' version names apart from the join (the name is
stored after the document's text, sqlite_version_names.py): chunks still carry the name
of their own version, and a name written since (by any connection) is read afresh."""

from __future__ import annotations

from pathlib import Path

from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.sqlite_version_names import VersionNames
from ragcite.index.store import SearchFilters
from ragcite.models import DocumentStatus

from .conformance.builders import version

EVERY_STATUS = SearchFilters(statuses=tuple(DocumentStatus))


def _named_store(path: Path) -> SQLiteStore:
    store = SQLiteStore(path)
    store.add_version(version("plan", 1, ["the old travel plan"], version_name="Rev A"))
    store.add_version(version("plan", 2, ["the new travel plan"], version_name="Rev B"))
    store.add_version(version("memo", 1, ["a travel memo", "its second part"]))
    return store


def test_every_chunk_read_carries_its_own_versions_name(tmp_path: Path) -> None:
    store = _named_store(tmp_path / "s.db")
    expected = {"plan-1-0": "Rev A", "plan-2-0": "Rev B", "memo-1-0": None, "memo-1-1": None}
    vector = version("plan", 1, ["the old travel plan"]).vectors[0]
    for hits in (
        store.dense_search(vector, 10, EVERY_STATUS),
        store.keyword_search("travel plan memo part", 10, EVERY_STATUS),
    ):
        assert len(hits) >= 3
        for hit in hits:
            assert hit.chunk.document_version_name == expected[hit.chunk.chunk_id]
    got = store.get_chunks(list(expected))
    assert {c.chunk_id: c.document_version_name for c in got} == expected
    assert [c.document_version_name for c in store.neighbours("plan-2-0")] == ["Rev B"]
    exported = {
        (v.document.document_id, v.document.version): [c.document_version_name for c in v.chunks]
        for v in store.export_versions()
    }
    assert exported == {("memo", 1): [None, None], ("plan", 1): ["Rev A"], ("plan", 2): ["Rev B"]}
    store.close()


def test_a_version_written_again_under_another_name_is_read_afresh(tmp_path: Path) -> None:
    reader = _named_store(tmp_path / "s.db")
    assert [c.document_version_name for c in reader.get_chunks(["plan-1-0"])] == ["Rev A"]
    writer = SQLiteStore(tmp_path / "s.db")
    writer.erase_document("plan", erased_by="test")
    writer.add_version(version("plan", 1, ["the old travel plan"], version_name="Rev C"))
    assert [c.document_version_name for c in reader.get_chunks(["plan-1-0"])] == ["Rev C"]
    assert reader.get_chunks(["plan-2-0"]) == []
    writer.close()
    reader.close()


def test_names_past_the_capacity_are_read_again(tmp_path: Path) -> None:
    _named_store(tmp_path / "s.db").close()
    db = SQLiteDatabase(tmp_path / "s.db")
    names = VersionNames(db, capacity=1)
    keys = [("plan", 1), ("plan", 2), ("memo", 1), ("absent", 1)]
    expected = {("plan", 1): "Rev A", ("plan", 2): "Rev B", ("memo", 1): None}
    generation = db.generation()
    assert names.of(generation, keys) == expected
    assert names.of(generation, reversed(keys)) == expected
    db.close()
