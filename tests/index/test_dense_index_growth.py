"""The embedded store's dense index grows with the store instead of being rebuilt: new
chunks are added, removed or changed ones masked (chunk_removals), the saved index is
loaded and caught up by the next process, and rebuilt only when it cannot be trusted.
APPROXIMATE_THRESHOLD is lowered so a few hundred chunks use the approximate index (fewer
vectors than it re-ranks exactly, so its top-k equals a rebuilt index's)."""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from ragcite.index import pq_scan, sqlite_vectors, vector_index
from ragcite.index.dense_changes import store_state, vector_pages
from ragcite.index.dense_files import legacy_index_path, saved_generations, state_path
from ragcite.index.indexer import store_version
from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.sqlite_vectors import DenseIndex
from ragcite.index.store import SearchFilters
from ragcite.index.vector_index import VectorIndex

from .conformance.builders import DIMENSION, version
from .test_large_store_search import clustered

EVERYTHING = SearchFilters()
QUERIES = clustered(6, seed=99)


@pytest.fixture(autouse=True)
def small_ivf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_index, "APPROXIMATE_THRESHOLD", 100)


def add(store: SQLiteStore, doc: str, count: int, seed: int, number: int = 1) -> None:
    texts = [f"{doc} text {i}" for i in range(count)]
    store_version(store, version(doc, number, texts, vectors=clustered(count, seed=seed)))


def new_store(tmp_path: Path, *docs: tuple[str, int, int]) -> tuple[Path, SQLiteStore]:
    """A store at `tmp_path`/s.db holding each (document, chunk count, vector seed)."""
    path = tmp_path / "s.db"
    store = SQLiteStore(path, dimension=DIMENSION)
    for doc, count, seed in docs:
        add(store, doc, count, seed=seed)
    return path, store


def searched(path: Path) -> DenseIndex:
    """A dense index over the store at `path`, after one search (built, loaded or caught up)."""
    dense = DenseIndex(SQLiteDatabase(path))
    dense.search(QUERIES[0], 10, EVERYTHING)
    return dense


def rebuilt_hits(path: Path, queries: npt.NDArray[np.float32]) -> list[list[int]]:
    """Top 10 of an index built from scratch over the same rows (no saved file used)."""
    folder = path.parent / "rebuilt"
    folder.mkdir(exist_ok=True)
    copy = folder / path.name
    with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    dense = DenseIndex(SQLiteDatabase(copy))
    hits = [[rowid for rowid, _ in dense.search(q, 10, EVERYTHING)] for q in queries]
    assert dense.builds == 1
    shutil.rmtree(folder)
    return hits


def assert_like_a_rebuild(dense: DenseIndex, path: Path) -> None:
    found = [[rowid for rowid, _ in dense.search(q, 10, EVERYTHING)] for q in QUERIES]
    assert found == rebuilt_hits(path, QUERIES)


def saved_index(path: Path) -> Path:
    """The index file the newest saved `.json` beside the store names."""
    pointer = state_path(path, saved_generations(path)[0])
    return path.with_name(json.loads(pointer.read_text())["index"])


def as_older_layout(path: Path) -> Path:
    """Turn the newest save into what the code before removals were logged wrote: the
    index and its rowids under the generation's name, no dead mask, no `.json`."""
    generation = saved_generations(path)[0]
    index, legacy = saved_index(path), legacy_index_path(path, generation)
    index.rename(legacy)
    Path(f"{index}.ids.npy").rename(f"{legacy}.ids.npy")
    Path(f"{index}.vectors").rename(f"{legacy}.vectors")
    Path(f"{index}.dead.npy").unlink()
    state_path(path, generation).unlink()
    return legacy


def stored_rowids(path: Path) -> set[int]:
    with sqlite3.connect(path) as db:
        return {row[0] for row in db.execute("SELECT rowid FROM chunks")}


def test_add_supersede_erase_and_reingest_match_a_rebuilt_index(tmp_path: Path) -> None:
    path, store = new_store(tmp_path, ("alpha", 300, 1))
    dense = searched(path)
    assert dense.builds == 1 and dense._index is not None and not dense._index.exact
    add(store, "beta", 40, seed=2)  # added
    assert_like_a_rebuild(dense, path)
    add(store, "alpha", 30, seed=3, number=2)  # a new version supersedes the old one
    assert_like_a_rebuild(dense, path)
    add(store, "gamma", 20, seed=4)
    add(store, "gamma", 20, seed=5)  # the same version again, new content: replaced
    assert_like_a_rebuild(dense, path)
    with sqlite3.connect(path) as db:
        beta = [row[0] for row in db.execute("SELECT rowid FROM chunks WHERE document_id='beta'")]
        beta_vectors = clustered(40, seed=2)
    store.erase_document("beta", erased_by="test")
    assert_like_a_rebuild(dense, path)
    for query in beta_vectors[:5]:  # the erased chunks' own vectors: never returned
        hits = {rowid for rowid, _ in dense.search(query, 50, EVERYTHING)}
        assert hits and not hits & set(beta) and hits <= stored_rowids(path)
    assert dense.builds == 1


def test_a_changed_vector_is_removed_and_added_again(tmp_path: Path) -> None:
    path, _ = new_store(tmp_path, ("alpha", 200, 1))
    dense = searched(path)
    moved = clustered(1, seed=42)[0]
    with sqlite3.connect(path) as db:  # as re-embedding would write it
        db.execute("UPDATE chunks SET vector = ? WHERE rowid = 7", (moved.tobytes(),))
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")
    top = dense.search(moved, 1, EVERYTHING)
    assert top[0][0] == 7 and top[0][1] == pytest.approx(1.0, abs=1e-3)
    assert_like_a_rebuild(dense, path)
    assert dense.builds == 1


def test_reused_rowids_are_read_again(tmp_path: Path) -> None:
    path, store = new_store(tmp_path, ("alpha", 200, 1), ("beta", 10, 2))
    dense = searched(path)
    before = stored_rowids(path)
    store.erase_document("beta", erased_by="test")
    add(store, "gamma", 10, seed=3)  # SQLite hands out beta's rowids again
    assert stored_rowids(path) == before
    assert_like_a_rebuild(dense, path)
    gamma = clustered(10, seed=3)
    assert dense.search(gamma[4], 1, EVERYTHING)[0][1] == pytest.approx(1.0, abs=1e-3)
    assert dense.builds == 1


def test_the_next_process_loads_the_saved_index_and_catches_up(tmp_path: Path) -> None:
    path, store = new_store(tmp_path, ("alpha", 300, 1))
    searched(path)
    saved = saved_index(path)
    written = saved.stat().st_mtime_ns
    add(store, "beta", 30, seed=2)
    other = SQLiteStore(path, dimension=DIMENSION)  # another writer, its own connection
    add(other, "gamma", 30, seed=3)
    second = DenseIndex(SQLiteDatabase(path))
    assert_like_a_rebuild(second, path)
    assert second.builds == 0 and saved.stat().st_mtime_ns == written
    assert second._index is not None and second._index.size == 360


def test_a_removal_or_enough_new_vectors_rewrite_the_saved_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_vectors, "SAVE_AFTER", 50)
    path, store = new_store(tmp_path, ("alpha", 300, 1), ("beta", 20, 2))
    dense = searched(path)
    built = saved_generations(path)
    add(store, "gamma", 30, seed=3)  # 30 < SAVE_AFTER: not rewritten
    dense.search(QUERIES[0], 10, EVERYTHING)
    dense.close()
    assert saved_generations(path) == built
    add(store, "delta", 30, seed=4)  # 60 since the last save
    dense.search(QUERIES[0], 10, EVERYTHING)
    dense.close()
    assert saved_generations(path) == [dense.generation]
    store.erase_document("beta", erased_by="test")
    dense.search(QUERIES[0], 10, EVERYTHING)
    dense.close()
    generation = saved_generations(path)
    assert generation == [dense.generation]
    state = json.loads(state_path(path, generation[0]).read_text())
    assert state["removal_seq"] == 20 and state["generation"] == dense.generation
    reopened = DenseIndex(SQLiteDatabase(path))
    assert_like_a_rebuild(reopened, path)
    assert reopened.builds == 0 and reopened._index is not None
    assert int(reopened._index.dead.sum()) == 20


def test_a_file_of_the_older_layout_is_used_and_upgraded(tmp_path: Path) -> None:
    path, store = new_store(tmp_path, ("alpha", 300, 1))
    searched(path)
    legacy = as_older_layout(path)
    dense = DenseIndex(SQLiteDatabase(path))
    assert_like_a_rebuild(dense, path)
    assert dense.builds == 0 and saved_index(path) == legacy
    add(store, "beta", 10, seed=2)
    assert_like_a_rebuild(DenseIndex(SQLiteDatabase(path)), path)


def test_an_older_layout_file_of_an_earlier_generation_is_not_trusted(tmp_path: Path) -> None:
    path, store = new_store(tmp_path, ("alpha", 300, 1))
    searched(path)
    as_older_layout(path)
    add(store, "beta", 10, seed=2)  # the rows moved on: what else changed is not known
    dense = DenseIndex(SQLiteDatabase(path))
    assert_like_a_rebuild(dense, path)
    assert dense.builds == 1


@pytest.mark.parametrize(
    ("damaged", "content"),
    [
        ("", b"\x00not an index"),
        (".ids.npy", b"\x00not an array"),
        ("json", b"\x00not json"),
        ("json", b'{"store_id": 7, "removal_seq": "0", "generation": 1, "index": "x"}'),
    ],
)
def test_a_damaged_file_is_rebuilt_with_a_one_line_warning(
    tmp_path: Path, damaged: str, content: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    path, _ = new_store(tmp_path, ("alpha", 300, 1))
    searched(path)
    pointer = state_path(path, saved_generations(path)[0])
    target = pointer if damaged == "json" else Path(f"{saved_index(path)}{damaged}")
    target.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        dense = DenseIndex(SQLiteDatabase(path))
        assert_like_a_rebuild(dense, path)
    assert dense.builds == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "damaged" in warnings[0] and "\n" not in warnings[0]
    assert not caplog.records[0].exc_info


def test_a_file_from_another_store_is_not_applied(tmp_path: Path) -> None:
    mine, theirs = tmp_path / "mine.db", tmp_path / "theirs.db"
    for path, seed in ((mine, 1), (theirs, 2)):  # the same shape, other vectors
        add(SQLiteStore(path, dimension=DIMENSION), "alpha", 300, seed=seed)
        searched(path)
    generation = saved_generations(mine)[0]
    assert saved_generations(theirs) == [generation]
    copied = saved_index(mine).with_name(saved_index(theirs).name.replace("theirs", "mine"))
    for suffix in ("", ".ids.npy", ".dead.npy", ".vectors"):
        shutil.copyfile(f"{saved_index(theirs)}{suffix}", f"{copied}{suffix}")
    state = json.loads(state_path(theirs, generation).read_text()) | {"index": copied.name}
    state_path(mine, generation).write_text(json.dumps(state))
    dense = DenseIndex(SQLiteDatabase(mine))
    assert_like_a_rebuild(dense, mine)
    assert dense.builds == 1


def test_more_than_a_fifth_removed_rebuilds(tmp_path: Path) -> None:
    path, store = new_store(tmp_path, ("alpha", 300, 1), ("beta", 50, 2))
    dense = searched(path)
    store.erase_document("beta", erased_by="test")  # 50 / 350: masked
    dense.search(QUERIES[0], 10, EVERYTHING)
    assert dense.builds == 1
    add(store, "gamma", 40, seed=3)  # beta's rowids again, at new positions
    dense.search(QUERIES[0], 10, EVERYTHING)
    store.erase_document("gamma", erased_by="test")  # 90 / 390: rebuilt
    assert_like_a_rebuild(dense, path)
    assert dense.builds == 2 and dense._index is not None
    assert dense._index.size == 300 and not dense._index.dead.any()


def test_an_exact_index_that_grows_past_the_threshold_becomes_hnsw(tmp_path: Path) -> None:
    path, store = new_store(tmp_path, ("alpha", 60, 1))
    dense = searched(path)
    assert dense._index is not None and dense._index.exact
    add(store, "beta", 20, seed=2)
    assert_like_a_rebuild(dense, path)
    assert dense.builds == 1 and dense._index.exact and not saved_generations(path)
    add(store, "gamma", 30, seed=3)
    assert_like_a_rebuild(dense, path)
    assert dense.builds == 2 and not dense._index.exact and saved_generations(path)


def test_vector_index_masks_removed_rowids_and_keeps_the_mask_on_disk(tmp_path: Path) -> None:
    vectors = clustered(400)
    ids = np.arange(1, 401, dtype=np.int64)
    index = VectorIndex(DIMENSION, ids, vectors)
    assert index.remove(np.array([5, 6, 999])) == 2
    assert 5 not in {r for r, _ in index.search(vectors[4], 20)}
    index.add(np.array([5]), vectors[100:101])  # rowid 5 again, with another vector
    assert index.search(vectors[100], 2)[0][1] == pytest.approx(1.0, abs=1e-3)
    assert {r for r, _ in index.search(vectors[100], 2)} == {5, 101}
    assert index.search(vectors[4], 5, np.array([5, 6, 7])) == index.search(
        vectors[4], 5, np.array([5, 7])
    )
    with pytest.raises(ValueError, match="already live"):
        index.add(np.array([7]), vectors[:1])
    index.save(tmp_path / "i.faiss")
    loaded = VectorIndex.load(tmp_path / "i.faiss")
    assert loaded.live == 399 and loaded.size == 401 and loaded.max_rowid == 400
    assert loaded.search(vectors[4], 20) == index.search(vectors[4], 20)


def test_a_snapshot_sees_one_state_while_another_connection_writes(tmp_path: Path) -> None:
    path, _ = new_store(tmp_path, ("alpha", 20, 1))
    db = SQLiteDatabase(path)
    with db.snapshot():
        before = store_state(db)
        add(SQLiteStore(path, dimension=DIMENSION), "beta", 5, seed=2)
        assert store_state(db) == before
        assert sum(len(ids) for ids, _ in vector_pages(db, 0, DIMENSION)) == 20
    after = store_state(db)
    assert after.count == 25 and after.generation == before.generation + 1


CHILD = """
import json, sys
import numpy as np
from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.sqlite_vectors import DenseIndex
from ragcite.index.store import SearchFilters
dense = DenseIndex(SQLiteDatabase(sys.argv[1]))
query = np.frombuffer(bytes.fromhex(sys.argv[2]), dtype=np.float32)
hits = [rowid for rowid, _ in dense.search(query, 10, SearchFilters())]
print(json.dumps({"builds": dense.builds, "hits": hits}))
"""


def test_another_process_loads_the_saved_index_and_catches_up(tmp_path: Path) -> None:
    path, store = new_store(tmp_path, ("alpha", 300, 1))
    searched(path)
    add(store, "beta", 30, seed=2)
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), QUERIES[1].tobytes().hex()],
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(child.stdout.strip().splitlines()[-1])
    assert found == {"builds": 0, "hits": rebuilt_hits(path, QUERIES[1:2])[0]}


def test_two_saves_of_one_generation_never_mix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_vectors, "SAVE_AFTER", 10)
    path, store = new_store(tmp_path, ("alpha", 300, 1))
    searched(path)
    first, second = DenseIndex(SQLiteDatabase(path)), DenseIndex(SQLiteDatabase(path))
    second.search(QUERIES[0], 10, EVERYTHING)  # loaded before the next write
    add(store, "beta", 20, seed=2)
    first.search(QUERIES[0], 10, EVERYTHING)  # loads, then catches up on its own
    second.search(QUERIES[0], 10, EVERYTHING)
    first.close()
    second.close()
    assert saved_generations(path) == [first.generation]
    assert len(list(tmp_path.glob("s.db.dense-g*.faiss"))) == 2  # one per save, each whole
    third = DenseIndex(SQLiteDatabase(path))
    assert_like_a_rebuild(third, path)
    assert third.builds == 0 and third._index is not None and third._index.size == 320


def test_an_erased_chunks_vector_leaves_the_saved_index(tmp_path: Path) -> None:
    path, store = new_store(tmp_path, ("alpha", 300, 1), ("secret", 5, 7))
    dense = searched(path)
    store.erase_document("secret", erased_by="test")
    dense.search(QUERIES[0], 10, EVERYTHING)
    dense.close()  # the removal saved promptly
    loaded = VectorIndex.load(saved_index(path))
    assert int(loaded.dead.sum()) == 5
    held = pq_scan.stored_positions(loaded._index)  # the vectors left in the scan
    assert held.tolist() == np.flatnonzero(~loaded.dead).tolist()
