"""Multi-corpus retrieval: one hybrid retrieval per corpus, run concurrently, merged.

`--corpus policies --corpus contracts` asks each corpus on its own (so a large corpus
cannot crowd a small one out of the candidates) and at the same time: the retrievals
run in a thread pool, as the reference design's `asyncio.gather` fan-out does, since the
store calls wait on a server or on SQLite and the embedder releases the GIL. The query
is embedded once. A corpus may live in another store (`[corpora.NAME] store = URL` in
the settings): its retrieval goes to that store. The caller reranks the union and keeps
the best by composite confidence.

    >>> sources = [CorpusSource("policies", retriever), CorpusSource("contracts", other)]
    >>> result = retrieve_corpora(sources, "Who may end the contract?", 8, SearchFilters())
    >>> sorted({c.corpus for c in result.chunks})
    ['contracts', 'policies']
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from ragcite.index.store import ScoredChunk, SearchFilters
from ragcite.models import SourceChunk
from ragcite.retrieve.hybrid import HybridRetriever, RetrievalResult


@dataclass(frozen=True)
class CorpusSource:
    """A corpus as asked (`name`), the retriever over the store that holds it, and its
    name inside that store (`stored_as`, the same unless the settings say otherwise)."""

    name: str
    retriever: HybridRetriever
    stored_as: str | None = None

    def retrieve(
        self, query: str, k: int, filters: SearchFilters, vector: npt.NDArray[np.float32]
    ) -> RetrievalResult:
        corpus = self.stored_as or self.name
        found = self.retriever.retrieve(
            query, k, replace(filters, corpora=(corpus,)), vector=vector
        )
        if corpus == self.name:
            return found
        return RetrievalResult(
            [self._renamed(c) for c in found.chunks],
            [ScoredChunk(self._renamed(h.chunk), h.score) for h in found.dense],
            [ScoredChunk(self._renamed(h.chunk), h.score) for h in found.keyword],
        )

    def _renamed(self, chunk: SourceChunk) -> SourceChunk:
        return chunk.model_copy(update={"corpus": self.name})


def retrieve_corpora(
    sources: list[CorpusSource], query: str, k: int, filters: SearchFilters
) -> RetrievalResult:
    """The k best chunks of each corpus, retrieved concurrently; every corpus's chunks
    (in the order of `sources`) with each retriever's ranking kept, for reranking."""
    if not sources:
        raise ValueError("retrieve_corpora needs at least one corpus")
    vector = sources[0].retriever.embedder.embed([query])[0]
    with ThreadPoolExecutor(max_workers=len(sources), thread_name_prefix="corpus") as pool:
        results = list(pool.map(lambda s: s.retrieve(query, k, filters, vector), sources))
    return RetrievalResult(
        [c for r in results for c in r.chunks],
        [h for r in results for h in r.dense],
        [h for r in results for h in r.keyword],
    )
