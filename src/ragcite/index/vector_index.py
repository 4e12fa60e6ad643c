"""The dense index derived from the store's vectors: exact up to a size, approximate above.

SQLite stays the source of truth; this index follows it as it grows (sqlite_vectors.py):
new chunks' vectors are added (`add`), removed chunks are masked (`remove`: a "dead" flag
per position, their vectors taken out of the index), and the approximate index is kept on
disk beside the store so the next process loads it and catches up instead of rebuilding.

Up to `APPROXIMATE_THRESHOLD` vectors a flat inner-product scan is exact and a few ms.
From there on, a 4-bit product-quantised scan of every vector whose best candidates are
re-ranked exactly from float16 copies (pq_scan.py: recall@10 against exact search 1.0 at
100k chunks and 0.98 at 1M, bench/scale.py). It builds in 15 s at 1M chunks where the
HNSW index used before took 430 s and reached 0.90 (docs/bench/scale.json); an HNSW
file saved by that code is rebuilt (`OutdatedIndexFile`). Filters arrive as the
allowed rowids and become a bitmap over the index's positions, applied inside the scan:
every allowed vector is scanned, so a narrow filter never comes back short, and one that
allows no more than `pq_scan.RERANK` vectors is answered exactly.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

from ragcite.index import pq_scan

# One query at a time: faiss's OpenMP threads cost more than they save (measured on a
# shared 2-core machine: 0.15 ms with one thread vs 24 ms with two over 100 vectors).
faiss.omp_set_num_threads(1)

APPROXIMATE_THRESHOLD = 50_000
BUILD_THREADS = 2
"""faiss threads while an approximate index is trained or filled (searches use one)."""

Rowids = npt.NDArray[np.int64]
Matrix = npt.NDArray[np.float32]


class OutdatedIndexFile(ValueError):
    """A saved index of a kind this version no longer builds (HNSW): rebuild it."""


class VectorIndex:
    """Inner-product search over normalised vectors, keyed by the chunks' SQLite rowids.

    Positions are never taken back: a removed rowid's position is masked (`dead`), and a
    rowid whose vector changed is removed and added again at a new position. `mutation`
    is held while vectors are added or removed and while the index is written to disk.
    """

    def __init__(self, dimension: int, ids: Rowids, vectors: Matrix):
        if vectors.shape != (len(ids), dimension):
            raise ValueError(f"expected {len(ids)} vectors of {dimension}, got {vectors.shape}")
        self._setup(dimension, len(ids), vectors)
        self._add(ids, vectors)

    @classmethod
    def from_pages(
        cls,
        dimension: int,
        size: int,
        pages: Iterable[tuple[Rowids, Matrix]],
        training: Matrix | None = None,
    ) -> VectorIndex:
        """An index of `size` vectors added a page at a time (no full float32 copy held);
        approximate from `APPROXIMATE_THRESHOLD` vectors on, trained on `training` (a
        sample of the vectors: `pq_scan.training_size`) or, without it, on the first pages."""
        index = cls.__new__(cls)
        pages = iter(pages)
        first: list[tuple[Rowids, Matrix]] = []
        if size >= APPROXIMATE_THRESHOLD and training is None:
            first, training = _first_vectors(pages, pq_scan.training_size(size))
        index._setup(dimension, size, training)
        for ids, vectors in itertools.chain(first, pages):
            index._add(ids, vectors)
        if len(index.ids) != size:
            raise ValueError(f"expected {size} vectors, got {len(index.ids)}")
        return index

    @classmethod
    def load(cls, path: Path) -> VectorIndex:
        """An index written by `save` (its dead mask optional: files written before it had
        none, every position live)."""
        index = cls.__new__(cls)
        raw = faiss.read_index(str(path))
        if isinstance(raw, faiss.IndexHNSW):
            raise OutdatedIndexFile(f"{path}: an HNSW index of an earlier version")
        if not isinstance(raw, faiss.IndexFlat) and not pq_scan.is_scan(raw):
            raise ValueError(f"{path}: not an index this version writes ({type(raw).__name__})")
        index.exact = isinstance(raw, faiss.IndexFlat)
        index._index = raw if index.exact else pq_scan.RerankedPQIndex.load(path, raw)
        index.dimension = raw.d
        index.ids = np.ascontiguousarray(np.load(f"{path}.ids.npy", allow_pickle=False))
        dead_path = Path(f"{path}.dead.npy")
        if dead_path.exists():
            index.dead = np.ascontiguousarray(np.load(dead_path, allow_pickle=False))
        else:
            index.dead = np.zeros(len(index.ids), dtype=bool)
        if index.ids.dtype != np.int64 or index.dead.dtype != np.bool_:
            raise ValueError(f"{path}: rowids or dead flags of the wrong type")
        held = raw.ntotal if index.exact else index._index.size
        scanned = len(index.ids) if index.exact else int((~index.dead).sum())
        if not held == len(index.ids) == len(index.dead) or raw.ntotal != scanned:
            raise ValueError(
                f"{path}: {held} vectors ({raw.ntotal} searched) but {len(index.ids)} "
                f"rowids and {len(index.dead)} dead flags"
            )
        index._derive()
        return index

    def save(self, path: Path) -> None:
        """Write the index, its rowids and its dead mask (`path`, `path`.ids.npy,
        `path`.dead.npy; an approximate index's float16 copy: `path`.vectors)."""
        with self.mutation:
            if self.exact:
                faiss.write_index(self._index, str(path))
            else:
                self._index.save(path)
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
        """Mask the live positions of `ids` (rowids absent are skipped) and take their
        vectors out of the index; how many."""
        if not len(ids) or not self.size:
            return 0
        with self.mutation:
            hit = np.isin(self.ids, np.asarray(ids, dtype=np.int64)) & ~self.dead
            self.dead[hit] = True
            count = int(hit.sum())
            self._dead_count += count
            self._forget_bitmaps()
            self._erase_vectors(np.flatnonzero(hit))
        return count

    def _erase_vectors(self, positions: npt.NDArray[np.intp]) -> None:
        """Take the vectors at `positions` out of the index (approximate) or overwrite
        them with zeros (exact: positions are implicit): an erased chunk's vector leaves
        the index and the file it is saved to, not only its search results."""
        if not self.exact:
            self._index.remove(positions.astype(np.int64))
            return
        if not len(positions):
            return
        width = self._index.code_size
        codes = faiss.rev_swig_ptr(self._index.codes.data(), self._index.codes.size())
        for position in positions.tolist():
            codes[position * width : (position + 1) * width] = 0

    def _setup(self, dimension: int, size: int, training: Matrix | None) -> None:
        self.dimension = dimension
        self.exact = size < APPROXIMATE_THRESHOLD
        self.ids: Rowids = np.empty(0, dtype=np.int64)
        self.dead: npt.NDArray[np.bool_] = np.empty(0, dtype=bool)
        if self.exact:
            self._index: Any = faiss.IndexFlatIP(dimension)
        else:
            if training is None or training.shape[1:] != (dimension,):
                raise ValueError(f"an index of {size} vectors needs training vectors")
            with _build_threads():
                self._index = pq_scan.RerankedPQIndex.trained(dimension, size, training)
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
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if self.exact:
            self._index.add(vectors)
        else:
            with _build_threads():
                self._index.add(vectors)
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
        bitmap = self._selection(allowed_ids)
        selector = None
        if bitmap is not None:
            selector = faiss.IDSelectorBitmap(self.size, faiss.swig_ptr(bitmap))
        if self.exact:
            params = None if selector is None else faiss.SearchParameters(sel=selector)  # type: ignore[call-arg]
            found_scores, found = self._index.search(query, k, params=params)
            scores, positions = found_scores[0], found[0]
        else:
            scores, positions = self._index.search(query, k, selector)
        return [
            (int(self.ids[p]), float(s)) for p, s in zip(positions, scores, strict=True) if p >= 0
        ]

    def _selection(self, allowed_ids: Rowids | None) -> npt.NDArray[np.uint8] | None:
        """The bitmap of the positions to search (None: all of them)."""
        if allowed_ids is None or len(allowed_ids) >= self.size:
            if not self._dead_count or not self.exact:  # approximate: removed ones are gone
                return None
            if self._live_bitmap is None:
                self._live_bitmap = np.packbits(~self.dead, bitorder="little")
            return self._live_bitmap
        return self._bitmap(allowed_ids)

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


def _first_vectors(
    pages: Iterator[tuple[Rowids, Matrix]], count: int
) -> tuple[list[tuple[Rowids, Matrix]], Matrix]:
    """The pages read until `count` vectors (or all of them), and those vectors."""
    first: list[tuple[Rowids, Matrix]] = []
    held = 0
    for page in pages:
        first.append(page)
        held += len(page[0])
        if held >= count:
            break
    if not first:
        raise ValueError("no vectors to train an approximate index on")
    return first, np.concatenate([vectors for _, vectors in first])[:count]


@contextmanager
def _build_threads() -> Iterator[None]:
    """faiss on `BUILD_THREADS` threads while an approximate index is trained or filled,
    then back to one."""
    faiss.omp_set_num_threads(BUILD_THREADS)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(1)
