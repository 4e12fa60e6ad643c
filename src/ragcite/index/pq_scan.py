"""The approximate dense index of large stores: a 4-bit product-quantised scan of every
vector (faiss IVF-PQ fast scan), its best candidates re-ranked exactly.

Each vector is held twice: as `SUBVECTOR`-wide pieces of 4 bits each (48 bytes for 384
dimensions, in faiss's SIMD fast-scan layout) and in float16 (half the memory of
float32, the same neighbours). A search scans every compressed vector (dense p50 5.5 ms
at 1M chunks on a shared 2-core machine, bench/scale.py), keeps the best `RERANK` and
scores those exactly from their float16 copy.
Why not fewer vectors per search: on bench/scale.py's corpus (chunks that mix sentences
of several passages, asked real questions) an IVF index over float16 vectors reached
recall@10 0.61 with 5 % of its lists probed, 0.79 with 20 %, 0.91 with half of them
(100k chunks, bench/dense_index_compare.py); the compressed scan of everything with 300
re-ranked reaches 1.0 there (0.98 at 1M chunks) and builds in 11 s, where HNSW took 86 s
and reached 0.96 (1M: 15 s against 430 s and 0.90, docs/bench/scale.json).

The lists (`list_count`, a few) serve the bookkeeping, not the speed: faiss IVF takes
vectors out by position (`remove`: an erased chunk's vector leaves the index and its
saved file) and searches under a bitmap of allowed positions (filters), scanning every
list. Training (k-means for the lists and for each piece's 16 codes) runs on a sample of
the stored vectors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

SUBVECTOR = 4
"""Dimensions per 4-bit code (384 dimensions: 96 codes, 48 bytes a vector)."""
RERANK = 300
"""Candidates scored exactly per search (100k chunks: recall@10 0.984 with 100, 1.0 with
300; faiss's fast scan slows sharply when asked for more than a few hundred)."""
MAX_LISTS = 16
TRAINING_SIZE = 32_768

Matrix = npt.NDArray[np.float32]
Positions = npt.NDArray[np.int64]


def list_count(vectors: int) -> int:
    """The lists of an index of `vectors` vectors (at least 256 training vectors each)."""
    return max(1, min(MAX_LISTS, vectors // 256))


def training_size(vectors: int) -> int:
    """How many vectors to train an index of `vectors` vectors on."""
    return min(vectors, TRAINING_SIZE)


class RerankedPQIndex:
    """Positions 0..n-1 searched by a compressed scan and an exact re-rank; a removed
    position leaves the scan and its float16 copy is zeroed."""

    def __init__(self, scan: Any, exact: Any) -> None:
        self.scan = scan
        self.exact = exact
        self.scan.nprobe = self.scan.nlist

    @classmethod
    def trained(cls, dimension: int, vectors: int, training: Matrix) -> RerankedPQIndex:
        """An empty index for about `vectors` vectors, trained on `training`."""
        pieces = _pieces(dimension)
        scan = faiss.IndexIVFPQFastScan(
            faiss.IndexFlatIP(dimension),
            dimension,
            list_count(vectors),
            pieces,
            4,
            faiss.METRIC_INNER_PRODUCT,
        )
        scan.cp.niter = 10
        scan.pq.cp.min_points_per_centroid = 1  # a small index trains on what it has
        scan.train(np.ascontiguousarray(training, dtype=np.float32))
        exact = faiss.IndexScalarQuantizer(
            dimension,
            faiss.ScalarQuantizer.QT_fp16,
            faiss.METRIC_INNER_PRODUCT,
        )
        return cls(scan, exact)

    @classmethod
    def load(cls, path: Path, scan: Any) -> RerankedPQIndex:
        """The index whose scan was read from `path` (its float16 copy beside it)."""
        return cls(scan, faiss.read_index(exact_path(path)))

    def save(self, path: Path) -> None:
        faiss.write_index(self.scan, str(path))
        faiss.write_index(self.exact, exact_path(path))

    @property
    def held(self) -> int:
        """Positions in the scan (removed ones are not)."""
        return int(self.scan.ntotal)

    @property
    def size(self) -> int:
        """Positions ever added."""
        return int(self.exact.ntotal)

    @property
    def lists(self) -> int:
        return int(self.scan.nlist)

    def add(self, vectors: Matrix) -> None:
        positions = np.arange(self.size, self.size + len(vectors), dtype=np.int64)
        self.scan.add_with_ids(vectors, positions)
        self.exact.add(vectors)

    def remove(self, positions: Positions) -> None:
        if not len(positions):
            return
        self.scan.remove_ids(faiss.IDSelectorBatch(np.ascontiguousarray(positions, np.int64)))
        codes = self._codes()
        codes[positions] = 0

    def search(self, query: Matrix, k: int, selector: Any) -> tuple[Matrix, Positions]:
        """The best `k` positions under `selector` (None: all) and their exact scores."""
        params = faiss.SearchParametersIVF(sel=selector, nprobe=self.scan.nlist)  # type: ignore[call-arg]
        _, found = self.scan.search(query, max(RERANK, k), params=params)
        candidates = found[0][found[0] >= 0]
        if not len(candidates):
            return np.empty(0, dtype=np.float32), candidates
        scores = self.exact.sa_decode(self._codes()[candidates]) @ query[0]
        best = np.argsort(-scores, kind="stable")[:k]
        return scores[best], candidates[best]

    def _codes(self) -> npt.NDArray[np.uint8]:
        """The float16 copy's codes, one row per position (a view: valid until an add)."""
        flat = faiss.rev_swig_ptr(self.exact.codes.data(), self.exact.codes.size())
        return flat.reshape(self.size, self.exact.code_size)


def exact_path(path: Path) -> str:
    """Where the float16 copy of the index saved at `path` is kept."""
    return f"{path}.vectors"


def is_scan(index: Any) -> bool:
    """Whether `index`, read from a file, is the scan of a `RerankedPQIndex`."""
    return isinstance(index, faiss.IndexIVFPQFastScan)


def stored_positions(index: RerankedPQIndex) -> Positions:
    """Every position held in the scan's lists, sorted."""
    lists: Any = faiss.extract_index_ivf(index.scan).invlists
    found = []
    for number in range(index.lists):
        size = lists.list_size(number)
        if size:
            found.append(faiss.rev_swig_ptr(lists.get_ids(number), size).copy())
    return np.sort(np.concatenate(found)) if found else np.empty(0, dtype=np.int64)


def _pieces(dimension: int) -> int:
    """Codes per vector: `SUBVECTOR` dimensions each, or the nearest count that divides
    the dimension."""
    return next(m for m in range(max(1, dimension // SUBVECTOR), 0, -1) if dimension % m == 0)
