"""What only the embedded store does: its file, migrations, dimension checks, the faiss
index kept in step with other connections and its bounded filter cache. The behaviour
every store shares is tested in tests/index/conformance/."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from ragcite.errors import StoreError
from ragcite.index.migrations import MIGRATIONS
from ragcite.index.sqlite_db import PAGE_CACHE_KIB, SQLiteDatabase
from ragcite.index.sqlite_store import SQLiteStore, open_sqlite_store
from ragcite.index.sqlite_vectors import DenseIndex, EligibleRowidCache
from ragcite.index.store import SearchFilters
from ragcite.registry import STORES, find_builder, parse_store_url

from .conformance.builders import DIMENSION, axis, version


def test_index_follows_writes_from_another_connection(tmp_path: Path) -> None:
    first, second = SQLiteStore(tmp_path / "s.db"), SQLiteStore(tmp_path / "s.db")
    v = version("doc", 1, ["shared text"])
    assert first.dense_search(v.vectors[0], 3, SearchFilters()) == []
    second.add_version(v)
    assert [h.chunk.chunk_id for h in first.dense_search(v.vectors[0], 3, SearchFilters())] == [
        "doc-1-0"
    ]


def test_not_a_store_file_is_a_clear_error(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.db"
    bogus.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot open the store"):
        SQLiteStore(bogus)


def test_migrations_are_recorded_once(tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "m.db").close()
    SQLiteStore(tmp_path / "m.db").close()
    names = sqlite3.connect(tmp_path / "m.db").execute("SELECT name FROM migrations").fetchall()
    assert names == [(name,) for name, _ in MIGRATIONS]
    assert names[:2] == [("m001_create_tables",), ("m002_api_keys",)]


def test_a_store_of_another_dimension_refuses_to_open(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    SQLiteStore(path, dimension=DIMENSION).add_version(version("doc", 1, ["text"]))
    with pytest.raises(StoreError) as caught:
        SQLiteStore(path, dimension=768)
    message = str(caught.value)
    assert str(path) in message and "384" in message and "768" in message
    assert SQLiteStore(path, dimension=DIMENSION).dimension == DIMENSION


def test_without_a_dimension_the_store_takes_its_vectors(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    assert store.dimension is None
    store.add_version(version("doc", 1, ["text"]))
    assert store.dimension == DIMENSION
    short = version("other", 1, ["short vectors"])
    narrow = short.vectors[:, :16].copy()
    with pytest.raises(StoreError, match=r"16-dimensional vectors.*384-dimensional"):
        store.add_version(type(short)(short.document, short.text, (), short.chunks, narrow))
    assert SQLiteStore(tmp_path / "s.db").dimension == DIMENSION


def test_a_query_of_another_dimension_is_a_clear_error(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db", dimension=DIMENSION)
    with pytest.raises(StoreError, match="16-dimensional query"):
        store.dense_search(np.ones(16, dtype=np.float32), 3, SearchFilters())


def test_the_sqlite_builder_is_registered(tmp_path: Path) -> None:
    spec = parse_store_url(f"sqlite:///{tmp_path}/built.db")
    builder = find_builder(STORES, spec)
    store = builder(spec, dimension=DIMENSION)
    assert isinstance(store, SQLiteStore)
    assert store.path == tmp_path / "built.db" and store.dimension == DIMENSION
    plain = open_sqlite_store(parse_store_url(str(tmp_path / "plain.db")), dimension=DIMENSION)
    assert plain.path == tmp_path / "plain.db"


def test_eligible_rowid_cache_is_lru() -> None:
    cache = EligibleRowidCache(2)
    a, b, c = (SearchFilters(corpora=(name,)) for name in "abc")
    cache.put(a, np.array([1]))
    cache.put(b, np.array([2]))
    assert cache.get(a) is not None  # a is now the most recently used
    cache.put(c, np.array([3]))
    assert a in cache and c in cache and b not in cache and len(cache) == 2
    with pytest.raises(ValueError, match="capacity"):
        EligibleRowidCache(0)


def test_dense_index_cache_is_bounded_and_cleared_when_the_generation_moves(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "s.db", dimension=DIMENSION)
    store.add_version(version("doc", 1, ["text"], vectors=[axis(0)]))
    dense = DenseIndex(SQLiteDatabase(tmp_path / "s.db"), cache_size=3)
    for i in range(10):
        assert len(dense.search(axis(0), 1, SearchFilters(document_ids=("doc", f"x{i}")))) == 1
        assert len(dense.eligible) == min(i + 1, 3)
    store.add_version(version("more", 1, ["more text"], vectors=[axis(1)]))
    hits = dense.search(axis(1), 1, SearchFilters())
    assert [rowid for rowid, _ in hits] and len(dense.eligible) == 1  # only the new filters


def test_counts_kept_per_generation_follow_writes_from_another_connection(
    tmp_path: Path,
) -> None:
    first, second = SQLiteStore(tmp_path / "s.db"), SQLiteStore(tmp_path / "s.db")
    first.add_version(version("doc", 1, ["one", "two"]))
    counted = first.counts()
    assert (counted.documents, counted.versions, counted.chunks) == (1, 1, 2)
    assert first.counts() is counted  # the same generation: not counted again
    second.add_version(version("other", 1, ["three"]))
    assert (first.counts().documents, first.counts().chunks) == (2, 3)
    second.delete_document("doc")
    after = first.counts()
    assert (after.documents, after.versions, after.chunks) == (1, 1, 3)
    assert after.corpus_version == second.corpus_version() != counted.corpus_version
    first.close()
    second.close()


def test_the_connection_keeps_a_larger_page_cache(tmp_path: Path) -> None:
    db = SQLiteDatabase(tmp_path / "s.db")
    assert db.query_one("PRAGMA cache_size")[0] == -PAGE_CACHE_KIB  # type: ignore[index]
    assert PAGE_CACHE_KIB >= 32 * 1024
    db.close()
