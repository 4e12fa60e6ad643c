"""Hybrid retrieval: dense + BM25, fused by reciprocal rank fusion, each retriever's score kept.

The keyword lookup needs no vector: it runs on a worker thread while the query is
embedded and looked up in the dense index (onnxruntime, faiss and SQLite release the
GIL; both stores are safe to share between threads, the embedded one scans its dense
index outside its SQLite lock), so retrieval waits for the longer of the two paths
instead of their sum.

>>> retriever = HybridRetriever(store, embedder)
>>> chunks = retriever.retrieve("How long do we keep customer PII?", k=8)
>>> chunks[0].vector_similarity_score, chunks[0].keyword_score
(0.71, 9.4)
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ragcite.config import RetrieveSettings
from ragcite.embed.base import Embedder
from ragcite.index.store import ScoredChunk, SearchFilters, Store
from ragcite.models import SourceChunk

_DEFAULTS = RetrieveSettings()
KEYWORD_THREADS = 4
"""Keyword lookups of concurrent retrievals in one process run side by side up to this many."""


@dataclass(frozen=True)
class RetrievalResult:
    """The fused chunks (best first) and each retriever's own ranking, for evaluation."""

    chunks: list[SourceChunk]
    dense: list[ScoredChunk]
    keyword: list[ScoredChunk]


class HybridRetriever:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        *,
        candidates: int = _DEFAULTS.candidates_per_retriever,
        rrf_k: int = _DEFAULTS.rrf_k,
    ) -> None:
        if candidates < 1:
            raise ValueError(f"candidates must be > 0, but got {candidates}")
        if rrf_k < 1:
            raise ValueError(f"rrf_k must be > 0, but got {rrf_k}")
        self.store = store
        self.embedder = embedder
        self.candidates = candidates
        self.rrf_k = rrf_k

    def retrieve(
        self,
        query: str,
        k: int = _DEFAULTS.top_k,
        filters: SearchFilters | None = None,
        *,
        vector: npt.NDArray[np.float32] | None = None,
    ) -> RetrievalResult:
        """The k best chunks by RRF over dense and keyword rankings (`vector`: the query
        already embedded, when it is)."""
        if k < 1:
            raise ValueError(f"k must be > 0, but got {k}")
        filters = filters or SearchFilters()
        depth = max(self.candidates, k)
        pending = _keyword_pool().submit(self.store.keyword_search, query, depth, filters)
        try:
            if vector is None:
                vector = self.embedder.embed([query])[0]
            dense = self.store.dense_search(vector, depth, filters)
        finally:
            keyword = pending.result()
        return RetrievalResult(self._fuse(vector, dense, keyword, k), dense, keyword)

    def _fuse(
        self,
        vector: npt.NDArray[np.float32],
        dense: list[ScoredChunk],
        keyword: list[ScoredChunk],
        k: int,
    ) -> list[SourceChunk]:
        fused: dict[str, float] = {}
        chunks: dict[str, SourceChunk] = {}
        vector_scores: dict[str, float] = {}
        keyword_scores: dict[str, float] = {}
        for ranking, own_scores in ((dense, vector_scores), (keyword, keyword_scores)):
            for rank, hit in enumerate(ranking):
                cid = hit.chunk.chunk_id
                fused[cid] = fused.get(cid, 0.0) + 1.0 / (self.rrf_k + rank + 1)
                chunks.setdefault(cid, hit.chunk)
                own_scores[cid] = hit.score
        best = sorted(fused, key=lambda cid: -fused[cid])[:k]
        missing_vectors = [cid for cid in best if cid not in vector_scores]
        if missing_vectors:
            # A keyword-only hit still needs its vector similarity: attribution uses it.
            vector_scores.update(self.store.similarities(vector, missing_vectors))
        return [
            chunks[cid].model_copy(
                update={
                    "vector_similarity_score": _unit(vector_scores.get(cid, 0.0)),
                    "keyword_score": keyword_scores.get(cid, 0.0),
                }
            )
            for cid in best
        ]


_pool: tuple[int, ThreadPoolExecutor] | None = None
_pool_lock = threading.Lock()


def _keyword_pool() -> ThreadPoolExecutor:
    """The threads keyword lookups run on: a few, shared by every retriever in the process,
    made on first use and again in a forked process (a parent's threads are not in the
    child: waiting on them would hang a server's forked worker)."""
    global _pool
    with _pool_lock:
        if _pool is None or _pool[0] != os.getpid():
            _pool = (os.getpid(), ThreadPoolExecutor(KEYWORD_THREADS, "ragcite-keyword"))
        return _pool[1]


def _unit(score: float) -> float:
    return min(1.0, max(0.0, score))
