"""Embedding one file's texts in steps: length-sorted, time-checked, progress reported.

>>> vectors, _ = embed_in_steps(embedder, texts, 128, check=lambda done: None)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ragcite.embed.base import Embedder, Span, SpanVectors, Vectors


def embed_in_steps(
    embedder: Embedder,
    texts: list[str],
    step: int,
    *,
    check: Callable[[int], None],
    progress: Callable[[int], None] | None = None,
    spans: list[list[Span]] | None = None,
) -> tuple[Vectors, SpanVectors | None]:
    """Embed `texts` in steps of `step` (length-sorted, so each step pads little), calling
    `check(done)` before and `progress(done)` after each; with `spans`, also pool them from
    the same forward pass (`embed_spans`), or None for them when the embedder cannot."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out = np.empty((len(texts), embedder.dimension), dtype=np.float32)
    pool = getattr(embedder, "embed_spans", None) if spans is not None else None
    pooled: SpanVectors = [[] for _ in texts]
    for start in range(0, len(texts), step):
        check(start)
        batch = order[start : start + step]
        both = (
            pool([texts[i] for i in batch], [spans[i] for i in batch]) if pool and spans else None
        )
        if both is None:
            pool = None  # not pooling (any more): plain vectors
            out[batch] = embedder.embed([texts[i] for i in batch])
        else:
            out[batch] = both[0]
            for i, vectors in zip(batch, both[1], strict=True):
                pooled[i] = vectors
        if progress is not None:
            progress(min(start + step, len(texts)))
    return out, (pooled if pool is not None else None)
