"""What feedback says about the corpus: the chunks and documents most often flagged as
wrong citations, and the questions repeatedly unanswerable or rated unhelpful (corpus
gaps), near-identical questions grouped by their normalised text.

Unanswerable questions are counted from saved answers (every API answer is saved) and
from the responses kept with feedback; ratings come from feedback.

    >>> report = feedback_report(rag)
    >>> report.gaps[0].question, report.gaps[0].unanswerable
    ('Who is the CEO?', 3)
    >>> labelled_gaps(report)[0]["answerable"]
    False
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ragcite.index.answers import answers_store
from ragcite.index.feedback import FeedbackRecord, feedback_store
from ragcite.pipeline import Ragcite

WRONG = frozenset({"wrong_citation", "down"})
"""Ratings that flag a cited chunk as wrong."""
UNHELPFUL = frozenset({"not_helpful", "missing_citation", "down"})
"""Ratings that say the answer did not help."""


def normalised(question: str) -> str:
    """A question as near-identical ones share it: case folded, punctuation and extra
    whitespace gone.

    >>> normalised("  Who is the CEO? "), normalised("who is the ceo")
    ('who is the ceo', 'who is the ceo')
    """
    return " ".join(re.sub(r"[^\w\s]", " ", question.casefold()).split())


@dataclass
class FlaggedChunk:
    chunk_id: str
    count: int
    document_id: str | None = None
    title: str | None = None
    claims: list[str] = field(default_factory=list)


@dataclass
class FlaggedDocument:
    document_id: str
    title: str
    count: int


@dataclass
class CorpusGap:
    """A question (its most frequent wording) asked repeatedly without a good answer."""

    question: str
    key: str
    unanswerable: int = 0
    unhelpful: int = 0
    wordings: Counter[str] = field(default_factory=Counter)

    @property
    def count(self) -> int:
        return self.unanswerable + self.unhelpful


@dataclass
class FeedbackReport:
    chunks: list[FlaggedChunk]
    documents: list[FlaggedDocument]
    gaps: list[CorpusGap]
    feedback_records: int
    saved_answers: int

    def as_json(self) -> dict[str, Any]:
        return {
            "feedback_records": self.feedback_records,
            "saved_answers": self.saved_answers,
            "wrong_chunks": [
                {
                    "chunk_id": c.chunk_id,
                    "document_id": c.document_id,
                    "title": c.title,
                    "count": c.count,
                    "claims": c.claims,
                }
                for c in self.chunks
            ],
            "wrong_documents": [
                {"document_id": d.document_id, "title": d.title, "count": d.count}
                for d in self.documents
            ],
            "gaps": [
                {
                    "question": g.question,
                    "count": g.count,
                    "unanswerable": g.unanswerable,
                    "unhelpful": g.unhelpful,
                    "wordings": sorted(g.wordings),
                }
                for g in self.gaps
            ],
        }


def feedback_report(rag: Ragcite, *, min_count: int = 2, limit: int = 20) -> FeedbackReport:
    """The report (see the module docstring): chunks and documents flagged wrong at least
    once, gaps asked `min_count` times or more; the `limit` most frequent of each."""
    records = feedback_store(rag.store).list_feedback(limit=None)
    answers = answers_store(rag.store).list_answers()
    chunks = _flagged_chunks(rag, records)
    gaps: dict[str, CorpusGap] = {}
    for answer in answers:
        if not json.loads(answer.response_json).get("answerable", True):
            _gap(gaps, answer.query).unanswerable += 1
    for record in reversed(records):  # oldest first: on a tie, the first wording is shown
        if record.rating in UNHELPFUL:
            _gap(gaps, record.query).unhelpful += 1
        elif record.response_json and _unanswerable(record.response_json):
            _gap(gaps, record.query).unanswerable += 1
    for gap in gaps.values():
        gap.question = gap.wordings.most_common(1)[0][0]
    frequent = [g for g in gaps.values() if g.count >= min_count]
    frequent.sort(key=lambda g: (-g.count, g.key))
    return FeedbackReport(
        chunks[:limit],
        _by_document(chunks)[:limit],
        frequent[:limit],
        len(records),
        len(answers),
    )


def labelled_gaps(report: FeedbackReport) -> list[dict[str, Any]]:
    """The gaps the system found unanswerable, as labelled questions `ragcite eval` reads
    (`answerable: false`: the corpus does not answer them, until a document is added)."""
    return [
        {
            "id": f"gap-{number:02d}",
            "query": gap.question,
            "answerable": False,
            "source": f"feedback: unanswerable {gap.unanswerable}x, unhelpful {gap.unhelpful}x",
        }
        for number, gap in enumerate((g for g in report.gaps if g.unanswerable), start=1)
    ]


def _flagged_chunks(rag: Ragcite, records: list[FeedbackRecord]) -> list[FlaggedChunk]:
    flagged: dict[str, FlaggedChunk] = {}
    for record in records:
        if record.rating in WRONG and record.chunk_id:
            entry = flagged.setdefault(record.chunk_id, FlaggedChunk(record.chunk_id, 0))
            entry.count += 1
            if record.claim_text and record.claim_text not in entry.claims:
                entry.claims.append(record.claim_text)
    for chunk in rag.store.get_chunks(list(flagged)):
        flagged[chunk.chunk_id].document_id = chunk.document_id
        flagged[chunk.chunk_id].title = chunk.document_title
    return sorted(flagged.values(), key=lambda c: (-c.count, c.chunk_id))


def _by_document(chunks: list[FlaggedChunk]) -> list[FlaggedDocument]:
    documents: dict[str, FlaggedDocument] = {}
    for chunk in chunks:
        if chunk.document_id is not None:
            entry = documents.setdefault(
                chunk.document_id, FlaggedDocument(chunk.document_id, chunk.title or "", 0)
            )
            entry.count += chunk.count
    return sorted(documents.values(), key=lambda d: (-d.count, d.document_id))


def _gap(gaps: dict[str, CorpusGap], question: str) -> CorpusGap:
    key = normalised(question)
    gap = gaps.setdefault(key, CorpusGap(question, key))
    gap.wordings[" ".join(question.split())] += 1
    return gap


def _unanswerable(response_json: str) -> bool:
    try:
        data = json.loads(response_json)
    except json.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("answerable") is False
