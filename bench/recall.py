"""Recall@10 of a dense index against exact search, for the growth benchmarks.

NumPy only (no ragcite import), so bench/growth.py can run it under an older ragcite too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt

Pages = Iterable[tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]]
Search = Callable[[npt.NDArray[np.float32], int], list[tuple[int, float]]]


def recall_at_10(queries: npt.NDArray[np.float32], pages: Pages, search: Search) -> float:
    """The share of each query's exact top 10 (inner product over every (rowids, vectors)
    page) that `search(query, 10)` returns, over all queries."""
    best_ids = np.full((len(queries), 10), -1, dtype=np.int64)
    best = np.full((len(queries), 10), -np.inf, dtype=np.float32)
    for ids, matrix in pages:
        scores = np.concatenate([best, queries @ matrix.T], axis=1)
        candidates = np.concatenate([best_ids, np.broadcast_to(ids, (len(queries), len(ids)))], 1)
        top = np.argsort(-scores, axis=1)[:, :10]
        best = np.take_along_axis(scores, top, axis=1)
        best_ids = np.take_along_axis(candidates, top, axis=1)
    hits = sum(
        len(set(best_ids[q].tolist()) & {rowid for rowid, _ in search(queries[q], 10)})
        for q in range(len(queries))
    )
    return hits / (10 * len(queries))
