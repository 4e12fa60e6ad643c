"""Layer 3: embedding similarity of the claim and its best-aligned evidence sentences.

Only the few sentences the lexical layer ranks highest are embedded, and vectors are
cached by text, so a chunk cited by many claims is embedded once.

    >>> scorer = SemanticScorer(MiniLMEmbedder())
    >>> scorer.signals_many(["Stores close at 9 pm."], [("Our shops shut at nine.",)])
    [{'sem_max': 0.8..., 'sem_top': 0.8...}]
"""

from __future__ import annotations

import numpy as np

from ragcite.embed.base import Embedder, Vectors

SIGNAL_NAMES = ("sem_max", "sem_top")
SENTENCES = 2  # how many of the lexically best sentences are embedded
MAX_CHARS = 300  # web "sentences" can be whole pages: embed their start only


class SemanticScorer:
    """Cosine of claim vs evidence sentences with an `Embedder`, batched and cached."""

    def __init__(self, embedder: Embedder, *, cache_size: int = 50_000) -> None:
        if cache_size < 0:
            raise ValueError(f"cache_size must be >= 0, but got {cache_size}")
        self.embedder = embedder
        self.cache_size = cache_size
        self._cache: dict[str, Vectors] = {}

    def _vectors(self, texts: list[str]) -> dict[str, Vectors]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        fresh: dict[str, Vectors] = {}
        if missing:
            vectors = self.embedder.embed(missing)
            fresh = {t: vectors[i] for i, t in enumerate(missing)}
            if len(self._cache) + len(fresh) > self.cache_size:
                self._cache.clear()
            if len(fresh) <= self.cache_size:
                self._cache.update(fresh)
        return {t: fresh[t] if t in fresh else self._cache[t] for t in texts}

    def signals_many(
        self, claims: list[str], sentences: list[tuple[str, ...]]
    ) -> list[dict[str, float]]:
        """For each claim, `sem_max` over its sentences and `sem_top` for the first one
        (the lexically best-aligned); 0 when it has no sentences."""
        sentences = [tuple(s[:MAX_CHARS] for s in group[:SENTENCES]) for group in sentences]
        vectors = self._vectors(claims + [s for group in sentences for s in group])
        out: list[dict[str, float]] = []
        for claim, group in zip(claims, sentences, strict=True):
            if not group:
                out.append(dict.fromkeys(SIGNAL_NAMES, 0.0))
                continue
            matrix = np.stack([vectors[s] for s in group])
            cosines = matrix @ vectors[claim]
            out.append({"sem_max": float(cosines.max()), "sem_top": float(cosines[0])})
        return out
