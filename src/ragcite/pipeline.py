"""The pipeline: the one place where the stages are wired and the fallback ladder runs.

    >>> rag = Ragcite.open(load_settings())
    >>> rag.ingest([Path("demo")]).added
    8
    >>> response = rag.ask("How long do we keep customer PII?")
    >>> response.cited_claims[0].citations[0].display
    'Data Retention Policy v2 · 2024-01-15 → Customer records'

ask(): retrieve → rerank → generate → verify (the gate) → score, with the ladder: a draft that
fails the gate, cannot be read, or scores below `gate.min_overall_confidence` is regenerated
once with its violations named (for generators that can use them, when
`gate.retry_on_failure`); if the final answer has no verified claim or is still below the
confidence floor, it degrades to "the sources, without the claim". Each step is in
`warning_flags` and `timings_ms`; `ask_traced()` also returns what every stage produced.

The backends come from `ragcite.compose` (the composition root), never built here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, date, datetime
from functools import partial
from pathlib import Path

from ragcite.compose import CorpusRouter, compose, make_generator, make_reranker, search_filters
from ragcite.config import Settings
from ragcite.embed.base import Embedder
from ragcite.errors import UnusableOutputError
from ragcite.flags import flag
from ragcite.generate.base import Generator
from ragcite.index.cache import AnswerCache, answer_key, cacheable, served_from_cache
from ragcite.index.indexer import Indexer
from ragcite.index.ingest_outcomes import FileOutcome, IngestReport
from ragcite.index.sentence_vectors import prime_sentence_vectors
from ragcite.index.store import SearchFilters, Store
from ragcite.ingest.types import DocumentMetadata
from ragcite.models import CitedClaim, CitedResponse, SourceChunk, WarningFlag
from ragcite.rerank.base import Reranker
from ragcite.rerank.composite import rerank_chunks
from ragcite.rerank.contact_lines import with_contact_line
from ragcite.retrieve.fanout import retrieve_corpora
from ragcite.retrieve.hybrid import HybridRetriever, RetrievalResult
from ragcite.retrieve.spelled_out import retrieve_spelled_out
from ragcite.retrieve.versions import current_filters, version_scope
from ragcite.score.confidence import Calibration, score_answer
from ragcite.score.staleness import stale_source_flags, superseded_source_flags
from ragcite.score.versions import beside_current
from ragcite.text.time_refs import without_reference
from ragcite.trace import (
    DEGRADED_TEXT,
    AskRecord,
    AskTrace,
    Attempt,
    checked_query,
    elapsed_ms,
    retry_violations,
    sources_first,
    timed,
)
from ragcite.verify.answerability import AnswerabilityGate
from ragcite.verify.support import SupportChecker


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
        answer_cache: AnswerCache | None = None,
    ) -> None:
        """`read_store`: a read-only replica of `store` that retrieval reads from."""
        self.settings = settings
        self.answer_cache = answer_cache
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
        self.corpora = CorpusRouter(settings, self.retriever)
        self.answerability = AnswerabilityGate(settings.gate, embedder)

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
            answer_cache=parts.answer_cache,
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
        self.corpora.close()

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
        reread: bool = False,
    ) -> IngestReport:
        """Ingest files and folders; unchanged ones are skipped, unless `reread` (index.reread)."""
        return self.indexer(corpus, reread=reread).ingest(
            paths, metadata=metadata, on_start=on_start, on_file=on_file, on_chunks=on_chunks
        )

    def indexer(self, corpus: str | None = None, *, reread: bool = False) -> Indexer:
        """An Indexer over this store and embedder with the settings' chunking and limits."""
        chunking, limits = self.settings.chunk, self.settings.ingest
        return Indexer(
            self.store, self.embedder, chunking=chunking, corpus=corpus or self.settings.corpus,
            limits=limits, reread=reread,
        )  # fmt: skip

    # -- search and ask -----------------------------------------------------------------------

    def filters(
        self,
        corpora: tuple[str, ...] | None = None,
        access_groups: tuple[str, ...] | None = None,
        include_superseded: bool | None = None,
        as_of: date | None = None,
    ) -> SearchFilters:
        """`as_of`: the versions in force on that date, superseded or not."""
        return search_filters(self.settings, corpora, access_groups, include_superseded, as_of)

    def search(
        self, query: str, *, k: int | None = None, filters: SearchFilters | None = None
    ) -> tuple[list[SourceChunk], dict[str, float]]:
        """Retrieved and reranked chunks (best composite first) with stage timings in ms."""
        timings: dict[str, float] = {}
        query = checked_query(query)
        scoped = version_scope(query, filters or self.filters())[0]  # "in 2019": then's versions
        _, chunks = self._retrieve(query, k, scoped, timings)
        return chunks, timings

    def _retrieve(
        self, query: str, k: int | None, filters: SearchFilters | None, timings: dict[str, float]
    ) -> tuple[RetrievalResult, list[SourceChunk]]:
        """Hybrid retrieval (one per corpus, concurrently, when several corpora or a corpus
        in another store are asked), and its chunks reranked: the best k by composite."""
        k, filters = k or self.settings.retrieve.top_k, filters or self.filters()
        sources = self.corpora.sources(filters)
        one = self.retriever.retrieve if sources is None else partial(retrieve_corpora, sources)
        with timed(timings, "retrieve"):  # "PO" asked, "purchase order" written: its words
            query, retrieved = retrieve_spelled_out(lambda q: one(q, k, filters), query)
        with timed(timings, "rerank"):  # and the contacts passage, when one is asked for
            chunks = with_contact_line(
                query,
                self._reranked(query, retrieved.chunks)[:k],
                lambda again: self._reranked(again, one(again, k, filters).chunks),
            )
        if sources is None or len(sources) == 1:
            return retrieved, chunks
        return retrieved, [c.model_copy(update={"show_corpus": True}) for c in chunks]

    def _reranked(self, query: str, chunks: list[SourceChunk]) -> list[SourceChunk]:
        """`chunks` reranked for `query`, their sentence vectors stored at ingest read first
        (the stages after retrieval embed the question only)."""
        prime_sentence_vectors(self.embedder, self.read_store or self.store, chunks)
        return rerank_chunks(query, chunks, self.reranker, self.settings.rerank).chunks

    def ask(
        self,
        query: str,
        *,
        k: int | None = None,
        filters: SearchFilters | None = None,
        generator: Generator | None = None,
    ) -> CitedResponse:
        """Answer `query` with verified, cited claims (see the module docstring).

        The same question (whitespace and case aside) from a reader with the same access,
        under the same settings and corpus version, is answered from the answer cache
        (`cache.*`) for `cache.ttl_s`, re-labelled with its age (`cached_at`, `cache_age_s`,
        the `cached_answer` flag). A `generator` passed here bypasses the cache.
        """
        if self.answer_cache is None or generator is not None:
            return self.ask_traced(query, k=k, filters=filters, generator=generator).response
        started = time.perf_counter()
        query, filters = checked_query(query), filters or self.filters()
        key = partial(self._answer_key, query, k or self.settings.retrieve.top_k, filters)
        cached = self.answer_cache.get(key(self.store.corpus_version()))
        if cached is not None:
            response = served_from_cache(cached, query, datetime.now(UTC), elapsed_ms(started))
            return self._restaled(response)
        response = self.ask_traced(query, k=k, filters=filters).response
        if cacheable(response):
            version = response.corpus_version  # read before retrieval: never newer than it
            self.answer_cache.put(
                key(version),
                response.model_dump_json(),
                corpus_version=version,
                ttl_s=self.settings.cache.ttl_s,
            )
        return response

    def _answer_key(self, query: str, k: int, filters: SearchFilters, corpus_version: str) -> str:
        return answer_key(
            query,
            corpus_version=corpus_version,
            settings=self.settings,
            k=k,
            filters=filters,
            model_id=self.generator.model_id,
        )

    def ask_traced(
        self,
        query: str,
        *,
        k: int | None = None,
        filters: SearchFilters | None = None,
        generator: Generator | None = None,
    ) -> AskTrace:
        """`ask`, with what each stage produced on the way (see `AskTrace`); it never
        reads or writes the answer cache, so what it traces was computed now.

        >>> trace = rag.ask_traced("How long do we keep customer PII?")
        >>> trace.reranked == trace.response.source_chunks, trace.final.gate.passed
        (True, True)
        """
        query, filters = checked_query(query), filters or self.filters()
        scoped, reference = version_scope(query, filters)
        trace = self._answer_traced(query, k, scoped, generator or self.generator)
        if not scoped.scopes_versions or not trace.response.answerable:
            return trace
        gen, now = generator or self.generator, without_reference(query, reference)
        response = beside_current(
            trace.response,
            self.store,
            scoped,
            lambda ids: self._answer_traced(now, k, current_filters(scoped, ids), gen).response,
        )
        return replace(trace, response=response)

    def _answer_traced(
        self, query: str, k: int | None, filters: SearchFilters, generator: Generator
    ) -> AskTrace:
        asked = AskRecord(
            query, generator.model_id, self.store.corpus_version(), {}, time.perf_counter()
        )
        retrieved, chunks = self._retrieve(query, k, filters, asked.timings)
        empty = not chunks and self.store.counts().chunks == 0  # a count scans every chunk
        if empty and not self.corpora.asks_other_stores(filters):
            return asked.empty_store()
        asked.retrieved, asked.reranked = retrieved, chunks
        asked.report("passages", len(chunks))
        if not chunks:
            return asked.unanswerable([], [flag("no_documents_retrieved")])
        return self._ladder(asked, chunks, generator)

    # -- the fallback ladder -----------------------------------------------------------------

    def _ladder(
        self, asked: AskRecord, chunks: list[SourceChunk], generator: Generator
    ) -> AskTrace:
        """Generate, verify and score; retry once naming the violations; degrade if need be."""
        attempt = self._attempt(asked, chunks, generator)
        flags: list[WarningFlag] = []
        gate_settings = self.settings.gate
        if self._needs_retry(attempt) and generator.can_retry and gate_settings.retry_on_failure:
            violations = retry_violations(attempt, self.settings.gate.min_overall_confidence)
            flags.append(flag("retried", reason="; ".join(violations[:3])))
            attempt = self._attempt(asked, chunks, generator, violations, step="_retry")
        if attempt.error is not None:
            flags += [flag("generation_failed", reason=attempt.error), flag("degraded_to_sources")]
            return asked.unanswerable(chunks, flags, text=DEGRADED_TEXT)
        draft, gate = attempt.draft, attempt.gate
        drafted = draft.answerable and bool(draft.claims or gate.flags)
        declined = (
            self.answerability.declines(asked.query, gate.claims, chunks, asked.timings)
            if drafted
            else None
        )
        if not drafted or declined is not None:
            not_found = [*flags, flag("not_answerable"), *gate.source_flags]
            return asked.unanswerable(chunks, not_found, reason=declined or draft.decline_reason)
        flags += [*gate.flags, *gate.source_flags]
        if self._needs_degrading(attempt):
            flags.append(flag("degraded_to_sources"))
            return asked.unanswerable(sources_first(chunks, gate.claims), flags, text=DEGRADED_TEXT)
        flags += attempt.scored.flags
        flags += superseded_source_flags(attempt.scored.claims, chunks)
        flags += self._stale_flags(attempt.scored.claims, chunks)
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
        with timed(timings, "generate" + step):
            try:
                draft = generator.generate(asked.query, chunks, violations=violations)
            except UnusableOutputError as exc:  # a bad answer, unlike an unreachable server
                return asked.attempted(Attempt(error=str(exc)))
        with timed(timings, "verify" + step):
            gate = asked.verify(draft, chunks, self.support_checker, self.settings.gate.policy)
        with timed(timings, "score" + step):
            scored = score_answer(
                gate.claims,
                chunks,
                self.settings.score,
                calibration=self.calibration,
                self_reported=[c.attribution_confidence or None for c in gate.claims],
                relevance_checked=getattr(generator, "checks_relevance", False),
            )
        return asked.attempted(Attempt(draft, gate, scored))

    def _stale_flags(
        self, claims: list[CitedClaim], chunks: list[SourceChunk]
    ) -> list[WarningFlag]:
        days = self.settings.lifecycle.stale_after_days
        today = datetime.now(UTC).date()
        return stale_source_flags(claims, chunks, self.store.latest_version, days, today=today)

    def _restaled(self, response: CitedResponse) -> CitedResponse:
        """A cached response with its `stale_source` flags as of today."""
        kept = [f for f in response.warning_flags if f.code != "stale_source"]
        stale = self._stale_flags(response.cited_claims, response.source_chunks)
        return response.model_copy(update={"warning_flags": kept + stale})

    def _needs_retry(self, attempt: Attempt) -> bool:
        if attempt.error is not None:
            return True
        if not attempt.draft.answerable:
            return False
        return not attempt.gate.passed or self._below_floor(attempt)

    def _needs_degrading(self, attempt: Attempt) -> bool:
        return not any(c.verified for c in attempt.scored.claims) or self._below_floor(attempt)

    def _below_floor(self, attempt: Attempt) -> bool:
        return attempt.scored.evidence < self.settings.gate.min_overall_confidence
