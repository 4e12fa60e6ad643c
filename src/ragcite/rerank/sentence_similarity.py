"""A simple reranker: the best sentence's similarity to the query (the learned one's baseline).

A chunk answers a question when one of its sentences does, so the chunk is scored
by its best sentence (or heading-plus-sentence), not by its average.

    >>> SentenceSimilarityReranker(MiniLMEmbedder()).score("How long is parental leave?", chunks)
    [0.78, 0.41, ...]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ragcite.embed.base import Embedder
from ragcite.models import SourceChunk
from ragcite.text.sentence_forms import in_context
from ragcite.text.sentences import split_sentences


def sentence_in_context(chunk: SourceChunk, sentence: str) -> str:
    """A sentence prefixed by its section heading: "Customer records: They are kept 3 years."

    The extractive generator embeds the same strings, so at ask time it reuses these vectors;
    ingest stores their vectors with the chunk (`ragcite.index.sentence_vectors`).
    """
    return in_context(chunk.section_heading, sentence)


class SentenceSimilarityReranker:
    name = "sentence-similarity"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def score(self, query: str, chunks: list[SourceChunk]) -> list[float]:
        best = best_sentence_similarity(query, chunks, self.embedder)
        return [float(s) for s in np.clip(best, 0.0, 1.0)]


def best_sentence_similarity(
    query: str, chunks: list[SourceChunk], embedder: Embedder
) -> npt.NDArray[np.float64]:
    """Per chunk, the highest cosine between the query and one of its sentences in context."""
    owners: list[int] = []
    texts: list[str] = []
    for i, chunk in enumerate(chunks):
        for start, end in split_sentences(chunk.chunk_text):
            owners.append(i)
            texts.append(sentence_in_context(chunk, chunk.chunk_text[start:end]))
    best = np.zeros(len(chunks), dtype=np.float64)
    if texts:
        vectors = embedder.embed([query, *texts])
        similarities = (vectors[1:] @ vectors[0]).astype(np.float64)
        np.maximum.at(best, np.array(owners, dtype=np.int64), similarities)
    return best
