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
sources, without the claim". Each step is in `warning_flags` and `timings_ms`;
`ask_traced()` also returns what every stage produced (`AskTrace`).

The backends come from `ragcite.compose` (the composition root), never built here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ragcite.compose import compose, make_generator, make_reranker, make_store
from ragcite.config import Settings
from ragcite.embed.base import Embedder
from ragcite.errors import InputError, UnusableOutputError
from ragcite.flags import flag
from ragcite.generate.base import Generator
from ragcite.index.indexer import FileOutcome, Indexer, IngestReport
from ragcite.index.store import SearchFilters, Store
from ragcite.ingest.types import DocumentMetadata
from ragcite.models import (
    CitedClaim,
    CitedResponse,
    DocumentStatus,
    SourceChunk,
    WarningFlag,
)
from ragcite.rerank.base import Reranker
from ragcite.rerank.composite import rerank_chunks
from ragcite.retrieve.fanout import CorpusSource, retrieve_corpora
from ragcite.retrieve.hybrid import HybridRetriever, RetrievalResult
from ragcite.score.confidence import Calibration, score_answer
from ragcite.trace import DEGRADED_TEXT, AskRecord, AskTrace, Attempt, elapsed_ms
from ragcite.verify.gate import verify_answer
from ragcite.verify.support import SupportChecker

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
        read_store: Store | None = None,
    ) -> None:
        """`read_store`: a read-only replica of `store` that retrieval reads from."""
        self.settings = settings
        self.store = store
        self.read_store = read_store
        self.embedder = embedder
        self._reranker = reranker
        self._generator = generator
        self.support_checker = support_checker
        self.calibration = calibration
        self.retriever = HybridRetriever(
            read_store or store,
            embedder,
            candidates=settings.retrieve.candidates_per_retriever,
            rrf_k=settings.retrieve.rrf_k,
        )
        self._corpus_retrievers: dict[str, HybridRetriever] = {}
        self._opening = threading.Lock()  # the server asks from several threads

    @classmethod
    def open(cls, settings: Settings, *, generator: Generator | None = None) -> Ragcite:
        """The collection `settings.store` names, with the backends the settings choose."""
        parts = compose(settings)
        return cls(
            settings,
            store=parts.store,
            embedder=parts.embedder,
            generator=generator,
            support_checker=parts.support_checker,
            calibration=parts.calibration,
            read_store=parts.read_store,
        )

    @property
    def reranker(self) -> Reranker:
        """The reranker `rerank.backend` names, built on first use: `ingest` never needs it."""
        if self._reranker is None:
            self._reranker = make_reranker(self.settings, self.embedder)
        return self._reranker

    @property
    def generator(self) -> Generator:
        """The configured generator, built on first use: `ingest` never needs an LLM's key."""
        if self._generator is None:
            self._generator = make_generator(self.settings, self.embedder)
        return self._generator

    def close(self) -> None:
        self.store.close()
        if self.read_store is not None:
            self.read_store.close()
        for retriever in self._corpus_retrievers.values():
            retriever.store.close()
        self._corpus_retrievers.clear()

    # -- ingest -------------------------------------------------------------------------

    def ingest(
        self,
        paths: list[Path],
        *,
        metadata: DocumentMetadata | None = None,
        corpus: str | None = None,
        on_start: Callable[[int], None] | None = None,
        on_file: Callable[[FileOutcome], None] | None = None,
        on_chunks: Callable[[Path, int, int], None] | None = None,
    ) -> IngestReport:
        return self.indexer(corpus).ingest(
            paths, metadata=metadata, on_start=on_start, on_file=on_file, on_chunks=on_chunks
        )

    def indexer(self, corpus: str | None = None) -> Indexer:
        """An Indexer over this store and embedder with the settings' chunking and limits."""
        return Indexer(
            self.store,
            self.embedder,
            chunking=self.settings.chunk,
            corpus=corpus or self.settings.corpus,
            limits=self.settings.ingest,
        )

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
        timings: dict[str, float] = {}
        _, chunks = self._retrieve(_checked_query(query), k, filters, timings)
        return chunks, timings

    def _retrieve(
        self, query: str, k: int | None, filters: SearchFilters | None, timings: dict[str, float]
    ) -> tuple[RetrievalResult, list[SourceChunk]]:
        """Hybrid retrieval (one per corpus, concurrently, when several corpora or a corpus
        in another store are asked), and its chunks reranked: the best k by composite."""
        k, filters = k or self.settings.retrieve.top_k, filters or self.filters()
        sources = self.corpus_sources(filters)
        with _timed(timings, "retrieve"):
            if sources is None:
                retrieved = self.retriever.retrieve(query, k, filters)
            else:
                retrieved = retrieve_corpora(sources, query, k, filters)
        with _timed(timings, "rerank"):
            outcome = rerank_chunks(query, retrieved.chunks, self.reranker, self.settings.rerank)
        if sources is None or len(sources) == 1:
            return retrieved, outcome.chunks[:k]
        return retrieved, [c.model_copy(update={"show_corpus": True}) for c in outcome.chunks[:k]]

    def corpus_sources(self, filters: SearchFilters) -> list[CorpusSource] | None:
        """Where each asked corpus is retrieved from, when the fan-out is needed: several
        corpora, or one that `[corpora.NAME]` places in another store; else None."""
        asked = filters.corpora or ()
        elsewhere = self.settings.corpora
        if len(asked) < 2 and not any(name in elsewhere for name in asked):
            return None
        return [
            CorpusSource(name, self._corpus_retriever(name), elsewhere[name].corpus)
            if name in elsewhere
            else CorpusSource(name, self.retriever)
            for name in dict.fromkeys(asked)
        ]

    def _corpus_retriever(self, name: str) -> HybridRetriever:
        """The retriever over the store `[corpora.NAME]` names, opened on first use."""
        with self._opening:
            return self._corpus_retrievers.get(name) or self._open_corpus_retriever(name)

    def _open_corpus_retriever(self, name: str) -> HybridRetriever:
        store = make_store(self.settings.corpora[name].store, dimension=self.embedder.dimension)
        self._corpus_retrievers[name] = HybridRetriever(
            store,
            self.embedder,
            candidates=self.settings.retrieve.candidates_per_retriever,
            rrf_k=self.settings.retrieve.rrf_k,
        )
        return self._corpus_retrievers[name]

    def ask(
        self,
        query: str,
        *,
        k: int | None = None,
        filters: SearchFilters | None = None,
        generator: Generator | None = None,
    ) -> CitedResponse:
        """Answer `query` with verified, cited claims (see the module docstring)."""
        return self.ask_traced(query, k=k, filters=filters, generator=generator).response

    def ask_traced(
        self,
        query: str,
        *,
        k: int | None = None,
        filters: SearchFilters | None = None,
        generator: Generator | None = None,
    ) -> AskTrace:
        """`ask`, with what each stage produced on the way (see `AskTrace`).

        >>> trace = rag.ask_traced("How long do we keep customer PII?")
        >>> trace.reranked == trace.response.source_chunks, trace.final.gate.passed
        (True, True)
        """
        started = time.perf_counter()
        query = _checked_query(query)
        generator = generator or self.generator
        asked = AskRecord(query, generator.model_id, self.store.corpus_version(), {}, started)
        filters = filters or self.filters()
        if self.store.counts().chunks == 0 and not self._asks_other_stores(filters):
            return asked.empty_store()
        asked.retrieved, chunks = self._retrieve(query, k, filters, asked.timings)
        asked.reranked = chunks
        if not chunks:
            return asked.unanswerable([], [flag("no_documents_retrieved")])
        return self._ladder(asked, chunks, generator)

    def _asks_other_stores(self, filters: SearchFilters) -> bool:
        return any(name in self.settings.corpora for name in filters.corpora or ())

    # -- the fallback ladder -----------------------------------------------------------------

    def _ladder(
        self, asked: AskRecord, chunks: list[SourceChunk], generator: Generator
    ) -> AskTrace:
        """Generate, verify and score; retry once naming the violations; degrade if need be."""
        attempt = self._attempt(asked, chunks, generator)
        flags: list[WarningFlag] = []
        gate_settings = self.settings.gate
        if self._needs_retry(attempt) and generator.can_retry and gate_settings.retry_on_failure:
            violations = self._violations(attempt)
            flags.append(flag("retried", reason="; ".join(violations[:3])))
            attempt = self._attempt(asked, chunks, generator, violations, step="_retry")
        if attempt.error is not None:
            flags += [flag("generation_failed", reason=attempt.error), flag("degraded_to_sources")]
            return asked.unanswerable(chunks, flags, text=DEGRADED_TEXT)
        draft, gate = attempt.draft, attempt.gate
        if not draft.answerable or (not draft.claims and not gate.flags):
            return asked.unanswerable(chunks, [*flags, flag("not_answerable"), *gate.source_flags])
        flags += [*gate.flags, *gate.source_flags]
        if self._needs_degrading(attempt):
            flags.append(flag("degraded_to_sources"))
            return asked.unanswerable(
                _sources_first(chunks, gate.claims), flags, text=DEGRADED_TEXT
            )
        flags += attempt.scored.flags
        flags += _superseded_flags(attempt.scored.claims, chunks)
        return asked.answered(attempt, chunks, flags)

    def _attempt(
        self,
        asked: AskRecord,
        chunks: list[SourceChunk],
        generator: Generator,
        violations: list[str] | None = None,
        *,
        step: str = "",
    ) -> Attempt:
        """One rung: generate, verify and score, each timed as `<stage><step>`."""
        timings = asked.timings
        with _timed(timings, "generate" + step):
            try:
                draft = generator.generate(asked.query, chunks, violations=violations)
            except UnusableOutputError as exc:  # a bad answer, unlike an unreachable server
                return asked.attempted(Attempt(error=str(exc)))
        with _timed(timings, "verify" + step):
            gate = verify_answer(
                draft,
                chunks,
                support_checker=self.support_checker,
                policy=self.settings.gate.policy,
            )
        with _timed(timings, "score" + step):
            scored = score_answer(
                gate.claims,
                chunks,
                self.settings.score,
                calibration=self.calibration,
                self_reported=[c.attribution_confidence or None for c in gate.claims],
            )
        return asked.attempted(Attempt(draft, gate, scored))

    def _needs_retry(self, attempt: Attempt) -> bool:
        if attempt.error is not None:
            return True
        if not attempt.draft.answerable:
            return False
        return not attempt.gate.passed or self._below_floor(attempt)

    def _needs_degrading(self, attempt: Attempt) -> bool:
        return not any(c.verified for c in attempt.scored.claims) or self._below_floor(attempt)

    def _below_floor(self, attempt: Attempt) -> bool:
        return attempt.scored.overall_confidence < self.settings.gate.min_overall_confidence

    def _violations(self, attempt: Attempt) -> list[str]:
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


def _sources_first(chunks: list[SourceChunk], claims: list[CitedClaim]) -> list[SourceChunk]:
    """`chunks` with those cited by verified claims first: the best sources to show."""
    cited = {i for c in claims if c.verified for i in c.source_chunk_ids}
    return sorted(chunks, key=lambda c: c.chunk_id not in cited)


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = elapsed_ms(started)
