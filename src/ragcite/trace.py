"""The record of one ask: what each stage produced, and the response built from it.

`Ragcite.ask_traced()` returns an `AskTrace`; the evaluation harness scores the
rankings, drafts and gate results in it, so it measures exactly what `ask` did.

    >>> trace = rag.ask_traced("How long do we keep customer PII?")
    >>> trace.reranked[0].document_title, len(trace.attempts)
    ('Data Retention Policy', 1)
    >>> trace.final.gate.passed, trace.response.answerable
    (True, True)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from ragcite.errors import InputError
from ragcite.flags import flag
from ragcite.models import (
    CitedClaim,
    CitedResponse,
    ConfidenceLabel,
    DraftAnswer,
    SourceChunk,
    WarningFlag,
    new_answer_id,
)
from ragcite.retrieve.hybrid import RetrievalResult
from ragcite.score.confidence import ScoredAnswer
from ragcite.score.reasons import NO_ANSWER_REASON
from ragcite.verify.gate import GateResult, Policy, verify_answer
from ragcite.verify.support import SupportChecker

NOT_FOUND_TEXT = "I couldn't find this in the documents; closest material:"
DEGRADED_TEXT = (
    "I couldn't produce a verified answer to this question; these are the most relevant sources:"
)
EMPTY_STORE_TEXT = "The store holds no documents yet: add some with `ragcite ingest PATH`."
NEAREST_SOURCES = 3
MAX_QUERY_CHARS = 2000

Progress = Callable[[str, int], None]
# Who hears how far an ask has come ("passages", 6), ("checking", 3), then ("verified", 1),
# ("verified", 2)… as each claim passes the gate; set by a caller that shows progress (the
# server's /ask/stream), None elsewhere. A context variable, so the pipeline's signatures
# stay as they are.
progress_hook: ContextVar[Progress | None] = ContextVar("ragcite_progress", default=None)

PassedClaim = Callable[[CitedClaim, list[SourceChunk]], None]
# Who hears each claim that passes the gate, as it passes, with the chunks it may cite (the
# server's /ask/stream shows it before the answer is final). Claims that fail are never
# passed on. Set like `progress_hook`; None elsewhere.
claim_hook: ContextVar[PassedClaim | None] = ContextVar("ragcite_passed_claim", default=None)


@dataclass
class Attempt:
    """One generate → verify → score pass; `error` when the output was unusable."""

    draft: DraftAnswer = field(
        default_factory=lambda: DraftAnswer(answer_text="", answerable=False)
    )
    gate: GateResult = field(default_factory=lambda: GateResult("", []))
    scored: ScoredAnswer = field(
        default_factory=lambda: ScoredAnswer([], 0.0, ConfidenceLabel.VERY_LOW, [])
    )
    error: str | None = None


def retry_violations(attempt: Attempt, floor: float) -> list[str]:
    """What the retry prompt names: the gate's violations, or why nothing was usable, and
    an evidence confidence under `floor` (`gate.min_overall_confidence`)."""
    if attempt.error is not None:
        return [
            f"the output could not be used ({attempt.error}); reply with one JSON "
            "object in the schema"
        ]
    violations = list(attempt.gate.violations)
    if not any(c.verified for c in attempt.gate.claims):
        violations.append("no claim could be verified against the sources")
    if attempt.scored.evidence < floor:
        violations.append(
            f"the answer's evidence confidence is {attempt.scored.evidence:.2f}, below "
            f"{floor:.2f}: cite the sources that state the answer directly"
        )
    return violations


@dataclass(frozen=True)
class AskTrace:
    """What each stage of one `ask` produced: `retrieved` (the dense, keyword and fused
    rankings; None when the store is empty), `reranked` (the chunks generation saw, best
    first), `attempts` (each rung of the ladder: draft, gate result, scored answer), and
    the `response` that came out. Stage timings are `response.timings_ms`."""

    response: CitedResponse
    retrieved: RetrievalResult | None
    reranked: list[SourceChunk]
    attempts: tuple[Attempt, ...]

    @property
    def final(self) -> Attempt | None:
        """The last rung of the ladder, or None when nothing was generated."""
        return self.attempts[-1] if self.attempts else None


@dataclass
class AskRecord:
    """One ask() under way: the question, model, corpus and clock every way out shares,
    and what each stage has produced so far (the trace)."""

    query: str
    model_id: str
    corpus_version: str
    timings: dict[str, float]
    started: float
    retrieved: RetrievalResult | None = None
    reranked: list[SourceChunk] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)

    def report(self, stage: str, count: int) -> None:
        """Tell the `progress_hook` (if any) that `stage` is reached with `count` items."""
        hook = progress_hook.get()
        if hook is not None:
            hook(stage, count)

    def verify(
        self,
        draft: DraftAnswer,
        chunks: list[SourceChunk],
        support_checker: SupportChecker | None,
        policy: Policy,
    ) -> GateResult:
        """The gate's result for `draft`; the `progress_hook` hears `checking` (the claims
        to check), then `verified` (how many have passed so far) as each claim passes, and
        the `claim_hook` hears each claim that passes, right after."""
        self.report("checking", len(draft.claims))
        passed = itertools.count(1)
        hear_claim = claim_hook.get()

        def checked(claim: CitedClaim) -> None:
            if claim.verified:
                self.report("verified", next(passed))
                if hear_claim is not None:
                    hear_claim(claim, chunks)

        return verify_answer(
            draft, chunks, support_checker=support_checker, policy=policy, on_claim=checked
        )

    def attempted(self, attempt: Attempt) -> Attempt:
        self.attempts.append(attempt)
        return attempt

    def empty_store(self) -> AskTrace:
        return self._trace(
            CitedResponse(
                query=self.query,
                answer_text=EMPTY_STORE_TEXT,
                answerable=False,
                warning_flags=[flag("no_documents_retrieved")],
                model_id=self.model_id,
                corpus_version=self.corpus_version,
            )
        )

    def unanswerable(
        self,
        chunks: list[SourceChunk],
        flags: list[WarningFlag],
        *,
        text: str = NOT_FOUND_TEXT,
        reason: str | None = None,
    ) -> AskTrace:
        """No verified answer: the text, the nearest sources and the flags saying why (and
        `reason`, when given, as the confidence reason)."""
        self.timings["total"] = elapsed_ms(self.started)
        return self._trace(
            CitedResponse(
                query=self.query,
                answer_text=text,
                answerable=False,
                source_chunks=chunks[:NEAREST_SOURCES],
                overall_confidence=0.0,
                confidence_label=ConfidenceLabel.VERY_LOW,
                confidence_reason=reason
                or (
                    NO_ANSWER_REASON
                    if text == NOT_FOUND_TEXT
                    else "No verified answer: the closest sources are shown."
                ),
                warning_flags=_unique(flags),
                model_id=self.model_id,
                corpus_version=self.corpus_version,
                timings_ms=self.timings,
            )
        )

    def answered(
        self, attempt: Attempt, chunks: list[SourceChunk], flags: list[WarningFlag]
    ) -> AskTrace:
        """The verified answer of `attempt`, citing `chunks`."""
        self.timings["total"] = elapsed_ms(self.started)
        scored = attempt.scored
        return self._trace(
            CitedResponse(
                query=self.query,
                answer_text=attempt.gate.answer_text,
                answerable=True,
                cited_claims=scored.claims,
                source_chunks=chunks,
                overall_confidence=scored.overall_confidence,
                confidence_label=scored.label,
                confidence_reason=scored.reason,
                warning_flags=_unique(flags),
                model_id=attempt.draft.model_id or self.model_id,
                corpus_version=self.corpus_version,
                timings_ms=self.timings,
            )
        )

    def _trace(self, response: CitedResponse) -> AskTrace:
        response.answer_id = new_answer_id()
        return AskTrace(response, self.retrieved, self.reranked, tuple(self.attempts))


def _unique(flags: list[WarningFlag]) -> list[WarningFlag]:
    return list(dict.fromkeys(flags))


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


def sources_first(chunks: list[SourceChunk], claims: list[CitedClaim]) -> list[SourceChunk]:
    """`chunks` with those cited by verified claims first: the best sources to show."""
    cited = {i for c in claims if c.verified for i in c.source_chunk_ids}
    return sorted(chunks, key=lambda c: c.chunk_id not in cited)


@contextmanager
def timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    """Time the block into `timings[stage]` (ms)."""
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = elapsed_ms(started)


def checked_query(query: str) -> str:
    """`query` stripped; InputError when it is empty or too long."""
    query = (query or "").strip()
    if not query:
        raise InputError(
            'the question is empty: ask something, e.g. ragcite ask "How long is parental leave?"'
        )
    if len(query) > MAX_QUERY_CHARS:
        raise InputError(
            f"the question is {len(query)} characters long; the limit is {MAX_QUERY_CHARS}"
        )
    return query
