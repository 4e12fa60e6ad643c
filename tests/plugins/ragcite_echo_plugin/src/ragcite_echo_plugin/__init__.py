"""A third-party ragcite backend package: an echo generator and a word-overlap reranker.

`generate.llm = "echo:"` answers with the top chunk's sentence that shares the most words
with the question, quoted verbatim; `rerank.backend = "overlap"` scores each chunk by the
share of the question's words it contains. Both use only ragcite's public API.
"""

from __future__ import annotations

from ragcite.config import GenerateSettings
from ragcite.embed.base import Embedder
from ragcite.models import DraftAnswer, DraftCitation, DraftClaim, SourceChunk
from ragcite.registry import BackendSpec
from ragcite.text.sentences import split_sentences
from ragcite.text.words import STOPWORDS, words


def _content_words(text: str) -> set[str]:
    return {w.lower() for w in words(text)} - STOPWORDS


class EchoGenerator:
    """Answers with one sentence of the best chunk, quoted exactly as the chunk has it."""

    can_retry = False  # the same chunks give the same sentence

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        if not chunks:
            return DraftAnswer(answer_text="", answerable=False, model_id=self.model_id)
        top = chunks[0]
        asked = _content_words(query)
        spans = split_sentences(top.chunk_text)
        if not spans:
            return DraftAnswer(answer_text="", answerable=False, model_id=self.model_id)
        start, end = max(
            spans, key=lambda s: len(asked & _content_words(top.chunk_text[s[0] : s[1]]))
        )
        sentence = top.chunk_text[start:end]
        claim = DraftClaim(
            claim_text=sentence,
            citations=[DraftCitation(chunk_id=top.chunk_id, quote=sentence)],
        )
        return DraftAnswer(answer_text=sentence, claims=[claim], model_id=self.model_id)


class OverlapReranker:
    """Relevance = the share of the question's content words found in the chunk."""

    name = "overlap"

    def score(self, query: str, chunks: list[SourceChunk]) -> list[float]:
        asked = _content_words(query)
        if not asked:
            return [0.0] * len(chunks)
        return [len(asked & _content_words(c.chunk_text)) / len(asked) for c in chunks]


def build_echo_generator(
    spec: BackendSpec, *, embedder: Embedder, settings: GenerateSettings
) -> EchoGenerator:
    """The `ragcite.generators` builder: `echo:` or `echo:NAME` (NAME labels the model)."""
    return EchoGenerator(f"echo:{spec.rest or 'top-sentence'}")


def build_overlap_reranker(
    spec: BackendSpec, *, embedder: Embedder, generate: GenerateSettings
) -> OverlapReranker:
    """The `ragcite.rerankers` builder: `overlap`."""
    return OverlapReranker()
