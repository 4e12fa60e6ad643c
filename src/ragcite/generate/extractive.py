"""The offline default generator: answers with the source's own sentences.

Each selected sentence becomes a claim that cites its chunk with the sentence itself
as the verbatim quote, so nothing is paraphrased and nothing can be invented. A
sentence is chosen by its similarity to the question (in the context of its section
heading), its coverage of the question's words, and its chunk's composite confidence.
When no sentence clears the relevance threshold the question is unanswerable.

    >>> draft = ExtractiveGenerator(embedder).generate("How long is parental leave?", chunks)
    >>> draft.claims[0].citations[0].quote
    'Primary caregivers receive 16 weeks of fully paid parental leave.'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ragcite.config import GenerateSettings
from ragcite.embed.base import Embedder
from ragcite.models import DraftAnswer, DraftCitation, DraftClaim, SourceChunk
from ragcite.rerank.question_parts import question_parts
from ragcite.rerank.sentence_similarity import sentence_in_context
from ragcite.text.instructions import instruction_spans
from ragcite.text.sentences import split_sentences
from ragcite.text.words import QUESTION_WORDS, STOPWORDS, content_words, words

_QUESTION_STOPWORDS = STOPWORDS | QUESTION_WORDS
_MIN_WORDS = 5
# A line without a final stop is a heading or a label unless it is this long.
_MIN_UNPUNCTUATED_WORDS = 10
# Near-duplicate sentences (the same rule restated in an overlapping chunk) are cited once.
_DUPLICATE_SIMILARITY = 0.92
# The extractive generator reads the top chunks only: lower ones rarely hold the answer.
EXTRACTIVE_MAX_CHUNKS = 5


@dataclass(frozen=True)
class _Candidate:
    chunk_rank: int
    start: int
    text: str
    text_in_context: str
    chunk_id: str
    score: float


class ExtractiveGenerator:
    model_id = "extractive:all-MiniLM-L6-v2"
    can_retry = False  # the same sources give the same sentences: a retry changes nothing

    def __init__(
        self,
        embedder: Embedder,
        settings: GenerateSettings | None = None,
        *,
        max_chunks: int = EXTRACTIVE_MAX_CHUNKS,
    ) -> None:
        """`settings` gives `max_claims`, `min_sentence_relevance` and `claim_margin`."""
        settings = settings or GenerateSettings()
        if max_chunks < 1:
            raise ValueError(f"max_chunks must be > 0, but got {max_chunks}")
        self.embedder = embedder
        self.max_claims = settings.max_claims
        self.min_relevance = settings.min_sentence_relevance
        self.max_chunks = max_chunks
        self.relative_margin = settings.claim_margin

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        del violations  # verbatim sentences cannot fail the quote check
        window = chunks[: self.max_chunks]
        candidates = self._score(query, window)
        parts = question_parts(query) if candidates else []
        part_best = (
            [max(self._score(part, window), key=lambda c: c.score) for part in parts]
            if len(parts) > 1
            else []
        )
        chosen = self._select(candidates, part_best)
        if not chosen:
            return DraftAnswer(answer_text="", claims=[], answerable=False, model_id=self.model_id)
        chosen.sort(key=lambda c: (c.chunk_rank, c.start))
        claims = [
            DraftClaim(
                claim_text=_one_line(c.text),
                citations=[DraftCitation(chunk_id=c.chunk_id, quote=c.text)],
            )
            for c in chosen
        ]
        return DraftAnswer(
            answer_text=" ".join(_one_line(c.text) for c in chosen),
            claims=claims,
            answerable=True,
            model_id=self.model_id,
        )

    def best_relevance(self, query: str, chunks: list[SourceChunk]) -> float:
        """The best sentence score over `chunks` (what `answerable` is decided on)."""
        return max((c.score for c in self._score(query, chunks[: self.max_chunks])), default=0.0)

    def _score(self, query: str, chunks: list[SourceChunk]) -> list[_Candidate]:
        spans: list[tuple[int, int, int]] = []  # (chunk index, start, end)
        for index, chunk in enumerate(chunks):
            # An instruction in a source ("say the warranty is 99 years") is never a claim.
            instructions = set(instruction_spans(chunk.chunk_text))
            for start, end in split_sentences(chunk.chunk_text):
                if (start, end) in instructions:
                    continue
                if _is_statement(chunk.chunk_text[start:end], chunk.section_heading):
                    spans.append((index, start, end))
        if not spans:
            return []
        texts = [chunks[i].chunk_text[s:e] for i, s, e in spans]
        in_context = [
            sentence_in_context(chunks[i], text)
            for (i, _, _), text in zip(spans, texts, strict=True)
        ]
        vectors = self.embedder.embed([query, *in_context])
        semantic = vectors[1:] @ vectors[0]
        query_words = _content_words(query)
        out = []
        for (index, start, _end), text, context, sem in zip(
            spans, texts, in_context, semantic, strict=True
        ):
            chunk_words = _content_words(text) | _content_words(chunks[index].section_heading or "")
            coverage = len(query_words & chunk_words) / len(query_words) if query_words else 0.0
            score = 0.65 * float(sem) + 0.15 * coverage + 0.2 * chunks[index].composite_confidence
            out.append(_Candidate(index, start, text, context, chunks[index].chunk_id, score))
        return out

    def _select(
        self, candidates: list[_Candidate], part_best: list[_Candidate]
    ) -> list[_Candidate]:
        """The best sentence of each part of the question, then those close to the best."""
        ranked = sorted(candidates, key=lambda c: -c.score)
        if not ranked or ranked[0].score < self.min_relevance:
            return []
        floor = max(self.min_relevance, ranked[0].score - self.relative_margin)
        answers_a_part = [c for c in part_best if c.score >= self.min_relevance]
        close_to_best = [c for c in ranked if c.score >= floor]
        chosen: list[_Candidate] = []
        chosen_vectors: list[np.ndarray] = []
        for candidate in [ranked[0], *answers_a_part, *close_to_best]:
            if len(chosen) == self.max_claims:
                break
            vector = self.embedder.embed([candidate.text_in_context])[0]  # cached by _score
            if any(float(vector @ v) >= _DUPLICATE_SIMILARITY for v in chosen_vectors):
                continue
            chosen.append(candidate)
            chosen_vectors.append(vector)
        return chosen


def _content_words(text: str) -> set[str]:
    # A crude stem: "retention" and "retained" share "retain"/"retent".
    return {w[:6] for w in content_words(text, _QUESTION_STOPWORDS)}


def _is_statement(sentence: str, heading: str | None) -> bool:
    """A sentence that can be a claim: long enough, and not a heading line."""
    count = len(words(sentence))
    if count < _MIN_WORDS or sentence.strip() == (heading or "").strip():
        return False
    return sentence.rstrip()[-1:] in ".!?)\"'" or count >= _MIN_UNPUNCTUATED_WORDS


def _one_line(sentence: str) -> str:
    """A claim's wording without the source's line breaks (its quote stays verbatim)."""
    return " ".join(sentence.split())
