"""The reranker's candidates, features and held-out ranking metrics.

Each question's top-10 hybrid (RRF) candidates come from the real retriever; rerankers
rerank them through `rerank_chunks`, composite score and fast path included, as the
pipeline ranks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ragcite.config import RerankSettings
from ragcite.embed.base import Embedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.eval.metrics import recall_at_k, reciprocal_rank
from ragcite.learn.model import LearnedModel
from ragcite.models import SourceChunk
from ragcite.rerank.base import Reranker
from ragcite.rerank.composite import rerank_chunks
from ragcite.rerank.learned import FEATURES, rerank_features
from ragcite.rerank.sentence_similarity import sentence_in_context
from ragcite.retrieve.hybrid import HybridRetriever
from ragcite.text.sentences import split_sentences
from ragcite.train.rerank_data import Corpus, DiskCachedEmbedder, Query

DEPTH = 10  # candidates reranked per question, and the MRR cut-off


@dataclass
class Candidates:
    query: Query
    dense: list[SourceChunk]
    keyword: list[SourceChunk]
    hybrid: list[SourceChunk]


def retrieve_all(corpus: Corpus, queries: list[Query], embedder: Embedder) -> list[Candidates]:
    retriever = HybridRetriever(corpus.store, embedder)
    out = []
    for q in queries:
        result = retriever.retrieve(q.text, DEPTH, q.filters)
        out.append(
            Candidates(
                q,
                [h.chunk for h in result.dense[:DEPTH]],
                [h.chunk for h in result.keyword[:DEPTH]],
                result.chunks,
            )
        )
    return out


def prefetch_sentences(candidates: list[Candidates], embedder: DiskCachedEmbedder) -> None:
    """Embed every candidate sentence in one batched pass (sorted by length inside)."""
    texts = {
        sentence_in_context(c, c.chunk_text[a:b])
        for cand in candidates
        for c in cand.hybrid
        for a, b in split_sentences(c.chunk_text)
    }
    missing = [t for t in texts if t not in embedder.vectors]
    for start in range(0, len(missing), 2000):
        embedder.embed(missing[start : start + 2000])
        embedder.save()
        print(f"  sentences: {min(start + 2000, len(missing))}/{len(missing)}", flush=True)


def feature_rows(
    embedder: Embedder, candidates: list[Candidates]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, groups = [], [], []
    for g, cand in enumerate(candidates):
        if not cand.hybrid:
            continue
        xs.append(rerank_features(cand.query.text, cand.hybrid, embedder))
        ys.append([cand.query.is_relevant(c) for c in cand.hybrid])
        groups.append(np.full(len(cand.hybrid), g))
    return np.concatenate(xs), np.concatenate(ys).astype(int), np.concatenate(groups)


def ranking_metrics(rankings: list[list[bool]]) -> dict[str, float]:
    """Recall@1, recall@5 and MRR@10 over queries (each relevance list in ranked order)."""
    n = len(rankings) or 1
    return {
        "recall@1": sum(recall_at_k(r, 1) for r in rankings) / n,
        "recall@5": sum(recall_at_k(r, 5) for r in rankings) / n,
        "mrr@10": sum(reciprocal_rank(r, DEPTH) for r in rankings) / n,
    }


def evaluate(
    candidates: list[Candidates], rerankers: dict[str, Reranker]
) -> dict[str, dict[str, float]]:
    settings = RerankSettings()
    stages: dict[str, list[list[bool]]] = {"BM25": [], "dense": [], "hybrid RRF": []}
    for name in rerankers:
        stages[f"hybrid + {name}"] = []
    for cand in candidates:
        rel = cand.query.is_relevant
        stages["BM25"].append([rel(c) for c in cand.keyword])
        stages["dense"].append([rel(c) for c in cand.dense])
        stages["hybrid RRF"].append([rel(c) for c in cand.hybrid])
        for name, reranker in rerankers.items():
            ranked = rerank_chunks(cand.query.text, cand.hybrid, reranker, settings).chunks
            stages[f"hybrid + {name}"].append([rel(c) for c in ranked])
    out = {stage: ranking_metrics(r) for stage, r in stages.items()}
    for name in rerankers:
        pairs = list(zip(stages[f"hybrid + {name}"], stages["hybrid RRF"], strict=True))
        out[f"hybrid + {name}"]["top1_wins"] = sum(a[0] and not b[0] for a, b in pairs if a and b)
        out[f"hybrid + {name}"]["top1_losses"] = sum(b[0] and not a[0] for a, b in pairs if a and b)
    return out


def throughput(
    reranker_factory: Callable[[Embedder], Reranker], candidates: list[Candidates]
) -> float:
    """Chunks per second with a cold embedder: sentence embedding included."""
    reranker = reranker_factory(MiniLMEmbedder())
    reranker.score("warm up", candidates[0].hybrid[:1])
    started = time.perf_counter()
    count = 0
    for cand in candidates:
        reranker.score(cand.query.text, cand.hybrid)
        count += len(cand.hybrid)
    return count / (time.perf_counter() - started)


def composite_mrr(model: LearnedModel, x: np.ndarray, y: np.ndarray, groups: np.ndarray) -> float:
    """MRR@10 of the composite ranking (0.3 vector + 0.7 reranker), as the pipeline ranks."""
    settings = RerankSettings()
    composite = settings.vector_weight * x[
        :, FEATURES.index("vector")
    ] + settings.reranker_weight * model.predict(x)
    rankings = []
    for g in np.unique(groups):
        mask = groups == g
        order = np.argsort(-composite[mask], kind="stable")
        rankings.append([bool(v) for v in y[mask][order]])
    return ranking_metrics(rankings)["mrr@10"]
