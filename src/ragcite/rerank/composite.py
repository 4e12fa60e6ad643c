"""Reranking with composite chunk confidence and the fast path.

composite_confidence = vector_weight · vector similarity + reranker_weight · reranker score.
The fast path skips the reranker when the top vector scores are all high and close
together: the dense ranking is then already trustworthy, and the reranker would only
add latency. A compound question ("…, and how …") is also scored part by part: each
chunk keeps its best reranker score against the whole question or any part, so a chunk
that fully answers one part is not marked down for not answering the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragcite.config import RerankSettings
from ragcite.models import SourceChunk
from ragcite.rerank.base import Reranker
from ragcite.rerank.question_parts import question_parts


@dataclass(frozen=True)
class RerankOutcome:
    chunks: list[SourceChunk]
    fast_path: bool


def rerank_chunks(
    query: str,
    chunks: list[SourceChunk],
    reranker: Reranker,
    settings: RerankSettings,
) -> RerankOutcome:
    """The chunks with reranker and composite scores set, best composite first."""
    if not chunks:
        return RerankOutcome([], fast_path=False)
    fast = takes_fast_path(chunks, settings)
    if fast:
        scores = [c.vector_similarity_score for c in chunks]
    else:
        scores = reranker.score(query, chunks)
        parts = question_parts(query) if settings.score_question_parts else []
        if len(parts) > 1:
            # A chunk that answers one part of a compound question is relevant: it keeps
            # its best score against the whole question or any part.
            for part in parts:
                part_scores = reranker.score(part, chunks)
                scores = [max(a, b) for a, b in zip(scores, part_scores, strict=True)]
    total = settings.vector_weight + settings.reranker_weight or 1.0
    scored = [
        chunk.model_copy(
            update={
                "reranker_score": score,
                "composite_confidence": (
                    settings.vector_weight * chunk.vector_similarity_score
                    + settings.reranker_weight * score
                )
                / total,
            }
        )
        for chunk, score in zip(chunks, scores, strict=True)
    ]
    scored.sort(key=lambda c: -c.composite_confidence)
    return RerankOutcome(scored, fast_path=fast)


def takes_fast_path(chunks: list[SourceChunk], settings: RerankSettings) -> bool:
    """True when the top-n vector scores are all ≥ the minimum and within the spread."""
    top = sorted((c.vector_similarity_score for c in chunks), reverse=True)[
        : settings.fast_path_top_n
    ]
    return (
        len(top) == settings.fast_path_top_n
        and top[-1] >= settings.fast_path_min_score
        and top[0] - top[-1] <= settings.fast_path_max_spread
    )
