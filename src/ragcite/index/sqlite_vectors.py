"""Dense search for the embedded store: a faiss index derived from the stored vectors.

The index is rebuilt from the `chunks` rows whenever the store's generation moves
(another process may have written). An HNSW index (large stores: vector_index.py) is
also saved beside the store file (`<store>.dense-g<generation>.faiss` and its rowids), so
the next process of the same generation loads it in seconds instead of rebuilding it for
minutes; older generations' files are removed when a new one is saved. Filters become
the set of eligible rowids, read with the filter's SQL and handed to faiss as an ID
selector, so they apply inside the search; those sets are kept in a small LRU cache,
cleared whenever the index is rebuilt.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.sqlite_filters import filter_sql
from ragcite.index.sqlite_rows import CHUNKS_WITH_DOCUMENTS
from ragcite.index.store import SearchFilters
from ragcite.index.vector_index import VectorIndex

ELIGIBLE_CACHE_SIZE = 32
"""How many filter sets keep their eligible rowids between searches."""

VECTOR_PAGE = 20_000
"""Rows read at a time when the index is rebuilt."""

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
    """The store's vectors in faiss, kept in step with the store's generation."""

    def __init__(self, db: SQLiteDatabase, *, cache_size: int = ELIGIBLE_CACHE_SIZE) -> None:
        self._db = db
        self._index: VectorIndex | None = None
        self.generation = -1
        self.eligible = EligibleRowidCache(cache_size)
        self._eligible_generation = -1

    def search(
        self, vector: npt.NDArray[np.float32], k: int, filters: SearchFilters
    ) -> list[tuple[int, float]]:
        """(rowid, cosine) pairs of the eligible chunks, best first."""
        with self._db.lock:
            index = self._current()
            allowed = self._eligible_rowids(filters)
        return index.search(vector, k, allowed)

    def _current(self) -> VectorIndex:
        generation = self._db.generation()
        if self._index is None or generation != self.generation:
            self._index = self._saved(generation) or self._build(generation)
            self.generation = generation
            self.eligible.clear()
            self._eligible_generation = generation
        return self._index

    def _build(self, generation: int) -> VectorIndex:
        count, dimension = self._shape()
        index = VectorIndex.from_pages(dimension, count, self._pages(count, dimension))
        path = self._saved_path(generation)
        if not index.exact and path is not None:
            try:
                for old in path.parent.glob(f"{self._db.path.name}.dense-g*"):
                    old.unlink(missing_ok=True)
                partial = path.with_name(f"{path.name}.{os.getpid()}.part")
                index.save(partial)
                os.replace(f"{partial}.ids.npy", f"{path}.ids.npy")
                os.replace(partial, path)
            except (OSError, RuntimeError):
                pass  # only a cache: the next process rebuilds it
        return index

    def _saved(self, generation: int) -> VectorIndex | None:
        """The HNSW index saved for this generation, when it matches the stored rows."""
        path = self._saved_path(generation)
        if path is None or not path.exists():
            return None
        try:
            index = VectorIndex.load(path)
        except (OSError, RuntimeError, ValueError):
            return None
        last = self._db.query_one("SELECT MAX(rowid) FROM chunks")
        count, dimension = self._shape()
        fits = index.size == count and index.dimension == dimension
        return index if fits and index.size and last and int(index.ids[-1]) == last[0] else None

    def _saved_path(self, generation: int) -> Path | None:
        """Where the HNSW index for `generation` is kept: beside the store file."""
        if str(self._db.path) == ":memory:":
            return None
        return self._db.path.with_name(f"{self._db.path.name}.dense-g{generation}.faiss")

    def _shape(self) -> tuple[int, int]:
        count_row = self._db.query_one("SELECT COUNT(*) FROM chunks")
        first = self._db.query_one("SELECT vector FROM chunks LIMIT 1")
        return (int(count_row[0]) if count_row else 0), (len(first[0]) // 4 if first else 0)

    def _pages(
        self, count: int, dimension: int
    ) -> Iterator[tuple[Rowids, npt.NDArray[np.float32]]]:
        """The stored vectors in rowid order, `VECTOR_PAGE` at a time (at 1M chunks, holding
        every row at once would double the peak memory)."""
        filled, last = 0, -1
        while filled < count:
            rows = self._db.query(
                "SELECT rowid, vector FROM chunks WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (last, VECTOR_PAGE),
            )[: count - filled]
            if not rows:
                return
            ids = np.array([r[0] for r in rows], dtype=np.int64)
            flat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
            yield ids, flat.reshape(len(rows), dimension)
            filled, last = filled + len(rows), int(rows[-1][0])

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
