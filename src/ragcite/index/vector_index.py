"""The dense index derived from the store's vectors: exact up to a size, HNSW above.

SQLite stays the source of truth; this index is rebuilt from it whenever the
store's generation moves past the one the index was built at (and, for HNSW, kept
on disk beside the store so the next process loads it instead: sqlite_vectors.py).

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
    """Inner-product search over normalised vectors, keyed by the chunks' SQLite rowids
    (added in ascending order)."""

    def __init__(self, dimension: int, ids: Rowids, vectors: Matrix):
        if vectors.shape != (len(ids), dimension):
            raise ValueError(f"expected {len(ids)} vectors of {dimension}, got {vectors.shape}")
        self._setup(dimension, len(ids))
        self._add(ids, vectors)

    @classmethod
    def from_pages(
        cls, dimension: int, size: int, pages: Iterable[tuple[Rowids, Matrix]]
    ) -> VectorIndex:
        """An index of `size` vectors added a page at a time (no full float32 copy held)."""
        index = cls.__new__(cls)
        index._setup(dimension, size)
        for ids, vectors in pages:
            index._add(ids, vectors)
        if len(index.ids) != size:
            raise ValueError(f"expected {size} vectors, got {len(index.ids)}")
        return index

    @classmethod
    def load(cls, path: Path) -> VectorIndex:
        """An HNSW index written by `save`."""
        index = cls.__new__(cls)
        index._index = faiss.read_index(str(path))
        index.dimension = index._index.d
        index.ids = np.ascontiguousarray(np.load(f"{path}.ids.npy", allow_pickle=False))
        if index._index.ntotal != len(index.ids):
            raise ValueError(f"{path}: {index._index.ntotal} vectors but {len(index.ids)} rowids")
        index.size = len(index.ids)
        index.exact = not isinstance(index._index, faiss.IndexHNSW)
        index._bitmaps = OrderedDict()
        return index

    def save(self, path: Path) -> None:
        """Write the index (HNSW only: an exact one is quicker to rebuild than to read)."""
        faiss.write_index(self._index, str(path))
        np.save(f"{path}.ids.npy", self.ids)

    def _setup(self, dimension: int, size: int) -> None:
        self.dimension = dimension
        self.size = size
        self.exact = size < HNSW_THRESHOLD
        self.ids: Rowids = np.empty(0, dtype=np.int64)
        self._bitmaps: OrderedDict[int, tuple[Rowids, npt.NDArray[np.uint8]]] = OrderedDict()
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

    def _add(self, ids: Rowids, vectors: Matrix) -> None:
        if not len(ids):
            return
        if len(self.ids) and ids[0] <= self.ids[-1]:
            raise ValueError("rowids must be added in ascending order")
        if not self.exact:
            faiss.omp_set_num_threads(BUILD_THREADS)
        try:
            self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        finally:
            faiss.omp_set_num_threads(1)
        self.ids = np.concatenate([self.ids, ids.astype(np.int64)])

    def search(
        self, query: Matrix, k: int, allowed_ids: Rowids | None = None
    ) -> list[tuple[int, float]]:
        """(rowid, cosine) pairs, best first; only `allowed_ids` when given."""
        if self.size == 0 or k <= 0:
            return []
        if allowed_ids is not None and len(allowed_ids) == 0:
            return []
        query = query.reshape(1, -1).astype(np.float32)
        params: Any = None
        index = self._index
        if allowed_ids is not None and len(allowed_ids) < self.size:
            selector = faiss.IDSelectorBitmap(self.size, faiss.swig_ptr(self._bitmap(allowed_ids)))
            if self.exact:
                params = faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]
            elif len(allowed_ids) >= HNSW_FILTERED_SHARE * self.size:
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

    def _bitmap(self, allowed_ids: Rowids) -> npt.NDArray[np.uint8]:
        """The positions of `allowed_ids` as a little-endian bitmap (the last 8 kept: a
        filter's rowids come from one cached array, so its identity is the key)."""
        found = self._bitmaps.get(id(allowed_ids))
        if found is not None and found[0] is allowed_ids:
            return found[1]
        allowed = np.asarray(allowed_ids, dtype=np.int64)
        positions = np.searchsorted(self.ids, allowed)
        inside = positions < self.size
        positions, allowed = positions[inside], allowed[inside]
        bits = np.zeros(self.size, dtype=bool)
        bits[positions[self.ids[positions] == allowed]] = True
        bitmap = np.packbits(bits, bitorder="little")
        self._bitmaps[id(allowed_ids)] = (allowed_ids, bitmap)
        while len(self._bitmaps) > 8:
            self._bitmaps.popitem(last=False)
        return bitmap
