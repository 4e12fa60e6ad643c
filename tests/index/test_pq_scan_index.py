"""The approximate dense index of large stores (a compressed scan of every vector, the best
re-ranked exactly): the exact top-k whenever the true neighbours reach the re-ranked
candidates, removals gone from the scan, filters honoured, trained on a sample of the
stored vectors, and an HNSW file of an earlier version rebuilt.
APPROXIMATE_THRESHOLD is lowered so a few thousand vectors take the approximate path."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import faiss
import numpy as np
import numpy.typing as npt
import pytest

from ragcite.index import pq_scan, vector_index
from ragcite.index.dense_changes import sample_vectors, store_state
from ragcite.index.dense_files import saved_generations, state_path
from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.sqlite_vectors import DenseIndex
from ragcite.index.store import SearchFilters
from ragcite.index.vector_index import VectorIndex

from .conformance.builders import DIMENSION, version
from .test_large_store_search import clustered

Rowids = npt.NDArray[np.int64]
Vectors = npt.NDArray[np.float32]


@pytest.fixture(autouse=True)
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_index, "APPROXIMATE_THRESHOLD", 100)


def exact_top(vectors: Vectors, ids: Rowids, query: Vectors, k: int) -> list[int]:
    return ids[np.argsort(-(vectors @ query))[:k]].tolist()


def test_every_vector_re_ranked_gives_the_exact_top_k(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pq_scan, "RERANK", 3000)
    vectors = clustered(3000)
    ids = np.arange(1, 3001, dtype=np.int64) * 3
    index = VectorIndex(DIMENSION, ids, vectors)
    assert not index.exact and index._index.lists == pq_scan.list_count(3000) > 1
    for query in clustered(10, seed=5):
        hits = index.search(query, 20)
        exact = np.sort(vectors @ query)[::-1][:20]  # float16 may swap near-ties only
        assert [score for _, score in hits] == pytest.approx(exact.tolist(), abs=2e-3)
        assert len({r for r, _ in hits} & set(exact_top(vectors, ids, query, 20))) >= 19


def test_the_compressed_scan_finds_the_neighbours_for_the_re_rank() -> None:
    vectors = clustered(3000)
    ids = np.arange(1, 3001, dtype=np.int64)
    index = VectorIndex(DIMENSION, ids, vectors)  # 300 of 3,000 re-ranked
    queries = clustered(30, seed=1)
    found = sum(
        len(set(exact_top(vectors, ids, q, 10)) & {r for r, _ in index.search(q, 10)})
        for q in queries
    )
    assert found / 300 >= 0.95


def test_removed_rowids_are_never_returned_and_leave_the_scan(tmp_path: Path) -> None:
    vectors = clustered(2000)
    ids = np.arange(1, 2001, dtype=np.int64)
    index = VectorIndex(DIMENSION, ids, vectors)
    removed = ids[::7]
    assert index.remove(removed) == len(removed)
    for query in vectors[:14]:
        assert not {r for r, _ in index.search(query, 200)} & set(removed.tolist())
    assert pq_scan.stored_positions(index._index).tolist() == np.flatnonzero(~index.dead).tolist()
    codes = index._index._codes()
    assert not codes[removed - 1].any() and codes[1].any()  # the float16 copies zeroed
    index.add(np.array([8]), vectors[100:101])  # rowid 8 again, another vector
    assert {r for r, _ in index.search(vectors[100], 2)} == {8, 101}
    index.save(tmp_path / "i.faiss")
    loaded = VectorIndex.load(tmp_path / "i.faiss")
    assert loaded.live == index.live and loaded.size == 2001 and not loaded.exact
    assert loaded.search(vectors[3], 30) == index.search(vectors[3], 30)


@pytest.mark.parametrize("share", [0.6, 0.05])  # more / fewer than RERANK allowed
def test_filters_return_only_allowed_rowids(share: float) -> None:
    vectors = clustered(3000)
    ids = np.arange(5, 3005, dtype=np.int64)
    index = VectorIndex(DIMENSION, ids, vectors)
    allowed = np.random.default_rng(2).choice(ids, int(share * 3000), replace=False)
    mask = np.isin(ids, allowed)
    for query in vectors[:5]:
        hits = index.search(query, 10, allowed)
        assert len(hits) == 10 and {r for r, _ in hits} <= set(allowed.tolist())
        exact = exact_top(vectors[mask], ids[mask], query, 10)
        assert len(set(exact) & {r for r, _ in hits}) >= (10 if share < 0.1 else 9)
    assert index.search(vectors[0], 10, np.array([ids[3]])) == [
        (int(ids[3]), pytest.approx(float(vectors[3] @ vectors[0]), abs=1e-3))
    ]


def test_without_a_sample_it_is_trained_on_the_first_pages() -> None:
    vectors = clustered(1000)
    pages = [
        (np.arange(s + 1, s + 201, dtype=np.int64), vectors[s : s + 200])
        for s in range(0, 1000, 200)
    ]
    index = VectorIndex.from_pages(DIMENSION, 1000, pages)
    assert index.size == 1000 and not index.exact
    assert index.search(vectors[999], 1)[0][0] == 1000


def test_the_training_sample_is_drawn_from_stored_vectors(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    vectors = clustered(500)
    SQLiteStore(path, dimension=DIMENSION).add_version(
        version("doc", 1, [f"text {i}" for i in range(500)], vectors=vectors)
    )
    db = SQLiteDatabase(path)
    sample = sample_vectors(db, store_state(db), 120)
    assert sample is not None and len(sample) == 120
    stored = {v.tobytes() for v in vectors}
    assert all(v.tobytes() in stored for v in sample) and len({v.tobytes() for v in sample}) == 120


def test_an_hnsw_file_of_an_earlier_version_is_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "s.db"
    vectors = clustered(300)
    SQLiteStore(path, dimension=DIMENSION).add_version(
        version("doc", 1, [f"text {i}" for i in range(300)], vectors=vectors)
    )
    DenseIndex(SQLiteDatabase(path)).search(vectors[0], 3, SearchFilters())
    pointer = state_path(path, saved_generations(path)[0])
    saved = path.with_name(json.loads(pointer.read_text())["index"])
    hnsw = faiss.IndexHNSWFlat(DIMENSION, 32, faiss.METRIC_INNER_PRODUCT)
    hnsw.add(vectors)
    faiss.write_index(hnsw, str(saved))  # what the code before saved
    with caplog.at_level(logging.WARNING):
        dense = DenseIndex(SQLiteDatabase(path))
        hits = dense.search(vectors[9], 3, SearchFilters())
    assert dense.builds == 1 and dense._index is not None and not dense._index.exact
    assert hits[0][0] == 10 and hits[0][1] == pytest.approx(1.0, abs=1e-3)
    assert "HNSW" in caplog.records[0].getMessage()
    rebuilt = path.with_name(json.loads(pointer.read_text())["index"])
    assert pq_scan.is_scan(faiss.read_index(str(rebuilt)))
