"""A learned reranker: a small model over signals the pipeline already has at ask time.

Each candidate chunk gets a dozen features — its vector similarity and BM25 score (raw and
relative to the best candidate), its ranks, its best sentence's cosine to the query, and
how many of the query's content words its best sentence, its text and its headings
cover — and a model trained by `ragcite train rerank` (logistic regression or a few
shallow trees, a `ragcite.learn` model) turns them into a relevance probability. Inference
is NumPy only; the sentence vectors are the ones the extractive generator reuses.

    >>> LearnedReranker(MiniLMEmbedder()).score("How long is parental leave?", chunks)
    [0.93, 0.04, ...]

The chunks must arrive in retrieval (RRF) order, as the pipeline hands them over: the
position is one of the features.
"""

from __future__ import annotations

import math
from collections.abc import Set
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ragcite.embed.base import Embedder
from ragcite.errors import ModelError
from ragcite.learn.model import LearnedModel, load_models, require_features
from ragcite.models import SourceChunk
from ragcite.rerank.sentence_similarity import best_sentence_similarity
from ragcite.text import words as text_words
from ragcite.text.sentences import split_sentences
from ragcite.text.stems import trim_plural

FEATURES = (
    "vector",
    "vector_gap",
    "vector_rank",
    "keyword",
    "keyword_rank",
    "hybrid_rank",
    "sentence",
    "sentence_gap",
    "sentence_coverage",
    "chunk_coverage",
    "chunk_coverage_idf",
    "heading_coverage",
)

Matrix = npt.NDArray[np.float64]

# Question, function and negation words: they say nothing about which passage answers.
_STOPWORDS = text_words.STOPWORDS | text_words.QUESTION_WORDS | {"no", "not"}


def content_words(text: str) -> list[str]:
    """The reranker's content words: plain words without stop and question words, with a
    plural "s" trimmed.

    >>> content_words("Which magazines were started first?")
    ['magazine', 'started', 'first']
    """
    return [trim_plural(w) for w in text_words.words(text) if w not in _STOPWORDS]


class LearnedReranker:
    name = "learned"

    def __init__(self, embedder: Embedder, *, model: LearnedModel | None = None) -> None:
        self.embedder = embedder
        self.model = model or load_model()

    def score(self, query: str, chunks: list[SourceChunk]) -> list[float]:
        if not chunks:
            return []
        rows = rerank_features(query, chunks, self.embedder)
        return [float(p) for p in self.model.predict(rows)]


def rerank_features(query: str, chunks: list[SourceChunk], embedder: Embedder) -> Matrix:
    """One row of `FEATURES` per chunk; the training script fits on the same rows."""
    n = len(chunks)
    vector = np.array([c.vector_similarity_score for c in chunks], dtype=np.float64)
    keyword = np.array([max(c.keyword_score, 0.0) for c in chunks], dtype=np.float64)
    top_keyword = keyword.max()
    sentence = best_sentence_similarity(query, chunks, embedder)
    query_words = set(content_words(query))
    by_sentence = [words_by_sentence(c.chunk_text) for c in chunks]
    sentence_words, chunk_words = [s for s, _ in by_sentence], [w for _, w in by_sentence]
    heading_words = [
        set(content_words(f"{c.document_title} {c.section_heading or ''}")) for c in chunks
    ]
    # Words most candidates share (the topic) tell them apart less than rare ones.
    document_frequency = {w: sum(w in cw for cw in chunk_words) for w in query_words}
    idf = {w: math.log((n + 1) / (df + 0.5)) for w, df in document_frequency.items()}
    total_idf = sum(idf.values()) or 1.0
    rows = np.zeros((n, len(FEATURES)), dtype=np.float64)
    rows[:, 0] = vector
    rows[:, 1] = vector - vector.max()
    rows[:, 2] = _reciprocal_rank(vector)
    rows[:, 3] = keyword / top_keyword if top_keyword > 0 else 0.0
    rows[:, 4] = np.where(keyword > 0, _reciprocal_rank(keyword), 0.0)
    rows[:, 5] = 1.0 / (1.0 + np.arange(n))
    rows[:, 6] = sentence
    rows[:, 7] = sentence - sentence.max()
    for i in range(n):
        words = chunk_words[i] | heading_words[i]
        rows[i, 8] = max(
            (_coverage(query_words, s | heading_words[i]) for s in sentence_words[i]),
            default=0.0,
        )
        rows[i, 9] = _coverage(query_words, words)
        rows[i, 10] = sum(idf[w] for w in query_words & words) / total_idf
        rows[i, 11] = _coverage(query_words, heading_words[i])
    return rows


def _reciprocal_rank(values: Matrix) -> Matrix:
    """1 for the highest value, 1/2 for the next, …"""
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[np.argsort(-values, kind="stable")] = np.arange(len(values))
    result: Matrix = 1.0 / (1.0 + ranks)
    return result


def _coverage(query_words: Set[str], words: Set[str]) -> float:
    return len(query_words & words) / len(query_words) if query_words else 0.0


@lru_cache(maxsize=4096)
def words_by_sentence(text: str) -> tuple[tuple[frozenset[str], ...], frozenset[str]]:
    """Each sentence's content words, and the text's: the sentences' together when every
    word of the text lies inside a sentence (the text is not read twice), else its own.
    Read once per chunk text, like its sentences (`split_sentences`)."""
    spans = split_sentences(text)
    per_sentence = tuple(frozenset(content_words(text[a:b])) for a, b in spans)
    if text_words.words_within(text, spans):
        return per_sentence, frozenset[str]().union(*per_sentence)
    return per_sentence, frozenset(content_words(text))


RETRAIN = "ragcite train rerank"


def packaged_model_path() -> Path:
    return Path(str(resources.files("ragcite.rerank").joinpath("assets/reranker_model.json")))


@lru_cache(maxsize=4)
def _load(path: Path) -> LearnedModel:
    models = load_models(path, what="reranker model", retrain=RETRAIN)
    model = models.get("reranker")
    if model is None:
        raise ModelError(
            f"the reranker model {path} has no model named 'reranker' (it has: "
            f"{', '.join(models)}); rebuild it with `{RETRAIN}`"
        )
    require_features(model, FEATURES, what="reranker model", retrain=RETRAIN)
    return model


def load_model(path: Path | None = None) -> LearnedModel:
    """The reranker model at `path`, or the packaged one; loaded once per path."""
    return _load(path or packaged_model_path())
