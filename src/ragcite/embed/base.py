"""The Embedder protocol: texts in, L2-normalised float32 vectors out.

>>> vectors = embedder.embed(["How long do we keep customer PII?"])
>>> vectors.shape
(1, 384)
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]
# A character span [start, end) of a text, and per text its spans' pooled vectors (None for a
# span not pooled: see `MiniLMEmbedder.embed_spans`).
Span = tuple[int, int]
SpanVectors = list[list[Vectors | None]]


class Embedder(Protocol):
    """Turns texts into L2-normalised vectors; cosine similarity is their dot product."""

    model_id: str
    dimension: int

    def embed(self, texts: list[str]) -> Vectors: ...
