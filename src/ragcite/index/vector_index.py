"""The dense index derived from the store's vectors: exact up to a size, HNSW above.

SQLite stays the source of truth; this index follows it as it grows (sqlite_vectors.py):
new chunks' vectors are added (`add`), removed chunks are masked (`remove`: a "dead" flag
per position, applied as a filter in every search), and an HNSW index is kept on disk
beside the store so the next process loads it and catches up instead of rebuilding.

Up to `HNSW_THRESHOLD` vectors a flat inner-product scan is exact and a few ms. From
there on, faiss HNSW (M = 32, efConstruction = 80) over float16 vectors (half the
memory of float32, the same neighbours) with efSearch = 384: recall@10 against exact
search 0.96 at 300k chunks (0.935 with efSearch 128, 0.97 with 512; bench/scale.py
measures it, 1M is not measured yet). Building it is the cost: M = 16 or efConstruction
= 40 build 2-4x faster but reach only 0.84-0.91 at 100k. Filters arrive as the
allowed rowids and become a bitmap over the index's positions: HNSW searches under it
while at least `HNSW_FILTERED_SHARE` of the vectors pass, and a filter narrower than that
is answered by an exact scan of the allowed vectors (HNSW under a narrow filter walks
mostly forbidden nodes and may come back short).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

# One query at a time: faiss's OpenMP threads cost more than they save (measured on a
# shared 2-core machine: 0.15 ms with one thread vs 24 ms with two over 100 vectors).
faiss.omp_set_num_threads(1)

HNSW_THRESHOLD = 50_000
HNSW_NEIGHBOURS = 32
HNSW_EF_CONSTRUCTION = 80
HNSW_EF_SEARCH = 384
HNSW_FILTERED_SHARE = 0.25
BUILD_THREADS = 2
"""faiss threads while an HNSW index is built (inserts parallelise; searches do not)."""

Rowids = npt.NDArray[np.int64]
Matrix = npt.NDArray[np.float32]


class VectorIndex:
    """Inner-product search over normalised vectors, keyed by the chunks' SQLite rowids.

    Positions are never taken back: a removed rowid's position is masked (`dead`), and a
    rowid whose vector changed is removed and added again at a new position. `mutation`
    is held while vectors are added or removed and while the index is written to disk.
    """

    def __init__(self, dimension: int, ids: Rowids, vectors: Matrix):
        if vectors.shape != (len(ids), dimension):
            raise ValueError(f"expected {len(ids)} vectors of {dimension}, got {vectors.shape}")
        self._setup(dimension, len(ids))
        self._add(ids, vectors)

    @classmethod
    def from_pages(
        cls, dimension: int, size: int, pages: Iterable[tuple[Rowids, Matrix]]
    ) -> VectorIndex:
        """An index of `size` vectors added a page at a time (no full float32 copy held);
        HNSW from `HNSW_THRESHOLD` vectors on, exact below."""
        index = cls.__new__(cls)
        index._setup(dimension, size)
        for ids, vectors in pages:
            index._add(ids, vectors)
        if len(index.ids) != size:
            raise ValueError(f"expected {size} vectors, got {len(index.ids)}")
        return index

    @classmethod
    def load(cls, path: Path) -> VectorIndex:
        """An index written by `save` (its dead mask optional: files written before it had
        none, every position live)."""
        index = cls.__new__(cls)
        index._index = faiss.read_index(str(path))
        index.dimension = index._index.d
        index.ids = np.ascontiguousarray(np.load(f"{path}.ids.npy", allow_pickle=False))
        dead_path = Path(f"{path}.dead.npy")
        if dead_path.exists():
            index.dead = np.ascontiguousarray(np.load(dead_path, allow_pickle=False))
        else:
            index.dead = np.zeros(len(index.ids), dtype=bool)
        if not index._index.ntotal == len(index.ids) == len(index.dead):
            raise ValueError(
                f"{path}: {index._index.ntotal} vectors but {len(index.ids)} rowids and "
                f"{len(index.dead)} dead flags"
            )
        if index.ids.dtype != np.int64 or index.dead.dtype != np.bool_:
            raise ValueError(f"{path}: rowids or dead flags of the wrong type")
        index.exact = not isinstance(index._index, faiss.IndexHNSW)
        index._derive()
        return index

    def save(self, path: Path) -> None:
        """Write the index, its rowids and its dead mask (`path`, `path`.ids.npy,
        `path`.dead.npy)."""
        with self.mutation:
            faiss.write_index(self._index, str(path))
            np.save(f"{path}.ids.npy", self.ids)
            np.save(f"{path}.dead.npy", self.dead)

    @property
    def size(self) -> int:
        """Positions held, live or dead."""
        return len(self.ids)

    @property
    def live(self) -> int:
        """Positions searched (not removed)."""
        return self.size - self._dead_count

    @property
    def max_rowid(self) -> int:
        """The largest rowid ever added (0 when empty)."""
        return self._max_rowid

    def max_live_rowid(self) -> int:
        """The largest rowid searched now (0 when none is)."""
        live = self.ids[~self.dead]
        return int(live.max()) if len(live) else 0

    def dead_share(self) -> float:
        return self._dead_count / self.size if self.size else 0.0

    def add(self, ids: Rowids, vectors: Matrix) -> None:
        """Add vectors under rowids that are not live in the index (new rowids, or rowids
        removed before: a changed vector)."""
        if vectors.shape != (len(ids), self.dimension):
            raise ValueError(
                f"expected {len(ids)} vectors of {self.dimension}, got {vectors.shape}"
            )
        if not len(ids):
            return
        ids = np.asarray(ids, dtype=np.int64)
        if np.any(np.isin(self.ids[~self.dead], ids)):
            raise ValueError("a rowid added is already live in the index: remove it first")
        with self.mutation:
            self._append(ids, vectors)

    def remove(self, ids: Rowids) -> int:
        """Mask the live positions of `ids` (rowids absent are skipped) and zero their
        vectors; how many."""
        if not len(ids) or not self.size:
            return 0
        with self.mutation:
            hit = np.isin(self.ids, np.asarray(ids, dtype=np.int64)) & ~self.dead
            self.dead[hit] = True
            count = int(hit.sum())
            self._dead_count += count
            self._forget_bitmaps()
            self._zero_vectors(np.flatnonzero(hit))
        return count

    def _zero_vectors(self, positions: npt.NDArray[np.intp]) -> None:
        """Overwrite the stored vectors at `positions` with zeros: an erased chunk's vector
        leaves the index (and the file it is saved to), not only its search results."""
        if not len(positions):
            return
        storage: Any = faiss.downcast_index(self._index if self.exact else self._index.storage)
        width = storage.code_size
        codes = faiss.rev_swig_ptr(storage.codes.data(), storage.codes.size())
        for position in positions.tolist():
            codes[position * width : (position + 1) * width] = 0

    def _setup(self, dimension: int, size: int) -> None:
        self.dimension = dimension
        self.exact = size < HNSW_THRESHOLD
        self.ids: Rowids = np.empty(0, dtype=np.int64)
        self.dead: npt.NDArray[np.bool_] = np.empty(0, dtype=bool)
        if self.exact:
            self._index: Any = faiss.IndexFlatIP(dimension)
        else:
            self._index = faiss.IndexHNSWSQ(
                dimension,
                faiss.ScalarQuantizer.QT_fp16,  # type: ignore[arg-type]  # stubs miss it
                HNSW_NEIGHBOURS,
                faiss.METRIC_INNER_PRODUCT,
            )
            self._index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
            self._index.hnsw.efSearch = HNSW_EF_SEARCH
            self._index.is_trained = True  # float16 needs no training
        self._derive()

    def _derive(self) -> None:
        """The bookkeeping kept from `ids` and `dead`."""
        self.mutation = threading.RLock()
        self._dead_count = int(self.dead.sum())
        self._max_rowid = int(self.ids.max()) if len(self.ids) else 0
        self._ascending = bool(np.all(np.diff(self.ids) > 0))
        self._bitmaps: OrderedDict[int, tuple[Rowids, npt.NDArray[np.uint8]]] = OrderedDict()
        self._live_bitmap: npt.NDArray[np.uint8] | None = None

    def _forget_bitmaps(self) -> None:
        self._bitmaps.clear()
        self._live_bitmap = None

    def _add(self, ids: Rowids, vectors: Matrix) -> None:
        if len(ids) and len(self.ids) and ids[0] <= self.ids[-1]:
            raise ValueError("rowids must be added in ascending order")
        self._append(ids, vectors)

    def _append(self, ids: Rowids, vectors: Matrix) -> None:
        if not len(ids):
            return
        if not self.exact:
            faiss.omp_set_num_threads(BUILD_THREADS)
        try:
            self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        finally:
            faiss.omp_set_num_threads(1)
        ids = ids.astype(np.int64)
        ascending = bool(np.all(np.diff(ids) > 0)) and (
            not len(self.ids) or ids[0] > self._max_rowid
        )
        self._ascending = self._ascending and ascending
        self.ids = np.concatenate([self.ids, ids])
        self.dead = np.concatenate([self.dead, np.zeros(len(ids), dtype=bool)])
        self._max_rowid = max(self._max_rowid, int(ids.max()))
        self._forget_bitmaps()

    def search(
        self, query: Matrix, k: int, allowed_ids: Rowids | None = None
    ) -> list[tuple[int, float]]:
        """(rowid, cosine) pairs, best first; only live ones, and only `allowed_ids` when
        given."""
        if self.live == 0 or k <= 0:
            return []
        if allowed_ids is not None and len(allowed_ids) == 0:
            return []
        query = query.reshape(1, -1).astype(np.float32)
        bitmap, share = self._selection(allowed_ids)
        params: Any = None
        index = self._index
        if bitmap is not None:
            selector = faiss.IDSelectorBitmap(self.size, faiss.swig_ptr(bitmap))
            if self.exact:
                params = faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]
            elif share >= HNSW_FILTERED_SHARE * self.live:
                params = faiss.SearchParametersHNSW(  # type: ignore[attr-defined]
                    sel=selector, efSearch=max(HNSW_EF_SEARCH, k)
                )
            else:  # a narrow filter: scan the allowed vectors exactly
                index = self._index.storage
                params = faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]
        elif not self.exact:
            params = faiss.SearchParametersHNSW(efSearch=max(HNSW_EF_SEARCH, k))  # type: ignore[attr-defined]
        scores, positions = index.search(query, k, params=params)
        return [
            (int(self.ids[p]), float(s))
            for p, s in zip(positions[0], scores[0], strict=True)
            if p >= 0
        ]

    def _selection(self, allowed_ids: Rowids | None) -> tuple[npt.NDArray[np.uint8] | None, int]:
        """The bitmap of the positions to search (None: all of them) and how many rowids
        the filter allows."""
        if allowed_ids is None or len(allowed_ids) >= self.size:
            if not self._dead_count:
                return None, self.live
            if self._live_bitmap is None:
                self._live_bitmap = np.packbits(~self.dead, bitorder="little")
            return self._live_bitmap, self.live
        return self._bitmap(allowed_ids), len(allowed_ids)

    def _bitmap(self, allowed_ids: Rowids) -> npt.NDArray[np.uint8]:
        """The live positions of `allowed_ids` as a little-endian bitmap (the last 8 kept: a
        filter's rowids come from one cached array, so its identity is the key)."""
        found = self._bitmaps.get(id(allowed_ids))
        if found is not None and found[0] is allowed_ids:
            return found[1]
        allowed = np.asarray(allowed_ids, dtype=np.int64)
        if self._ascending:  # one position per rowid: binary search
            positions = np.searchsorted(self.ids, allowed)
            inside = positions < self.size
            positions, allowed = positions[inside], allowed[inside]
            bits = np.zeros(self.size, dtype=bool)
            bits[positions[self.ids[positions] == allowed]] = True
        else:  # rowids added again after a change: their old positions are dead
            bits = np.isin(self.ids, allowed)
        bits &= ~self.dead
        bitmap = np.packbits(bits, bitorder="little")
        self._bitmaps[id(allowed_ids)] = (allowed_ids, bitmap)
        while len(self._bitmaps) > 8:
            self._bitmaps.popitem(last=False)
        return bitmap
