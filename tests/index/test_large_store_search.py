"""The embedded store's search at scale: IVF above a size (filters honoured, recall against
exact search, saved beside the store and reloaded) and keyword search leaving out the
words most chunks hold. Thresholds are lowered so small stores take the large-store paths."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from ragcite.index import vector_index
from ragcite.index.keyword_query import COMMON_FLOOR, common_cutoff, telling_words
from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.sqlite_vectors import DenseIndex
from ragcite.index.store import ScoredChunk, SearchFilters
from ragcite.index.vector_index import VectorIndex

from .conformance.builders import DIMENSION, version


def clustered(n: int, seed: int = 0) -> npt.NDArray[np.float32]:
    """Unit vectors around 40 topics, like sentence embeddings (not uniform noise)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(40, DIMENSION))
    vectors = centres[rng.integers(0, 40, n)] + 0.6 * rng.normal(size=(n, DIMENSION))
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture
def small_ivf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_index, "APPROXIMATE_THRESHOLD", 100)


def test_hnsw_recall_at_10_against_exact_search(small_ivf: None) -> None:
    vectors = clustered(4000)
    ids = np.arange(1, 4001, dtype=np.int64) * 2
    index = VectorIndex(DIMENSION, ids, vectors)
    assert not index.exact
    queries = clustered(30, seed=1)
    found = 0
    for query in queries:
        exact = set(ids[np.argsort(-(vectors @ query))[:10]].tolist())
        found += len(exact & {rowid for rowid, _ in index.search(query, 10)})
    assert found / 300 >= 0.95


@pytest.mark.parametrize("share", [0.5, 0.05])  # searched under HNSW / scanned exactly
def test_hnsw_search_returns_only_allowed_rowids_best_first(
    small_ivf: None, share: float, tmp_path: Path
) -> None:
    vectors = clustered(2000)
    ids = np.arange(10, 2010, dtype=np.int64)
    index = VectorIndex(DIMENSION, ids, vectors)
    rng = np.random.default_rng(3)
    allowed = rng.choice(ids, int(share * len(ids)), replace=False)  # unsorted, like SQL's
    query = vectors[7]
    hits = index.search(query, 10, allowed)
    assert len(hits) == 10 and {rowid for rowid, _ in hits} <= set(allowed.tolist())
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True)
    mask = np.isin(ids, allowed)
    exact = ids[mask][np.argsort(-(vectors[mask] @ query))[:10]].tolist()
    assert len(set(exact) & {rowid for rowid, _ in hits}) >= 9
    assert index.search(query, 10, np.array([ids[3]])) == [
        (int(ids[3]), pytest.approx(float(vectors[3] @ query), abs=1e-3))
    ]
    index.save(tmp_path / "index.faiss")
    loaded = VectorIndex.load(tmp_path / "index.faiss")
    assert not loaded.exact and loaded.search(query, 10, allowed) == hits


def test_hnsw_index_is_saved_beside_the_store_and_loaded_by_the_next_process(
    small_ivf: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.db"
    store = SQLiteStore(path, dimension=DIMENSION)
    vectors = clustered(300)
    store.add_version(version("doc", 1, [f"text {i}" for i in range(300)], vectors=vectors))
    first = DenseIndex(SQLiteDatabase(path))
    hits = first.search(vectors[5], 5, SearchFilters())
    saved = sorted(p.name for p in tmp_path.glob("s.db.dense-g*"))
    assert saved and saved[0].endswith(".faiss") and all(".part" not in name for name in saved)

    def no_rebuild(*args: object) -> None:
        raise AssertionError("the saved index should have been loaded")

    monkeypatch.setattr(VectorIndex, "from_pages", no_rebuild)
    assert DenseIndex(SQLiteDatabase(path)).search(vectors[5], 5, SearchFilters()) == hits
    monkeypatch.undo()
    monkeypatch.setattr(vector_index, "APPROXIMATE_THRESHOLD", 100)
    store.add_version(version("more", 1, ["more text"], vectors=clustered(1, seed=9)))
    again = first.search(vectors[5], 5, SearchFilters(document_ids=("doc",)))
    assert [rowid for rowid, _ in again] == [rowid for rowid, _ in hits]
    # one vector added: caught up in memory, the saved file not rewritten (SAVE_AFTER)
    assert sorted(p.name for p in tmp_path.glob("s.db.dense-g*")) == saved
    assert first.builds == 1


def test_a_saved_index_that_does_not_fit_the_rows_is_rebuilt(
    small_ivf: None, tmp_path: Path
) -> None:
    path = tmp_path / "s.db"
    store = SQLiteStore(path, dimension=DIMENSION)
    vectors = clustered(200)
    store.add_version(version("doc", 1, [f"text {i}" for i in range(200)], vectors=vectors))
    DenseIndex(SQLiteDatabase(path)).search(vectors[0], 3, SearchFilters())
    saved = next(tmp_path.glob("s.db.dense-g*.faiss"))
    saved.write_bytes(b"not a faiss index")
    hits = DenseIndex(SQLiteDatabase(path)).search(vectors[0], 3, SearchFilters())
    assert hits[0][1] == pytest.approx(1.0, abs=1e-3)


def test_telling_words_leave_out_common_words_while_a_rarer_one_remains() -> None:
    holding = {"film": 9000, "released": 7000, "kubrick": 12, "nowhere": 0}
    assert telling_words(["film", "kubrick", "released"], holding, 5000) == ["kubrick"]
    assert telling_words(["film", "released", "nowhere"], holding, 5000) == ["released"]
    assert telling_words(["nowhere"], holding, 5000) == ["nowhere"]
    assert common_cutoff(100) == COMMON_FLOOR and common_cutoff(1_000_000) == 5000


def _store_with_common_words(path: Path, chunks: int) -> SQLiteStore:
    store = SQLiteStore(path, dimension=DIMENSION)
    texts = [f"Weather report number {i} for the harbour." for i in range(chunks)]
    for i in (3, 50, 97):
        texts[i] = f"The zeppelin crossed the harbour at dawn, flight {i}."
    store.add_version(version("doc", 1, texts, vectors=clustered(chunks)))
    return store


def test_keyword_search_in_a_large_store_leaves_out_words_most_chunks_hold(
    tmp_path: Path,
) -> None:
    store = _store_with_common_words(tmp_path / "big.db", COMMON_FLOOR + 200)
    hits = store.keyword_search("zeppelin harbour reports", 10, SearchFilters())
    # "harbour" and "report" (stemmed: "reports" is its form) are in every chunk: only
    # "zeppelin" is searched, so only its chunks come back.
    assert sorted(h.chunk.chunk_id for h in hits) == ["doc-1-3", "doc-1-50", "doc-1-97"]
    everywhere = store.keyword_search("harbour reports", 10, SearchFilters())
    assert len(everywhere) == 10  # all words common: the rarest one is still searched
    small = _store_with_common_words(tmp_path / "small.db", 200)
    hits = small.keyword_search("zeppelin harbour reports", 10, SearchFilters())
    assert len(hits) == 10 and {"doc-1-3", "doc-1-50", "doc-1-97"} <= {
        h.chunk.chunk_id for h in hits[:3]
    }


def test_filtered_keyword_search_reaches_past_the_best_unfiltered_matches(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "s.db", dimension=DIMENSION)
    loud = [f"Zeppelin zeppelin zeppelin log {i}." for i in range(300)]
    store.add_version(version("loud", 1, loud, vectors=clustered(300)))
    quiet = [f"A long note on the harbour, weather and a zeppelin, entry {i}." for i in range(5)]
    store.add_version(version("quiet", 1, quiet, vectors=clustered(5, seed=2)))
    hits = store.keyword_search("zeppelin", 10, SearchFilters(document_ids=("quiet",)))
    assert sorted(h.chunk.chunk_id for h in hits) == [f"quiet-1-{i}" for i in range(5)]
    unfiltered = store.keyword_search("zeppelin", 10, SearchFilters())
    assert all(h.chunk.document_id == "loud" for h in unfiltered)


def test_filtered_keyword_search_sees_writes_made_after_its_filter_was_cached(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "s.db", dimension=DIMENSION)
    store.add_version(version("first", 1, ["The zeppelin landed."], vectors=clustered(1)))
    only_default = SearchFilters(corpora=("default",))
    assert [h.chunk.document_id for h in store.keyword_search("zeppelin", 5, only_default)] == [
        "first"
    ]
    store.add_version(version("second", 1, ["Another zeppelin."], vectors=clustered(1, seed=4)))
    found = {h.chunk.document_id for h in store.keyword_search("zeppelin", 5, only_default)}
    assert found == {"first", "second"}


def test_counting_stops_at_the_cutoff_yet_the_rarest_common_word_is_still_found(
    tmp_path: Path,
) -> None:
    # 1,200 chunks: the cutoff is COMMON_FLOOR (1,000). "alpha" is in exactly 1,000 chunks
    # (not common), "beta" in 1,001 (common, but rarer than "harbour", in all 1,200).
    assert common_cutoff(COMMON_FLOOR + 200) == COMMON_FLOOR
    texts = [f"Harbour entry {i}." for i in range(COMMON_FLOOR + 200)]
    for i in range(COMMON_FLOOR):
        texts[i] += " Alpha."
    for i in range(199, COMMON_FLOOR + 200):
        texts[i] += " Beta."
    store = SQLiteStore(tmp_path / "s.db", dimension=DIMENSION)
    store.add_version(version("doc", 1, texts, vectors=clustered(len(texts))))
    # "alpha" alone is searched: every hit holds it, none of the 200 without it
    hits = store.keyword_search("harbour beta alpha", 10, SearchFilters())
    assert len(hits) == 10 and all("Alpha" in h.chunk.chunk_text for h in hits)
    # every word common: the rarest ("beta", counted exactly) is searched, not "harbour"
    hits = store.keyword_search("harbour beta", 10, SearchFilters())
    assert len(hits) == 10 and all("Beta" in h.chunk.chunk_text for h in hits)


def test_dense_and_keyword_searches_from_several_threads_match_those_made_in_turn(
    small_ivf: None, tmp_path: Path
) -> None:
    # Hybrid retrieval runs its keyword lookup beside the dense one; the dense scan holds
    # the index's lock, not the store's, so the two run at once.
    words = ["zeppelin", "harbour", "weather", "ledger", "lantern", "orchard", "quarry"]
    texts = [f"A {words[i % 7]} note on the {words[i % 5]} at {i}." for i in range(600)]
    store = SQLiteStore(tmp_path / "s.db", dimension=DIMENSION)
    store.add_version(version("doc", 1, texts, vectors=clustered(600)))
    queries = clustered(24, seed=5)
    asked = [f"{words[i % 7]} {words[(i + 2) % 5]} {i}" for i in range(24)]
    filters = SearchFilters()

    def both(i: int) -> tuple[list[ScoredChunk], list[ScoredChunk]]:
        return store.dense_search(queries[i], 10, filters), store.keyword_search(
            asked[i], 10, filters
        )

    in_turn = [both(i) for i in range(24)]
    assert not store._dense._index.exact  # type: ignore[union-attr]
    with ThreadPoolExecutor(6) as pool:
        dense = list(pool.map(lambda i: store.dense_search(queries[i], 10, filters), range(24)))
        keyword = list(pool.map(lambda i: store.keyword_search(asked[i], 10, filters), range(24)))
        mixed = list(pool.map(both, range(24)))
    assert list(zip(dense, keyword, strict=True)) == in_turn == mixed
    assert all(d and k for d, k in in_turn)
    store.close()
