"""Re-checking saved answers against the store as it is now, claim by claim.

Each claim of a saved answer is looked up again through the chunks it cites:

- its sources are unchanged: the gate (quotes and support, `verify.gate`) runs again on
  them: `verified`, or `not_verified` when it no longer passes;
- a source version was superseded, or replaced (`changed`: same version, new text): the
  claim and its quotes are verified against the document's version in force, on the
  passages of it nearest the claim (dense) and its quotes (keyword): `…_supported` with
  the new version's text that supports it, or `…_unsupported` with its nearest passage;
- a source was deleted (`deleted`), or erased (`erased`; its text is gone).

    >>> report = recheck_answers(rag, answers_store(rag.store).list_answers())
    >>> [c.status for c in report.answers[0].claims]
    [<ClaimStatus.SUPERSEDED_SUPPORTED: 'superseded_supported'>]
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from ragcite.index.answers import ERASED_TEXT, SavedAnswer, erasing_store
from ragcite.index.store import SearchFilters
from ragcite.models import (
    CitedClaim,
    DocumentStatus,
    DraftAnswer,
    DraftCitation,
    DraftClaim,
    SourceChunk,
)
from ragcite.pipeline import Ragcite
from ragcite.verify.gate import verify_answer

NEAREST_PASSAGES = 4
"""Passages of a new version, nearest the claim and nearest its quotes, it is checked on."""


class ClaimStatus(StrEnum):
    VERIFIED = "verified"
    NOT_VERIFIED = "not_verified"
    SUPERSEDED_SUPPORTED = "superseded_supported"
    SUPERSEDED_UNSUPPORTED = "superseded_unsupported"
    CHANGED_SUPPORTED = "changed_supported"
    CHANGED_UNSUPPORTED = "changed_unsupported"
    DELETED = "deleted"
    ERASED = "erased"


DETAIL = {
    ClaimStatus.VERIFIED: "still verified: its sources are unchanged and support it",
    ClaimStatus.NOT_VERIFIED: "not verified: its sources are unchanged but fail the gate now",
    ClaimStatus.SUPERSEDED_SUPPORTED: "source superseded: the new version still supports it",
    ClaimStatus.SUPERSEDED_UNSUPPORTED: "source superseded: the new version does not support it",
    ClaimStatus.CHANGED_SUPPORTED: "source changed: its current text still supports it",
    ClaimStatus.CHANGED_UNSUPPORTED: "source changed: its current text does not support it",
    ClaimStatus.DELETED: "source deleted",
    ClaimStatus.ERASED: "source erased",
}

# When a claim's sources fare differently, the worst decides (erased is the worst).
_SEVERITY = ["same", "changed", "superseded", "deleted", "erased"]


@dataclass(frozen=True)
class ClaimCheck:
    """One claim re-checked: its status and, for a new version, the text that decided it."""

    claim_text: str
    status: ClaimStatus
    document_id: str | None = None
    new_version: int | None = None
    new_chunk_id: str | None = None
    new_text: str | None = None

    @property
    def detail(self) -> str:
        return DETAIL[self.status]


@dataclass(frozen=True)
class AnswerCheck:
    answer_id: str
    query: str
    created_at: datetime
    claims: list[ClaimCheck]

    @property
    def still_verified(self) -> bool:
        return all(c.status is ClaimStatus.VERIFIED for c in self.claims)


@dataclass
class RecheckReport:
    answers: list[AnswerCheck] = field(default_factory=list)
    seconds: float = 0.0

    def counts(self) -> dict[str, int]:
        """How many claims have each status."""
        found = Counter(str(c.status) for a in self.answers for c in a.claims)
        return {str(s): found[str(s)] for s in ClaimStatus if found[str(s)]}

    @property
    def answers_per_second(self) -> float:
        return len(self.answers) / self.seconds if self.seconds > 0 else 0.0

    def as_json(self) -> dict[str, Any]:
        """The report as the API and `ragcite recheck --json` give it."""
        return {
            "answers": [
                {
                    "answer_id": a.answer_id,
                    "query": a.query,
                    "created_at": a.created_at.isoformat(),
                    "still_verified": a.still_verified,
                    "claims": [
                        {
                            "claim_text": c.claim_text,
                            "status": str(c.status),
                            "detail": c.detail,
                            "document_id": c.document_id,
                            "new_version": c.new_version,
                            "new_chunk_id": c.new_chunk_id,
                            "new_text": c.new_text,
                        }
                        for c in a.claims
                    ],
                }
                for a in self.answers
            ],
            "counts": self.counts(),
            "seconds": round(self.seconds, 3),
        }


def recheck_answers(
    rag: Ragcite, answers: list[SavedAnswer], *, access_groups: tuple[str, ...] | None = None
) -> RecheckReport:
    """Re-check each saved answer (see the module docstring), reading what
    `access_groups` may read (None: everything)."""
    started = time.perf_counter()
    erased = {t.document_id for t in erasing_store(rag.store).tombstones()}
    checker = _Rechecker(rag, erased, access_groups)
    report = RecheckReport([checker.answer(a) for a in answers])
    report.seconds = time.perf_counter() - started
    return report


class _Rechecker:
    def __init__(
        self, rag: Ragcite, erased: set[str], access_groups: tuple[str, ...] | None
    ) -> None:
        self.rag = rag
        self.erased = erased
        self.groups = access_groups
        self._active: dict[str, bool] = {}

    def answer(self, saved: SavedAnswer) -> AnswerCheck:
        response = saved.response
        erased = self.erased | set(saved.erased_documents)
        cited = [i for c in response.cited_claims for i in c.source_chunk_ids]
        now = {c.chunk_id: c for c in self.rag.store.get_chunks(cited, access_groups=self.groups)}
        then = {c.chunk_id: c for c in response.source_chunks}
        claims = [self._claim(c, then, now, erased) for c in response.cited_claims]
        return AnswerCheck(saved.answer_id, saved.query, saved.created_at, claims)

    def _claim(
        self,
        claim: CitedClaim,
        then: dict[str, SourceChunk],
        now: dict[str, SourceChunk],
        erased: set[str],
    ) -> ClaimCheck:
        states = {i: self._state(then.get(i), now.get(i), erased) for i in claim.source_chunk_ids}
        if claim.claim_text == ERASED_TEXT:
            return ClaimCheck(claim.claim_text, ClaimStatus.ERASED)
        if not states:  # a claim the gate kept unsourced: nothing to verify it against
            return ClaimCheck(claim.claim_text, ClaimStatus.NOT_VERIFIED)
        worst_id = max(states, key=lambda i: _SEVERITY.index(states[i]))
        worst, document_id = states[worst_id], _document_of(worst_id, then, now)
        if worst == "erased":
            return ClaimCheck(ERASED_TEXT, ClaimStatus.ERASED, document_id)
        if worst == "deleted" or document_id is None:
            return ClaimCheck(claim.claim_text, ClaimStatus.DELETED, document_id)
        if worst == "same":
            current = [now[i] for i in claim.source_chunk_ids]
            passed = _verified(self.rag, claim, current, current[0].chunk_id)
            status = ClaimStatus.VERIFIED if passed is not None else ClaimStatus.NOT_VERIFIED
            return ClaimCheck(claim.claim_text, status, document_id)
        return self._against_current(claim, document_id, superseded=worst == "superseded")

    def _state(self, then: SourceChunk | None, now: SourceChunk | None, erased: set[str]) -> str:
        if then is not None and then.document_id in erased:
            return "erased"
        if now is None:
            if then is None:
                return "deleted"
            return "changed" if self._in_force(then.document_id) else "deleted"
        if now.document_status is DocumentStatus.DELETED:
            return "deleted"
        if now.document_status is DocumentStatus.SUPERSEDED:
            return "superseded" if self._in_force(now.document_id) else "deleted"
        return "same" if then is None or then.chunk_text == now.chunk_text else "changed"

    def _in_force(self, document_id: str) -> bool:
        """Whether the document's newest version is active (asked once per document)."""
        if document_id not in self._active:
            latest = self.rag.store.latest_version(document_id)
            self._active[document_id] = (
                latest is not None and latest.status is DocumentStatus.ACTIVE
            )
        return self._active[document_id]

    def _passages(self, document_id: str, claim: CitedClaim) -> list[SourceChunk]:
        """The passages of the document's version in force (that the reader may read)
        nearest the claim, then those holding its quotes' words."""
        store = self.rag.store
        filters = SearchFilters(
            statuses=(DocumentStatus.ACTIVE,),
            access_groups=self.groups,
            document_ids=(document_id,),
        )
        vector = self.rag.embedder.embed([claim.claim_text])[0]
        found = [hit.chunk for hit in store.dense_search(vector, NEAREST_PASSAGES, filters)]
        for quote in (c.quote for c in claim.citations if c.quote):
            found += [hit.chunk for hit in store.keyword_search(quote, 2, filters)]
        return list({c.chunk_id: c for c in found}.values())

    def _against_current(
        self, claim: CitedClaim, document_id: str, *, superseded: bool
    ) -> ClaimCheck:
        """The claim verified against the document's version in force."""
        candidates = self._passages(document_id, claim)
        kinds = (
            (ClaimStatus.SUPERSEDED_SUPPORTED, ClaimStatus.SUPERSEDED_UNSUPPORTED)
            if superseded
            else (ClaimStatus.CHANGED_SUPPORTED, ClaimStatus.CHANGED_UNSUPPORTED)
        )
        if not candidates:
            return ClaimCheck(claim.claim_text, ClaimStatus.DELETED, document_id)
        checked = _verified(self.rag, claim, candidates, candidates[0].chunk_id)
        if checked is None:
            best = candidates[0]
            return ClaimCheck(
                claim.claim_text,
                kinds[1],
                document_id,
                best.document_version,
                best.chunk_id,
                best.chunk_text,
            )
        chunk, text = checked
        return ClaimCheck(
            claim.claim_text, kinds[0], document_id, chunk.document_version, chunk.chunk_id, text
        )


def _verified(
    rag: Ragcite, claim: CitedClaim, chunks: list[SourceChunk], default_id: str
) -> tuple[SourceChunk, str] | None:
    """Run the gate on `claim` over `chunks` (each quote first sought in its own chunk,
    then in any of them); the chunk and text that verify it, or None when it fails."""
    by_id = {c.chunk_id: c for c in chunks}
    citations = [
        DraftCitation(chunk_id=c.chunk_id if c.chunk_id in by_id else default_id, quote=c.quote)
        for c in claim.citations
    ] or [DraftCitation(chunk_id=default_id)]
    draft = DraftAnswer(
        answer_text=claim.claim_text,
        claims=[DraftClaim(claim_text=claim.claim_text, citations=citations)],
    )
    gate = verify_answer(draft, chunks, support_checker=rag.support_checker, policy="annotate")
    if not gate.claims or not gate.claims[0].verified:
        return None
    for citation in gate.claims[0].citations:
        if citation.quote_start is not None and citation.quote_end is not None:
            chunk = by_id[citation.chunk_id]
            return chunk, chunk.chunk_text[citation.quote_start : citation.quote_end]
    chunk = by_id[gate.claims[0].citations[0].chunk_id]
    return chunk, chunk.chunk_text


def _document_of(
    chunk_id: str, then: dict[str, SourceChunk], now: dict[str, SourceChunk]
) -> str | None:
    found = then.get(chunk_id) or now.get(chunk_id)
    return found.document_id if found is not None else None
