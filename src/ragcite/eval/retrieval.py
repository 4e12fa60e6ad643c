"""Retrieval metrics per stage: dense, keyword, hybrid (RRF) and reranked.

A query has one expected passage (see `labels.chunk_is_relevant`), so recall@k is the
share of answerable questions whose expected passage is in the first k results.
"""

from __future__ import annotations

from ragcite.eval.labels import chunk_is_relevant
from ragcite.eval.metrics import mean, ndcg_at_k, precision_at_k, recall_at_k, reciprocal_rank
from ragcite.eval.runner import STAGES, QuestionTrace

CUTOFFS = (1, 3, 5, 10)


def retrieval_metrics(traces: list[QuestionTrace]) -> dict[str, dict[str, float | int]]:
    """{stage: {"recall@5": ..., "precision@5": ..., "mrr@10": ..., "ndcg@10": ...}}."""
    labelled = [t for t in traces if t.question.answerable]
    out: dict[str, dict[str, float]] = {}
    for stage in STAGES:
        hits = [[chunk_is_relevant(c, t.question) for c in t.rankings[stage]] for t in labelled]
        row: dict[str, float | int] = {"questions": len(hits)}
        for k in CUTOFFS:
            row[f"recall@{k}"] = mean([recall_at_k(h, k) for h in hits])
            row[f"precision@{k}"] = mean([precision_at_k(h, k) for h in hits])
        row["mrr@10"] = mean([reciprocal_rank(h, 10) for h in hits])
        row["ndcg@10"] = mean([ndcg_at_k(h, 10) for h in hits])
        out[stage] = row
    return out
