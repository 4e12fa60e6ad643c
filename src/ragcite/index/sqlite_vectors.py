"""Dense search for the embedded store: a faiss index derived from the stored vectors.

The index is rebuilt from the `chunks` rows whenever the store's generation moves
(another process may have written). Filters become the set of eligible rowids, read
with the filter's SQL and handed to faiss as an ID selector, so they apply inside the
search; those sets are kept in a small LRU cache, cleared whenever the index is rebuilt.
"""

from __future__ import annotations

from collections import OrderedDict

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
            ids, vectors = self._stored_vectors()
            self._index = VectorIndex(vectors.shape[1], ids, vectors)
            self.generation = generation
            self.eligible.clear()
        return self._index

    def _stored_vectors(self) -> tuple[Rowids, npt.NDArray[np.float32]]:
        """Every stored vector, read in pages into one array (at 1M chunks, holding all rows
        as Python objects at once would double the peak memory)."""
        count_row = self._db.query_one("SELECT COUNT(*) FROM chunks")
        first = self._db.query_one("SELECT vector FROM chunks LIMIT 1")
        count = int(count_row[0]) if count_row else 0
        dimension = len(first[0]) // 4 if first else 0
        ids = np.empty(count, dtype=np.int64)
        vectors = np.empty((count, dimension), dtype=np.float32)
        filled, last = 0, -1
        while filled < count:
            rows = self._db.query(
                "SELECT rowid, vector FROM chunks WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (last, VECTOR_PAGE),
            )
            if not rows:
                break
            rows = rows[: count - filled]
            ids[filled : filled + len(rows)] = [r[0] for r in rows]
            flat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
            vectors[filled : filled + len(rows)] = flat.reshape(len(rows), dimension)
            filled, last = filled + len(rows), int(rows[-1][0])
        return ids[:filled], vectors[:filled]

    def _eligible_rowids(self, filters: SearchFilters) -> Rowids:
        found = self.eligible.get(filters)
        if found is None:
            where, args = filter_sql(filters)
            rows = self._db.query(
                f"SELECT c.rowid FROM {CHUNKS_WITH_DOCUMENTS} WHERE {where}", args
            )
            found = np.array([r[0] for r in rows], dtype=np.int64)
            self.eligible.put(filters, found)
        return found
