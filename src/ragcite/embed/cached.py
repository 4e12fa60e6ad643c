"""An Embedder wrapper that remembers recent texts' vectors.

At ask time the reranker and the extractive generator embed the same chunk
sentences; the cache makes the second pass free.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from ragcite.embed.base import Embedder, Span, SpanVectors, Vectors


class CachedEmbedder:
    def __init__(self, inner: Embedder, *, max_items: int = 20_000) -> None:
        if max_items < 1:
            raise ValueError(f"max_items must be > 0, but got {max_items}")
        self.inner = inner
        self.model_id = inner.model_id
        self.dimension = inner.dimension
        self.max_items = max_items
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget every cached vector (benchmarks measure a new question's full cost)."""
        with self._lock:
            self._cache.clear()

    def remember(self, texts: list[str], vectors: Vectors) -> None:
        """Cache vectors computed elsewhere (the store's sentence vectors, at ask time)."""
        with self._lock:
            for text, vector in zip(texts, vectors, strict=True):
                self._cache[text] = vector
                self._cache.move_to_end(text)
            while len(self._cache) > self.max_items:
                self._cache.popitem(last=False)

    def embed_spans(
        self, texts: list[str], spans: list[list[Span]]
    ) -> tuple[Vectors, SpanVectors] | None:
        """The inner embedder's `embed_spans` (nothing cached); None when it has none."""
        inner = getattr(self.inner, "embed_spans", None)
        if inner is None:
            return None
        result: tuple[Vectors, SpanVectors] = inner(texts, spans)
        return result

    def embed(self, texts: list[str]) -> Vectors:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            fresh = self.inner.embed(missing)
            with self._lock:
                for text, vector in zip(missing, fresh, strict=True):
                    self._cache[text] = vector
                while len(self._cache) > self.max_items:
                    self._cache.popitem(last=False)
        with self._lock:
            out = np.empty((len(texts), self.dimension), dtype=np.float32)
            for i, text in enumerate(texts):
                vector = self._cache.get(text)
                if vector is None:  # evicted between the two locks: embed it alone
                    vector = self.inner.embed([text])[0]
                else:
                    self._cache.move_to_end(text)
                out[i] = vector
        return out
