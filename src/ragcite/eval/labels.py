"""When a retrieved chunk is relevant and when a claim is correct, for a labelled question.

The rules (documented in the README, "Evaluation, calibration and tuning"):

* A chunk is **relevant** when it belongs to the expected document (and version, when one
  is given) and holds the expected span: the span is in it verbatim after normalisation,
  or at least 60% of the span's content words are in it (a span cut by a chunk border).
* A claim is **correct** when it cites a chunk of the expected document and version, and
  its text or one of its quotes shares at least half the content words of the shorter of
  itself and the expected span, or covers at least 60% of the expected answer's content
  words. A claim answering an unanswerable question is never correct.
"""

from __future__ import annotations

import re

from ragcite.eval.questions import LabelledQuestion
from ragcite.models import CitedClaim, SourceChunk
from ragcite.text.words import STOPWORDS
from ragcite.verify.normalize import normalize

SPAN_COVERAGE = 0.6
CLAIM_SPAN_OVERLAP = 0.5
ANSWER_COVERAGE = 0.6


# The labels must not move when the support checker's text handling changes, so the
# harness keeps its own small tokenizer: lower-cased words and numbers, stopwords out,
# a plural "s" dropped.
_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
_STOPWORDS = STOPWORDS


def _words(text: str) -> set[str]:
    out = set()
    for token in _TOKEN.findall(normalize(text)):
        if token in _STOPWORDS:
            continue
        out.add(token[:-1] if len(token) > 3 and token.endswith("s") else token)
    return out


def _coverage(part: set[str], whole: set[str]) -> float:
    """Share of `part` found in `whole`."""
    return len(part & whole) / len(part) if part else 0.0


def _overlap(a: set[str], b: set[str]) -> float:
    """Shared words over the size of the smaller set."""
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def from_expected_document(chunk: SourceChunk, question: LabelledQuestion) -> bool:
    if question.expected_document_id and chunk.document_id != question.expected_document_id:
        return False
    return not (
        question.expected_version is not None
        and chunk.document_version != question.expected_version
    )


def chunk_is_relevant(chunk: SourceChunk, question: LabelledQuestion) -> bool:
    if not question.answerable or not from_expected_document(chunk, question):
        return False
    span = question.expected_chunk_text
    if not span:
        return True
    if normalize(span) in normalize(chunk.chunk_text):
        return True
    return _coverage(_words(span), _words(chunk.chunk_text)) >= SPAN_COVERAGE


def claim_is_correct(
    claim: CitedClaim, chunks: dict[str, SourceChunk], question: LabelledQuestion
) -> bool:
    if not question.answerable:
        return False
    cited = [chunks[i] for i in claim.source_chunk_ids if i in chunks]
    if not any(from_expected_document(c, question) for c in cited):
        return False
    texts = [claim.claim_text, *(c.quote for c in claim.citations if c.quote)]
    said = [_words(t) for t in texts]
    if question.expected_chunk_text:
        span = _words(question.expected_chunk_text)
        if any(_overlap(s, span) >= CLAIM_SPAN_OVERLAP for s in said):
            return True
    if question.expected_answer:
        answer = _words(question.expected_answer)
        if any(_coverage(answer, s) >= ANSWER_COVERAGE for s in said):
            return True
    return not question.expected_chunk_text and not question.expected_answer
