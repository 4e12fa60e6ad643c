"""The dense index derived from the store's vectors: exact up to a size, HNSW above.

SQLite stays the source of truth; this index is rebuilt from it whenever the
store's generation moves past the one the index was built at.
"""

from __future__ import annotations

from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

# One query at a time: faiss's OpenMP threads cost more than they save (measured on a
# shared 2-core machine: 0.15 ms with one thread vs 24 ms with two over 100 vectors).
faiss.omp_set_num_threads(1)

# Exact search stays fast (single-digit ms) up to a few hundred thousand vectors.
HNSW_THRESHOLD = 300_000
HNSW_NEIGHBOURS = 32
HNSW_EF_SEARCH = 128


class VectorIndex:
    """Inner-product search over normalised vectors, keyed by the chunks' SQLite rowids."""

    def __init__(
        self, dimension: int, ids: npt.NDArray[np.int64], vectors: npt.NDArray[np.float32]
    ):
        if vectors.shape != (len(ids), dimension):
            raise ValueError(f"expected {len(ids)} vectors of {dimension}, got {vectors.shape}")
        self.dimension = dimension
        self.size = len(ids)
        self.exact = self.size < HNSW_THRESHOLD
        base: faiss.Index
        if self.exact:
            base = faiss.IndexFlatIP(dimension)
        else:
            base = faiss.IndexHNSWFlat(dimension, HNSW_NEIGHBOURS, faiss.METRIC_INNER_PRODUCT)
            base.hnsw.efSearch = HNSW_EF_SEARCH
        self._index = faiss.IndexIDMap2(base)
        if self.size:
            self._index.add_with_ids(np.ascontiguousarray(vectors), ids)

    def search(
        self,
        query: npt.NDArray[np.float32],
        k: int,
        allowed_ids: npt.NDArray[np.int64] | None = None,
    ) -> list[tuple[int, float]]:
        """(rowid, cosine) pairs, best first; only `allowed_ids` when given."""
        if self.size == 0 or k <= 0:
            return []
        if allowed_ids is not None and len(allowed_ids) == 0:
            return []
        params: Any = None
        if allowed_ids is not None and len(allowed_ids) < self.size:
            selector = faiss.IDSelectorBatch(allowed_ids)
            # faiss's generated stubs do not know the selector keywords.
            params = (
                faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]
                if self.exact
                else faiss.SearchParametersHNSW(  # type: ignore[attr-defined]
                    sel=selector, efSearch=HNSW_EF_SEARCH
                )
            )
        scores, ids = self._index.search(query.reshape(1, -1).astype(np.float32), k, params=params)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]
