"""Dense search for the embedded store: a faiss index that follows the stored vectors.

When the store's generation moves (this process or another wrote), the index catches up
with the rows instead of being rebuilt: in one read transaction (a snapshot, so the
generation and the rows agree while another process writes) it masks the rowids logged
in `chunk_removals` since the last removal it applied, reads again those of them that
still exist (a changed vector, or a rowid SQLite handed out again), and adds the rows
above the largest rowid it still searches. It is rebuilt from every row only when it
cannot catch up: no usable file (a damaged one, or an HNSW one of an earlier version: a
one-line warning), another store's file (`store_id`), another vector length, more than
`MAX_DEAD_SHARE` of its positions masked, a count of rows it cannot account for, or an
exact index grown past `APPROXIMATE_THRESHOLD`. An approximate index is trained on a
random sample of the stored vectors (`sample_vectors`).

An approximate index (large stores: vector_index.py) is also kept beside the store file
(dense_files.py), so the next process loads it and catches up in seconds instead of
rebuilding for minutes. It is rewritten in a background thread once `SAVE_AFTER` vectors
were added since it was written, and after any removal (a removed chunk is not searched
either way, but the next process then need not mask it again). Filters become the set
of eligible rowids, read with the filter's SQL and handed to faiss as an ID selector, so
they apply inside the search; those sets are kept in a small LRU cache, cleared whenever
the generation moves.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import OrderedDict

import numpy as np
import numpy.typing as npt

from ragcite.index import pq_scan, vector_index
from ragcite.index.dense_changes import (
    StoreState,
    removed_since,
    sample_vectors,
    store_state,
    vector_pages,
    vectors_of,
)
from ragcite.index.dense_files import (
    DamagedIndexFile,
    IndexState,
    MissingIndexFile,
    legacy_index_path,
    read_index,
    remove_saved,
    saved_generations,
    write_index,
    write_state,
)
from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.sqlite_filters import filter_sql
from ragcite.index.sqlite_rows import CHUNKS_WITH_DOCUMENTS
from ragcite.index.store import SearchFilters
from ragcite.index.vector_index import VectorIndex

log = logging.getLogger(__name__)

ELIGIBLE_CACHE_SIZE = 32
"""How many filter sets keep their eligible rowids between searches."""

SAVE_AFTER = 2_000
"""Vectors added since the saved approximate index was written before it is written again."""

MAX_DEAD_SHARE = 0.2
"""Share of masked positions above which the index is rebuilt (masked positions still
cost search time and memory)."""

Rowids = npt.NDArray[np.int64]


class EligibleRowidCache:
    """Least-recently-used map from filters to the rowids they allow, `capacity` entries."""

    def __init__(self, capacity: int = ELIGIBLE_CACHE_SIZE) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be >= 1, but got {capacity}")
        self.capacity = capacity
        self._entries: OrderedDict[SearchFilters, Rowids] = OrderedDict()

    def get(self, filters: SearchFilters) -> Rowids | None:
        found = self._entries.get(filters)
        if found is not None:
            self._entries.move_to_end(filters)
        return found

    def put(self, filters: SearchFilters, rowids: Rowids) -> None:
        self._entries[filters] = rowids
        self._entries.move_to_end(filters)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, filters: object) -> bool:
        return filters in self._entries


class DenseIndex:
    """The store's vectors in faiss, kept in step with the store's generation.

    `builds` counts the indexes built from every row (not loaded, not caught up)."""

    def __init__(self, db: SQLiteDatabase, *, cache_size: int = ELIGIBLE_CACHE_SIZE) -> None:
        self._db = db
        self._index: VectorIndex | None = None
        self._state: IndexState | None = None
        self.generation = -1
        self.builds = 0
        self.eligible = EligibleRowidCache(cache_size)
        self._eligible_generation = -1
        self._unsaved = 0
        self._unsaved_removals = False
        self._saver: threading.Thread | None = None

    def search(
        self, vector: npt.NDArray[np.float32], k: int, filters: SearchFilters
    ) -> list[tuple[int, float]]:
        """(rowid, cosine) pairs of the eligible chunks, best first. The scan holds the
        index's own lock, not the store's, so a keyword search may run meanwhile."""
        with self._db.lock:
            index = self._current()
            allowed = self._eligible_rowids(filters)
        with index.mutation:  # no catch-up of another thread changes the index meanwhile
            return index.search(vector, k, allowed)

    def close(self) -> None:
        """Wait for a save in progress (the files on disk are then whole)."""
        saver = self._saver
        if saver is not None:
            saver.join()

    def _current(self) -> VectorIndex:
        if self._index is not None and self._db.generation() == self.generation:
            return self._index
        with self._db.snapshot():
            store = store_state(self._db)
            index = self._index
            if index is None:
                index = self._load(store)
            if index is None or not self._catch_up(index, store):
                index = self._build(store)
        self._index = index
        self.generation = store.generation
        self.eligible.clear()
        self._eligible_generation = store.generation
        return index

    def _load(self, store: StoreState) -> VectorIndex | None:
        """The newest saved index this store can catch up from (None: none fits)."""
        if not self._on_disk:
            return None
        for _ in range(3):  # another process may remove files as it saves newer ones
            try:
                return self._load_newest(store)
            except MissingIndexFile:
                continue
            except DamagedIndexFile as exc:
                log.warning("the saved dense index is damaged or outdated (%s); rebuilding it", exc)
                return None
        return None

    def _load_newest(self, store: StoreState) -> VectorIndex | None:
        generations = [g for g in saved_generations(self._db.path) if g <= store.generation]
        if not generations:
            return None
        generation = generations[0]
        index, state = read_index(self._db.path, generation)
        if state is None:  # the older layout: usable only as it stands
            if not _matches_exactly(index, generation, store):
                return None
            state = IndexState(store.store_id, store.removal_seq, store.generation)
            with contextlib.suppress(OSError):  # upgraded in memory all the same
                write_state(self._db.path, legacy_index_path(self._db.path, generation), state)
        self._state = state
        self._unsaved, self._unsaved_removals = 0, False
        return index

    def _catch_up(self, index: VectorIndex, store: StoreState) -> bool:
        """Bring `index` up to `store` in place; False when it has to be rebuilt instead."""
        state = self._state
        if state is None or not _may_catch_up(index, state, store):
            return False
        with index.mutation:
            removed = removed_since(self._db, state.removal_seq)
            masked = index.remove(removed)
            # SQLite gives a new row the largest rowid + 1, and the largest live rowid was
            # not removed since: every row added since lies above it, or (a rowid reused
            # after its row was removed, or a changed vector) is in the removal log.
            newest = index.max_live_rowid()
            again = removed[removed <= newest]
            added = 0
            if len(again):
                ids, vectors = vectors_of(self._db, again, store.dimension)
                index.add(ids, vectors)
                added += len(ids)
            for ids, vectors in vector_pages(self._db, newest, store.dimension):
                index.add(ids, vectors)
                added += len(ids)
        if index.live != store.count or index.dead_share() > MAX_DEAD_SHARE:
            return False
        if index.exact and index.live >= vector_index.APPROXIMATE_THRESHOLD:
            return False  # grown past exact search: build the approximate index once
        self._state = IndexState(store.store_id, store.removal_seq, store.generation)
        self._unsaved += added
        self._unsaved_removals = self._unsaved_removals or masked > 0
        if not index.exact and (self._unsaved >= SAVE_AFTER or self._unsaved_removals):
            self._save_in_background(index, self._state)
        return True

    def _build(self, store: StoreState) -> VectorIndex:
        pages = vector_pages(self._db, 0, store.dimension)
        training = None
        if store.count >= vector_index.APPROXIMATE_THRESHOLD:
            training = sample_vectors(self._db, store, pq_scan.training_size(store.count))
        index = VectorIndex.from_pages(store.dimension, store.count, pages, training)
        self.builds += 1
        self._state = IndexState(store.store_id, store.removal_seq, store.generation)
        self._unsaved, self._unsaved_removals = 0, False
        if not index.exact and self._on_disk:
            self.close()  # a save of the index this one replaces
            try:
                write_index(self._db.path, index, self._state)
                remove_saved(self._db.path, keep=store.generation)
            except (OSError, RuntimeError) as exc:  # only a cache: the next process rebuilds
                log.warning("could not save the dense index beside %s (%s)", self._db.path, exc)
        return index

    def _save_in_background(self, index: VectorIndex, state: IndexState) -> None:
        if self._saver is not None and self._saver.is_alive():
            return  # the next catch-up saves again
        self._unsaved, self._unsaved_removals = 0, False
        self._saver = threading.Thread(
            target=_save, args=(self._db, index, state), name="ragcite-dense-save", daemon=True
        )
        self._saver.start()

    @property
    def _on_disk(self) -> bool:
        """Whether the store is a file (an approximate index is saved beside it)."""
        return str(self._db.path) != ":memory:"

    def eligible_rowids(self, filters: SearchFilters) -> Rowids:
        """The rowids of the chunks `filters` allow, sorted (cached while the generation
        holds; keyword search filters its ranking with them too)."""
        with self._db.lock:
            generation = self._db.generation()
            if generation != self._eligible_generation:
                self.eligible.clear()
                self._eligible_generation = generation
            return self._eligible_rowids(filters)

    def _eligible_rowids(self, filters: SearchFilters) -> Rowids:
        found = self.eligible.get(filters)
        if found is None:
            where, args = filter_sql(filters)
            rows = self._db.query(
                f"SELECT c.rowid FROM {CHUNKS_WITH_DOCUMENTS} WHERE {where}", args
            )
            found = np.sort(np.array([r[0] for r in rows], dtype=np.int64))
            self.eligible.put(filters, found)
        return found


def _matches_exactly(index: VectorIndex, generation: int, store: StoreState) -> bool:
    """An index file of the older layout fits only the generation it was written at."""
    return (
        generation == store.generation
        and index.size == index.live == store.count > 0
        and index.dimension == store.dimension
        and index.max_rowid == store.max_rowid
    )


def _may_catch_up(index: VectorIndex, state: IndexState, store: StoreState) -> bool:
    """Whether the removal log since `state` brings `index` up to `store`."""
    return (
        state.store_id == store.store_id
        and state.removal_seq <= store.removal_seq
        and state.generation <= store.generation
        and index.dimension == store.dimension
        and store.count > 0
    )


def _save(db: SQLiteDatabase, index: VectorIndex, state: IndexState) -> None:
    try:
        write_index(db.path, index, state)
    except (OSError, RuntimeError) as exc:  # only a cache: the next process catches up more
        log.warning("could not save the dense index beside %s (%s)", db.path, exc)
