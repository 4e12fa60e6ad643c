"""What ingest embeds for one document version, and embedding several versions at once.

A version's texts (its chunks in context, and its sentences' forms when
`ingest.sentence_vectors`) are planned first; the model then runs over the texts of several
small files together, sorted by length across all of them, so batches are full and pad
little; each version then turns its rows into chunk vectors and sentence blobs.

    >>> plans = [plan_version(texts, chunks, settings.ingest) for texts, chunks in versions]
    >>> rows = embed_together(embedder, plans, 128, check=lambda done: None)
    >>> vectors, blobs = plans[0].finish(*rows[0], embed=embedder.embed)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragcite.config import IngestSettings
from ragcite.embed.base import Embedder, Span, SpanVectors, Vectors
from ragcite.index.embed_steps import embed_in_steps
from ragcite.index.heading_plan import HeadingPlan
from ragcite.index.sentence_vectors import SentencePlan, SpanPlan
from ragcite.models import SourceChunk

Embed = Callable[[list[str]], Vectors]
Finished = tuple[Vectors, list[bytes | None] | None]


@dataclass(frozen=True)
class VersionPlan:
    """One version's texts to embed (the first `chunks` are its chunks in context), their
    spans to pool, and how its rows become chunk vectors and sentence blobs."""

    texts: list[str]
    spans: list[list[Span]]
    chunks: int
    _finish: Callable[[Vectors, SpanVectors | None, Embed], Finished]

    def finish(self, vectors: Vectors, pooled: SpanVectors | None, *, embed: Embed) -> Finished:
        """The chunk vectors and the sentence blobs (None without `sentence_vectors`), from
        this plan's rows; `embed` embeds the few forms the rows cannot give (a sentence the
        token limit cut, or every form when the embedder cannot pool spans)."""
        return self._finish(vectors, pooled, embed)


def plan_version(
    texts: list[str], chunks: Sequence[SourceChunk], settings: IngestSettings
) -> VersionPlan:
    """The plan for a version whose chunks embed as `texts` (`embedding_text`), under
    `ingest.sentence_vectors` and `ingest.sentence_pooling`."""
    n = len(chunks)
    none: list[list[Span]] = [[] for _ in texts]
    if not settings.sentence_vectors:
        return VersionPlan(texts, none, n, lambda rows, pooled, embed: (rows, None))
    if settings.sentence_pooling == "spans":  # pooled from the chunks' own forward pass
        starts = [len(t) - len(c.chunk_text) for t, c in zip(texts, chunks, strict=True)]
        span_plan = SpanPlan.of(chunks, starts)
        separate = SentencePlan.of(chunks)

        def from_spans(rows: Vectors, pooled: SpanVectors | None, embed: Embed) -> Finished:
            if pooled is None:  # the embedder cannot pool: every form on its own
                return rows, separate.blobs(embed(separate.texts))
            return rows, span_plan.blobs(pooled, embed)

        return VersionPlan(texts, span_plan.spans, n, from_spans)
    if settings.sentence_pooling == "heading":  # each sentence through the model once
        heading = HeadingPlan.of(chunks)

        def from_headings(rows: Vectors, pooled: SpanVectors | None, embed: Embed) -> Finished:
            own = None if pooled is None else pooled[n:]
            return rows[:n], heading.blobs(rows[n:], own, embed)

        return VersionPlan([*texts, *heading.texts], [*none, *heading.spans], n, from_headings)
    sentences = SentencePlan.of(chunks)
    return VersionPlan(
        [*texts, *sentences.texts],
        [[] for _ in range(n + len(sentences.texts))],
        n,
        lambda rows, pooled, embed: (rows[:n], sentences.blobs(rows[n:])),
    )


def embed_together(
    embedder: Embedder,
    plans: Sequence[VersionPlan],
    step: int,
    *,
    check: Callable[[int], None],
    progress: Callable[[int], None] | None = None,
) -> list[tuple[Vectors, SpanVectors | None]]:
    """Every plan's texts in one `embed_in_steps` (length-sorted across the plans), split
    back into each plan's rows and pooled spans (None when the embedder cannot pool)."""
    texts = [t for plan in plans for t in plan.texts]
    spans = [s for plan in plans for s in plan.spans]
    wanted = any(s for s in spans)
    vectors, pooled = embed_in_steps(
        embedder, texts, step, check=check, progress=progress, spans=spans if wanted else None
    )
    out: list[tuple[Vectors, SpanVectors | None]] = []
    start = 0
    for plan in plans:
        end = start + len(plan.texts)
        out.append((vectors[start:end], None if pooled is None else pooled[start:end]))
        start = end
    return out
