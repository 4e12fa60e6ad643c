"""The pipeline: the one place where the stages are wired and the fallback ladder runs.

    >>> rag = Ragcite.open(load_settings())
    >>> rag.ingest([Path("demo")]).added
    8
    >>> response = rag.ask("How long do we keep customer PII?")
    >>> response.cited_claims[0].citations[0].display
    'Data Retention Policy v2024 → Customer records'

ask(): retrieve → rerank → generate → verify (the gate) → score, with the ladder:
a draft that fails the gate, cannot be read, or scores below
`gate.min_overall_confidence` is regenerated once with its violations named (for
generators that can use them, when `gate.retry_on_failure`); if the final answer has
no verified claim or is still below the confidence floor, it degrades to "the
sources, without the claim". Each step is in `warning_flags` and `timings_ms`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ragcite.config import GateSettings, GenerateSettings, Settings
from ragcite.embed.base import Embedder
from ragcite.embed.cached import CachedEmbedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.errors import InputError, UnusableOutputError
from ragcite.flags import flag
from ragcite.generate.base import Generator
from ragcite.generate.complete import LazyCompletion
from ragcite.generate.factory import build_generator
from ragcite.index.indexer import FileOutcome, Indexer, IngestReport
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.store import SearchFilters, Store
from ragcite.ingest.types import DocumentMetadata
from ragcite.models import (
    CitedClaim,
    CitedResponse,
    ConfidenceLabel,
    DocumentStatus,
    DraftAnswer,
    SourceChunk,
    WarningFlag,
)
from ragcite.rerank.base import Reranker
from ragcite.rerank.composite import rerank_chunks
from ragcite.rerank.factory import build_reranker
from ragcite.retrieve.hybrid import HybridRetriever
from ragcite.score.calibration import optional_calibration
from ragcite.score.confidence import Calibration, ScoredAnswer, score_answer
from ragcite.verify.gate import GateResult, verify_answer
from ragcite.verify.support import (
    JudgedSupportChecker,
    SupportChecker,
    default_support_checker,
)
from ragcite.verify.support.llm_judge import JUDGE_MAX_TOKENS

NOT_FOUND_TEXT = "I couldn't find this in the documents; closest material:"
DEGRADED_TEXT = (
    "I couldn't produce a verified answer to this question; these are the most relevant sources:"
)
EMPTY_STORE_TEXT = "The store holds no documents yet: add some with `ragcite ingest PATH`."
NEAREST_SOURCES = 3
MAX_QUERY_CHARS = 2000


class Ragcite:
    """One collection: its store and the stages that answer questions from it."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store,
        embedder: Embedder,
        reranker: Reranker | None = None,
        generator: Generator | None = None,
        support_checker: SupportChecker | None,
        calibration: Calibration | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.embedder = embedder
        self._reranker = reranker
        self._generator = generator
        self.support_checker = support_checker
        self.calibration = calibration
        self.retriever = HybridRetriever(
            store,
            embedder,
            candidates=settings.retrieve.candidates_per_retriever,
            rrf_k=settings.retrieve.rrf_k,
        )

    @classmethod
    def open(cls, settings: Settings, *, generator: Generator | None = None) -> Ragcite:
        """The default offline stack over the embedded store named in `settings`."""
        embedder = CachedEmbedder(MiniLMEmbedder())
        return cls(
            settings,
            store=SQLiteStore(settings.store_path),
            embedder=embedder,
            generator=generator,
            support_checker=with_support_judge(
                default_support_checker(embedder, semantic=settings.gate.support_semantic),
                settings.gate,
                settings.generate,
            ),
            calibration=optional_calibration(settings.score.calibration_path),
        )

    @property
    def reranker(self) -> Reranker:
        """The reranker `rerank.backend` names, built on first use: `ingest` never needs it."""
        if self._reranker is None:
            self._reranker = build_reranker(
                self.settings.rerank.backend, self.embedder, generate=self.settings.generate
            )
        return self._reranker

    @property
    def generator(self) -> Generator:
        """The configured generator, built on first use: `ingest` never needs an LLM's key."""
        if self._generator is None:
            spec = self.settings.generate.llm or "extractive"
            self._generator = build_generator(spec, self.embedder, self.settings.generate)
        return self._generator

    def close(self) -> None:
        self.store.close()

    # -- ingest -------------------------------------------------------------------------

    def ingest(
        self,
        paths: list[Path],
        *,
        metadata: DocumentMetadata | None = None,
        corpus: str | None = None,
        on_start: Callable[[int], None] | None = None,
        on_file: Callable[[FileOutcome], None] | None = None,
    ) -> IngestReport:
        indexer = Indexer(
            self.store,
            self.embedder,
            chunking=self.settings.chunk,
            corpus=corpus or self.settings.corpus,
        )
        return indexer.ingest(paths, metadata=metadata, on_start=on_start, on_file=on_file)

    # -- search and ask -----------------------------------------------------------------------

    def filters(
        self,
        corpora: tuple[str, ...] | None = None,
        access_groups: tuple[str, ...] | None = None,
        include_superseded: bool | None = None,
    ) -> SearchFilters:
        superseded = (
            self.settings.retrieve.include_superseded
            if include_superseded is None
            else include_superseded
        )
        statuses = (DocumentStatus.ACTIVE,) + ((DocumentStatus.SUPERSEDED,) if superseded else ())
        return SearchFilters(corpora=corpora, statuses=statuses, access_groups=access_groups)

    def search(
        self, query: str, *, k: int | None = None, filters: SearchFilters | None = None
    ) -> tuple[list[SourceChunk], dict[str, float]]:
        """Retrieved and reranked chunks (best composite first) with stage timings in ms."""
        query = _checked_query(query)
        timings: dict[str, float] = {}
        with _timed(timings, "retrieve"):
            retrieved = self.retriever.retrieve(
                query, k or self.settings.retrieve.top_k, filters or self.filters()
            )
        with _timed(timings, "rerank"):
            outcome = rerank_chunks(query, retrieved.chunks, self.reranker, self.settings.rerank)
        return outcome.chunks, timings

    def ask(
        self,
        query: str,
        *,
        k: int | None = None,
        filters: SearchFilters | None = None,
        generator: Generator | None = None,
    ) -> CitedResponse:
        """Answer `query` with verified, cited claims (see the module docstring)."""
        started = time.perf_counter()
        query = _checked_query(query)
        generator = generator or self.generator
        corpus_version = self.store.corpus_version()
        if self.store.counts().chunks == 0:
            return CitedResponse(
                query=query,
                answer_text=EMPTY_STORE_TEXT,
                answerable=False,
                warning_flags=[flag("no_documents_retrieved")],
                model_id=generator.model_id,
                corpus_version=corpus_version,
            )
        chunks, timings = self.search(query, k=k, filters=filters)
        asked = _Asked(query, generator.model_id, corpus_version, timings, started)
        if not chunks:
            return asked.unanswerable([], [flag("no_documents_retrieved")])
        attempt = self._attempt(query, chunks, generator, timings)
        flags: list[WarningFlag] = []
        if (
            self._needs_retry(attempt)
            and getattr(generator, "can_retry", False)
            and self.settings.gate.retry_on_failure
        ):
            violations = self._violations(attempt)
            flags.append(flag("retried", reason="; ".join(violations[:3])))
            attempt = self._attempt(
                query, chunks, generator, timings, violations=violations, step="_retry"
            )
        if attempt.error is not None:
            flags += [flag("generation_failed", reason=attempt.error), flag("degraded_to_sources")]
            return asked.unanswerable(chunks, flags, text=DEGRADED_TEXT)
        draft, gate, scored = attempt.draft, attempt.gate, attempt.scored
        if not draft.answerable or (not draft.claims and not gate.flags):
            return asked.unanswerable(chunks, [*flags, flag("not_answerable")])
        flags += gate.flags
        if self._needs_degrading(attempt):
            flags.append(flag("degraded_to_sources"))
            return asked.unanswerable(
                _sources_first(chunks, gate.claims), flags, text=DEGRADED_TEXT
            )
        flags += scored.flags
        flags += _superseded_flags(scored.claims, chunks)
        timings["total"] = _ms(started)
        return CitedResponse(
            query=query,
            answer_text=gate.answer_text,
            answerable=True,
            cited_claims=scored.claims,
            source_chunks=chunks,
            overall_confidence=scored.overall_confidence,
            confidence_label=scored.label,
            warning_flags=_unique(flags),
            model_id=draft.model_id or generator.model_id,
            corpus_version=corpus_version,
            timings_ms=timings,
        )

    # -- the fallback ladder -----------------------------------------------------------------

    def _attempt(
        self,
        query: str,
        chunks: list[SourceChunk],
        generator: Generator,
        timings: dict[str, float],
        *,
        violations: list[str] | None = None,
        step: str = "",
    ) -> _Attempt:
        """One rung: generate, verify and score, each timed as `<stage><step>`."""
        with _timed(timings, "generate" + step):
            try:
                draft = generator.generate(query, chunks, violations=violations)
            except UnusableOutputError as exc:  # a bad answer, unlike an unreachable server
                return _Attempt(error=str(exc))
        with _timed(timings, "verify" + step):
            gate = self._gate(draft, chunks)
        with _timed(timings, "score" + step):
            scored = score_answer(
                gate.claims,
                chunks,
                self.settings.score,
                calibration=self.calibration,
                self_reported=[c.attribution_confidence or None for c in gate.claims],
            )
        return _Attempt(draft, gate, scored)

    def _needs_retry(self, attempt: _Attempt) -> bool:
        if attempt.error is not None:
            return True
        if not attempt.draft.answerable:
            return False
        return not attempt.gate.passed or self._below_floor(attempt)

    def _needs_degrading(self, attempt: _Attempt) -> bool:
        return not any(c.verified for c in attempt.scored.claims) or self._below_floor(attempt)

    def _below_floor(self, attempt: _Attempt) -> bool:
        return attempt.scored.overall_confidence < self.settings.gate.min_overall_confidence

    def _violations(self, attempt: _Attempt) -> list[str]:
        """What the retry prompt names: the gate's violations, or why nothing was usable."""
        if attempt.error is not None:
            return [
                f"the output could not be used ({attempt.error}); reply with one JSON "
                "object in the schema"
            ]
        violations = list(attempt.gate.violations)
        if not any(c.verified for c in attempt.gate.claims):
            violations.append("no claim could be verified against the sources")
        if self._below_floor(attempt):
            violations.append(
                f"the answer's confidence is {attempt.scored.overall_confidence:.2f}, below "
                f"{self.settings.gate.min_overall_confidence:.2f}: cite the sources that state "
                "the answer directly"
            )
        return violations

    def _gate(self, draft: DraftAnswer, chunks: list[SourceChunk]) -> GateResult:
        return verify_answer(
            draft, chunks, support_checker=self.support_checker, policy=self.settings.gate.policy
        )


def with_support_judge(
    checker: SupportChecker, gate: GateSettings, generate: GenerateSettings | None = None
) -> SupportChecker:
    """`checker`, with the LLM judge tier over it when `gate.support_judge` names a model.

    The model is built on its first borderline claim, so a judge whose API key is
    missing never breaks ingest or startup (its claims keep the checker's verdict).

    >>> type(with_support_judge(checker, GateSettings(support_judge="local:smollm2"))).__name__
    'JudgedSupportChecker'
    """
    generate = generate or GenerateSettings()
    if not gate.support_judge:
        return checker
    complete = LazyCompletion(
        gate.support_judge,
        generate.model_copy(update={"llm_timeout_s": gate.support_judge_timeout_s}),
        max_tokens=JUDGE_MAX_TOKENS,
    )
    return JudgedSupportChecker(
        checker,
        complete,
        model_id=gate.support_judge,
        below=gate.support_judge_below,
        above=gate.support_judge_above,
    )


@dataclass(frozen=True)
class _Asked:
    """What every way out of one ask() shares: the question, model, corpus and clock."""

    query: str
    model_id: str
    corpus_version: str
    timings: dict[str, float]
    started: float

    def unanswerable(
        self, chunks: list[SourceChunk], flags: list[WarningFlag], *, text: str = NOT_FOUND_TEXT
    ) -> CitedResponse:
        """No verified answer: the text, the nearest sources and the flags saying why."""
        self.timings["total"] = _ms(self.started)
        return CitedResponse(
            query=self.query,
            answer_text=text,
            answerable=False,
            source_chunks=chunks[:NEAREST_SOURCES],
            overall_confidence=0.0,
            confidence_label=ConfidenceLabel.VERY_LOW,
            warning_flags=_unique(flags),
            model_id=self.model_id,
            corpus_version=self.corpus_version,
            timings_ms=self.timings,
        )


def _checked_query(query: str) -> str:
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


def _superseded_flags(claims: list[CitedClaim], chunks: list[SourceChunk]) -> list[WarningFlag]:
    by_id = {c.chunk_id: c for c in chunks}
    return [
        flag("superseded_source", display=by_id[i].display)
        for i in dict.fromkeys(i for c in claims for i in c.source_chunk_ids)
        if i in by_id and by_id[i].document_status is DocumentStatus.SUPERSEDED
    ]


@dataclass
class _Attempt:
    """One generate → verify → score pass; `error` when the output was unusable."""

    draft: DraftAnswer = field(
        default_factory=lambda: DraftAnswer(answer_text="", answerable=False)
    )
    gate: GateResult = field(default_factory=lambda: GateResult("", []))
    scored: ScoredAnswer = field(
        default_factory=lambda: ScoredAnswer([], 0.0, ConfidenceLabel.VERY_LOW, [])
    )
    error: str | None = None


def _sources_first(chunks: list[SourceChunk], claims: list[CitedClaim]) -> list[SourceChunk]:
    """`chunks` with those cited by verified claims first: the best sources to show."""
    cited = {i for c in claims if c.verified for i in c.source_chunk_ids}
    return sorted(chunks, key=lambda c: c.chunk_id not in cited)


def _unique(flags: list[WarningFlag]) -> list[WarningFlag]:
    return list(dict.fromkeys(flags))


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = _ms(started)
