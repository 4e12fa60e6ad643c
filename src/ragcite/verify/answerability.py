"""Answerability: does the passage an answer quotes actually answer the question?

A generator (the extractive one, or an LLM) may quote a passage that is about the
question without answering it: SQuAD 2.0's unanswerable questions are written against the
very paragraph that is retrieved. This decision is separate from relevance. It reads:

* the expected answer type ("how long" → a duration, "when" → a date, "how much" → an
  amount, "who" → a person or a role) and whether the quoted sentences hold one;
* the question's content words covered by the quoted sentences and by their passages
  (a question word missing from the passage, a name above all, is the classic sign);
* the question-to-sentence similarity, and the margin between the best and next passage;
* what the quoted sentences add beyond the question's words.

(The close-reading features of `ragcite.train.reading_features` were measured as inputs and did
not help it on validation; two of their signals decline on their own instead, as the
pipeline's reading check.)

A small learned model (`ragcite.learn`, shipped as `assets/answerability_model.json`,
rebuilt by `ragcite-train-answerability`) turns them into P(the question is answered);
below the model's `answer` threshold the pipeline declines with `not_answerable`.

    >>> check = AnswerabilityCheck(embedder)
    >>> check.probability("How long do we keep customer PII?",
    ...                   [("PII is kept for three years.", chunk)], [chunk])   # doctest: +SKIP
    0.93
"""

from __future__ import annotations

import re
import time
from importlib import resources
from pathlib import Path

import numpy as np

from ragcite.config import GateSettings
from ragcite.embed.base import Embedder
from ragcite.generate.other_case import NEGATION
from ragcite.learn.model import LearnedModel, load_models, require_features
from ragcite.models import CitedClaim, SourceChunk
from ragcite.text.stems import stem
from ragcite.text.words import QUESTION_STOPWORDS, content_stems
from ragcite.verify.answer_types import TYPES, expected_type, holds_type
from ragcite.verify.reading import reading_conflict
from ragcite.verify.subject import missing_subject

MODEL_FILE = "assets/answerability_model.json"
RETRAIN = "python -m ragcite.train.answerability"

FEATURES: tuple[str, ...] = (
    "quote_cosine",
    "chunk_cosine",
    "chunk_margin",
    "composite_top",
    "composite_margin",
    "cover_quote",
    "cover_passage",
    "missing_passage",
    "missing_names",
    "novel_quote",
    "type_specific",
    "type_match",
    "negation_mismatch",
    "claims",
    *(f"type_{t}" for t in TYPES),
)

Quote = tuple[str, SourceChunk]


def _stems(text: str) -> set[str]:
    return content_stems(text, QUESTION_STOPWORDS)


def _names(question: str) -> set[str]:
    """Stems of the question's names and numbers: capitalised words past the first, digits."""
    tokens = re.findall(r"[^\W_][\w'’-]*", question)
    return {
        stem(t.casefold())
        for i, t in enumerate(tokens)
        if (i > 0 and t[0].isupper()) or t[0].isdigit()
    } - {stem(w) for w in QUESTION_STOPWORDS}


def _share(part: set[str], whole: set[str]) -> float:
    return len(part & whole) / len(part) if part else 1.0


def _passage(chunk: SourceChunk) -> str:
    return " ".join(x for x in (chunk.document_title, chunk.section_heading, chunk.chunk_text) if x)


def lexical_features(question: str, quotes: list[Quote]) -> dict[str, float]:
    """The features that need no embedder (coverage, answer type, negation)."""
    asked = _stems(question)
    names = _names(question)
    kind = expected_type(question)
    quoted = [_stems(q) for q, _ in quotes]
    passages = [_stems(_passage(c)) for _, c in quotes]
    in_passages = set().union(*passages) if passages else set()
    novel = [len(q - asked) / len(q) if q else 0.0 for q in quoted]
    matched = any(holds_type(kind, q, question) for q, _ in quotes)
    question_negated = bool(NEGATION.search(question))
    out = {
        "cover_quote": max((_share(asked, q) for q in quoted), default=0.0),
        "cover_passage": _share(asked, in_passages),
        "missing_passage": float(len(asked - in_passages)),
        "missing_names": float(len(names - in_passages)),
        "novel_quote": max(novel, default=0.0),
        "type_specific": float(kind not in ("yesno", "other")),
        "type_match": float(matched),
        "negation_mismatch": float(
            any(question_negated != bool(NEGATION.search(q)) for q, _ in quotes)
        ),
        "claims": float(len(quotes)),
    }
    out.update({f"type_{t}": float(t == kind) for t in TYPES})
    return out


def answerability_features(
    question: str, quotes: list[Quote], chunks: list[SourceChunk], embedder: Embedder
) -> dict[str, float]:
    """Every feature of FEATURES for an answer quoting `quotes`, given the ranked `chunks`."""
    out = lexical_features(question, quotes)
    texts = [question, *(q for q, _ in quotes), *(_passage(c) for c in chunks[:5])]
    vectors = embedder.embed(texts)
    sims = vectors[1:] @ vectors[0]
    quote_sims, chunk_sims = sims[: len(quotes)], np.sort(sims[len(quotes) :])[::-1]
    composite = sorted((c.composite_confidence for c in chunks), reverse=True)
    out["quote_cosine"] = float(quote_sims.max()) if len(quote_sims) else 0.0
    out["chunk_cosine"] = float(chunk_sims[0]) if len(chunk_sims) else 0.0
    out["chunk_margin"] = float(chunk_sims[0] - chunk_sims[1]) if len(chunk_sims) > 1 else 1.0
    out["composite_top"] = composite[0] if composite else 0.0
    out["composite_margin"] = composite[0] - composite[1] if len(composite) > 1 else 1.0
    return out


def load_answerability_model(path: Path | None = None) -> LearnedModel:
    """The shipped answerability model (or the one in the file at `path`)."""
    source = path or resources.files("ragcite.verify").joinpath(MODEL_FILE)
    model = load_models(source, what="answerability model", retrain=RETRAIN)["answerability"]
    require_features(model, FEATURES, what="answerability model", retrain=RETRAIN)
    return model


class AnswerabilityCheck:
    """P(the quoted passages answer the question), and the decision at the model's threshold."""

    def __init__(
        self,
        embedder: Embedder,
        model: LearnedModel | None = None,
        *,
        threshold: float | None = None,
    ) -> None:
        self.embedder = embedder
        self.model = model or load_answerability_model()
        self.threshold = self.model.threshold("answer") if threshold is None else threshold

    def probability(self, question: str, quotes: list[Quote], chunks: list[SourceChunk]) -> float:
        if not quotes:
            return 0.0
        row = answerability_features(question, quotes, chunks, self.embedder)
        return float(self.model.predict(self.model.matrix([row]))[0])

    def answers(self, question: str, quotes: list[Quote], chunks: list[SourceChunk]) -> bool:
        """True when the quoted passages answer `question` (probability ≥ threshold)."""
        return self.probability(question, quotes, chunks) >= self.threshold


def cited_quotes(claims: list[CitedClaim], chunks: list[SourceChunk]) -> list[Quote]:
    """(quote, cited chunk) for every citation of `claims` whose chunk is in `chunks`."""
    by_id = {c.chunk_id: c for c in chunks}
    return [
        (c.quote or claim.claim_text, by_id[c.chunk_id])
        for claim in claims
        for c in claim.citations
        if c.chunk_id in by_id
    ]


class AnswerabilityGate:
    """The pipeline's answerability decisions: the subject check (`gate.subject_check`,
    `ragcite.verify.subject`), the reading check (`gate.reading_check`,
    `ragcite.verify.reading.reading_conflict`) and the learned check
    (`gate.answerability`; the model loads on first use). It records its time as
    `answerability` in the ask's timings."""

    def __init__(self, settings: GateSettings, embedder: Embedder) -> None:
        self.settings = settings
        self.embedder = embedder
        self._check: AnswerabilityCheck | None = None

    def declines(
        self,
        question: str,
        claims: list[CitedClaim],
        chunks: list[SourceChunk],
        timings: dict[str, float],
    ) -> str | None:
        """Why the quoted passages do not answer `question`, in words; None when they do
        (or when every check is off)."""
        checks = self.settings
        if not (checks.subject_check or checks.reading_check or checks.answerability):
            return None  # off: the gate and the score decide
        quotes = cited_quotes(claims, chunks)
        if not quotes:
            return None  # nothing quoted to judge
        started = time.perf_counter()
        try:
            return self._declines(question, quotes, chunks)
        finally:
            timings["answerability"] = (time.perf_counter() - started) * 1000

    def _declines(
        self, question: str, quotes: list[Quote], chunks: list[SourceChunk]
    ) -> str | None:
        if self.settings.subject_check:
            missing = missing_subject(question, quotes, chunks, self.embedder)
            if missing:
                named = ", ".join(f'"{w}"' for w in missing)
                return (
                    f"Not answered: the documents found do not mention {named}, which the "
                    "question asks about; the closest sources are shown."
                )
        if self.settings.reading_check:
            conflict = reading_conflict(question, quotes)
            if conflict is not None:
                return conflict
        if not self.settings.answerability:
            return None
        if self._check is None:
            threshold = self.settings.answerability_threshold
            self._check = AnswerabilityCheck(self.embedder, threshold=threshold)
        p = self._check.probability(question, quotes, chunks)
        if p >= self._check.threshold:
            return None
        return (
            "Not answered: the quoted passages are about the question but do not answer it "
            f"(answerability {p:.2f}, below {self._check.threshold:.2f}); the closest sources "
            "are shown."
        )
