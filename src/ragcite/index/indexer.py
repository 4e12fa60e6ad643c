"""Ingest files into a store: load, chunk, embed and write each document version.

Idempotent: a file whose bytes (and metadata) are unchanged is skipped before it is
even parsed. A changed file becomes a new version that supersedes the old one. Each
version is written in one transaction; a file that fails (over a limit, out of time) is
reported, nothing of it is stored, and the rest goes on. Small files (under `ALONE_TEXTS`
texts each) are embedded together (up to `GROUP_TEXTS` texts, `index.version_embedding`),
then written one by one, in file order. The supersession policy (which
version is active, which file may replace which document: see `index.identity`) lives
here, in `store_version`, so every store gets it from the same primitive writes.

    >>> report = Indexer(store, embedder).ingest([Path("demo")])
    >>> report.added, report.unchanged, report.failed
    (8, 0, [])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from ragcite.config import ChunkSettings, IngestSettings
from ragcite.embed.base import Embedder, SpanVectors, Vectors
from ragcite.errors import IngestError, RagciteError
from ragcite.index.collect import collect_files
from ragcite.index.embed_steps import embed_in_steps
from ragcite.index.identity import (
    check_may_replace,
    document_id_for,
    legacy_document_id,
)
from ragcite.index.ingest_outcomes import (
    ChunkProgress,
    FileOutcome,
    IngestReport,
    OutcomesInOrder,
    ProgressCallback,
)
from ragcite.index.load_ahead import AHEAD_FILES, LoadAhead
from ragcite.index.reread import reads_the_same, rereads, unchanged
from ragcite.index.source_chunks import embedding_text, source_chunks
from ragcite.index.store import NewVersion, Store
from ragcite.index.version_embedding import VersionPlan, embed_together, plan_version
from ragcite.ingest.chunker import chunk_text
from ragcite.ingest.fingerprint import declared_document_id, file_fingerprint
from ragcite.ingest.limits import LoadLimits
from ragcite.ingest.loaders import SUPPORTED_EXTENSIONS, load_document
from ragcite.ingest.types import DocumentMetadata, ExtractedText
from ragcite.models import Document, DocumentStatus, SourceChunk

# A file with this many texts (chunks and sentence forms) or more is embedded alone, with
# progress and its time limit checked after each step; smaller files are embedded together
# until they hold `GROUP_TEXTS`: batches sorted by length across files pad less than one
# file's alone, and fewer, fuller groups waste less (the demo corpus in two groups instead
# of three: ingest 2.29 -> 2.14 s, median of 8 alternated runs).
ALONE_TEXTS = 512
GROUP_TEXTS = 2048

__all__ = ["Indexer", "document_id_for", "store_version"]


class Indexer:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        *,
        chunking: ChunkSettings | None = None,
        corpus: str = "default",
        limits: IngestSettings | None = None,
        reread: bool = False,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.chunking = chunking or ChunkSettings()
        self.corpus = corpus
        self.limits = limits or IngestSettings()
        # Read unchanged files again: one that now reads or chunks differently replaces its
        # version's text and chunks (`index.reread`).
        self.reread = reread

    def ingest(
        self,
        paths: Iterable[Path],
        *,
        metadata: DocumentMetadata | None = None,
        on_start: Callable[[int], None] | None = None,
        on_file: ProgressCallback | None = None,
        on_chunks: ChunkProgress | None = None,
    ) -> IngestReport:
        """Ingest files and folders; `on_start` hears how many files, `on_file` each outcome,
        `on_chunks` the embedding progress inside each file."""
        started = time.perf_counter()
        files, decided = collect_files(paths)
        if on_start is not None:
            on_start(len(files))
        report = IngestReport(outcomes=list(decided))
        outcomes = OutcomesInOrder(len(files), report.outcomes, on_file)
        group: list[tuple[int, _Prepared]] = []  # files waiting to be embedded together
        with LoadAhead(self.limits, metadata or DocumentMetadata()) as ahead:

            def flush(upcoming: int) -> None:
                if group:  # the next files load while this group embeds
                    ahead.queue(files[upcoming : upcoming + AHEAD_FILES], self._may_load)
                stored = self._store_group([p for _, p in group])
                for (slot, _), outcome in zip(group, stored, strict=True):
                    outcomes.set(slot, outcome)
                group.clear()

            for slot, (path, root) in enumerate(files):
                job = self._job(path, root, metadata, None, on_chunks, ahead)
                prepared = self._prepare_safely(job)
                if not isinstance(prepared, FileOutcome) and any(
                    p.document.document_id == prepared.document.document_id for _, p in group
                ):  # a second version of a document: prepared again once the first is stored
                    flush(slot)
                    prepared = self._prepare_safely(job)
                if isinstance(prepared, FileOutcome):
                    outcomes.set(slot, prepared)
                    continue
                if len(prepared.plan.texts) >= ALONE_TEXTS:  # alone: progress and time checks
                    flush(slot + 1)
                group.append((slot, prepared))
                if sum(len(p.plan.texts) for _, p in group) >= GROUP_TEXTS:
                    flush(slot + 1)
            flush(len(files))
        report.seconds = time.perf_counter() - started
        return report

    def ingest_file(
        self,
        path: Path,
        *,
        root: Path | None = None,
        metadata: DocumentMetadata | None = None,
        source_uri: str | None = None,
        on_chunks: ChunkProgress | None = None,
    ) -> FileOutcome:
        """Ingest one file; never raises for a bad file, reports it instead.

        `source_uri` is the file's source identity (default: its resolved path); a re-ingest
        from the same source may replace the document it made (see `index.identity`).
        """
        job = self._job(path, root or path.parent, metadata, source_uri, on_chunks)
        prepared = self._prepare_safely(job)
        if isinstance(prepared, FileOutcome):
            return prepared
        return self._store_group([prepared])[0]

    def _job(
        self,
        path: Path,
        root: Path,
        metadata: DocumentMetadata | None,
        source_uri: str | None,
        on_chunks: ChunkProgress | None,
        ahead: LoadAhead | None = None,
    ) -> _Job:
        # The time limit counts from when the file began loading, ahead or now.
        started = (ahead and ahead.started(path)) or time.monotonic()
        return _Job(
            path=path,
            root=root,
            metadata=metadata or DocumentMetadata(),
            source=source_uri or str(path.resolve()),
            limits=LoadLimits.from_settings(self.limits, started=started),
            on_chunks=on_chunks,
            ahead=ahead,
        )

    def _may_load(self, path: Path, root: Path, metadata: DocumentMetadata) -> bool:
        """Whether a file is worth loading ahead: not stored before from these bytes."""
        job = self._job(path, root, metadata, None, None)
        try:
            job.limits.check_size(path)
            return self._stored_unchanged(job, file_fingerprint(path, job.metadata)) is None
        except RagciteError:  # it fails in its turn
            return False

    def _prepare_safely(self, job: _Job) -> _Prepared | FileOutcome:
        """`_prepare`, or the file's outcome: unchanged, or failed (never raises)."""
        try:
            return self._prepare(job)
        except RagciteError as exc:
            return _failed(job.path, exc)

    def _prepare(self, job: _Job) -> _Prepared | FileOutcome:
        """Load and chunk a file and plan its embedding; its outcome when it is unchanged."""
        path, limits = job.path, job.limits
        if path.suffix.lower() not in SUPPORTED_EXTENSIONS:
            supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
            raise IngestError(str(path), f"unsupported file type; supported: {supported}")
        limits.check_size(path)
        fingerprint = file_fingerprint(path, job.metadata)
        known = self._stored_unchanged(job, fingerprint)
        if known is not None:
            return unchanged(path, known)
        if job.ahead is not None:
            extracted = job.ahead.take(path, limits)
        else:
            extracted = load_document(path, metadata=job.metadata, limits=limits)
        meta = extracted.metadata
        document_id = meta.document_id or self._derived_id(job)
        known = self.store.find_version_by_hash(document_id, fingerprint)
        if known is not None and not rereads(known, self.reread):
            return unchanged(path, known)
        latest = self.store.latest_version(document_id)
        version = (
            known.version if known else meta.version or ((latest.version + 1) if latest else 1)
        )
        document = Document(
            document_id=document_id,
            corpus=self.corpus,
            title=meta.title or path.stem,
            url=meta.url,
            source_uri=job.source,
            version=version,
            version_name=meta.version_name,
            content_sha256=fingerprint,
            effective_date=meta.effective_date,
            access=meta.access,
            last_verified=known.last_verified if known else None,
        )
        if latest is not None:  # fail before the costly part; store_version checks again
            check_may_replace(latest, document, declared=bool(meta.document_id), shown=str(path))
        pieces = chunk_text(
            extracted,
            chunk_size=self.chunking.chunk_size,
            chunk_overlap=self.chunking.chunk_overlap,
            check=partial(limits.check_time, path, "while chunking"),
        )
        if not pieces:
            raise IngestError(str(path), "is empty: no text to index")
        chunks = source_chunks(document, pieces)
        if known is not None and reads_the_same(self.store, known, extracted.text, chunks):
            return unchanged(path, known)
        texts = [embedding_text(document.title, c) for c in chunks]
        plan = plan_version(texts, chunks, self.limits)
        return _Prepared(job, document, extracted, chunks, plan, bool(meta.document_id))

    def _store_group(self, group: list[_Prepared]) -> list[FileOutcome]:
        """Embed the group's files together, then store each version in its own
        transaction; each file's outcome, in order. A file alone is time-checked and
        reports progress while it embeds; in a group, each file's time limit is checked
        before it is stored, so one that ran over fails alone."""
        if not group:
            return []
        try:
            rows = self._embed_group(group)
        except RagciteError as exc:  # only a file alone is checked while it embeds
            return [_failed(group[0].job.path, exc)]
        stored = []
        for one, (vectors, pooled) in zip(group, rows, strict=True):
            if one.job.on_chunks is not None and len(group) > 1:
                one.job.on_chunks(one.job.path, len(one.plan.texts), len(one.plan.texts))
            try:
                stored.append(self._store_prepared(one, vectors, pooled))
            except RagciteError as exc:
                stored.append(_failed(one.job.path, exc))
        return stored

    def _embed_group(self, group: list[_Prepared]) -> list[tuple[Vectors, SpanVectors | None]]:
        """Every file's texts through the model together: a file alone in steps of
        `ingest.embed_batch`, time-checked and reporting progress (`on_chunks`) after each, a
        group in one step (sorted by length across all its texts, it pads least)."""
        job, total = group[0].job, len(group[0].plan.texts)
        alone, notify = len(group) == 1, group[0].job.on_chunks
        step = self.limits.embed_batch if alone else sum(len(p.plan.texts) for p in group)

        def check(done: int) -> None:
            if alone:
                job.limits.check_time(job.path, f"while embedding ({done} of {total} texts done)")

        return embed_together(
            self.embedder,
            [p.plan for p in group],
            step,
            check=check,
            progress=(lambda done: notify(job.path, done, total)) if alone and notify else None,
        )

    def _store_prepared(
        self, prepared: _Prepared, vectors: Vectors, pooled: SpanVectors | None
    ) -> FileOutcome:
        """A prepared file's version, written from its embedded rows."""
        job, document = prepared.job, prepared.document
        chunk_vectors, sentences = prepared.plan.finish(
            vectors, pooled, embed=lambda more: self._embed_alone(job, more)
        )
        job.limits.check_time(job.path, "after embedding")
        stored = store_version(
            self.store,
            NewVersion(
                document,
                prepared.extracted.text,
                prepared.extracted.pages,
                prepared.chunks,
                chunk_vectors,
                sentence_vectors=sentences,
            ),
            declared=prepared.declared,
            shown=str(job.path),
        )
        added = (stored.document_id, stored.version, len(prepared.chunks), stored.version_name)
        return FileOutcome(job.path, "added", *added)

    def _stored_unchanged(self, job: _Job, fingerprint: str) -> Document | None:
        """The version stored before from the file's bytes, found by the ID it declares or
        its path gives, unless it is to be read again (`reread`)."""
        preliminary_id = job.metadata.document_id or declared_document_id(job.path)
        known = self.store.find_version_by_hash(
            preliminary_id or self._derived_id(job), fingerprint
        )
        return known if known is not None and not rereads(known, self.reread) else None

    def _derived_id(self, job: _Job) -> str:
        """The path-derived ID; a file stored before under its legacy ID keeps that one."""
        derived = document_id_for(job.path, job.root)
        legacy = legacy_document_id(job.path, job.root)
        if legacy != derived and self.store.latest_version(derived) is None:
            earlier = self.store.latest_version(legacy)
            if earlier is not None and earlier.source_uri == job.source:
                return legacy
        return derived

    def _embed_alone(self, job: _Job, texts: list[str]) -> Vectors:
        """A few more texts of one file embedded whole (forms its rows could not give)."""
        return embed_in_steps(
            self.embedder,
            texts,
            self.limits.embed_batch,
            check=lambda _: job.limits.check_time(job.path, "while embedding"),
        )[0]


def _failed(path: Path, error: RagciteError) -> FileOutcome:
    return FileOutcome(path, "failed", error=str(error), failure=error)


@dataclass(frozen=True)
class _Prepared:
    """A file loaded, chunked and planned, waiting for its embedding."""

    job: _Job
    document: Document
    extracted: ExtractedText
    chunks: list[SourceChunk]
    plan: VersionPlan
    declared: bool  # the document ID was declared, not derived from the path


@dataclass(frozen=True)
class _Job:
    """One file being ingested, with where it came from and its limits."""

    path: Path
    root: Path
    metadata: DocumentMetadata
    source: str
    limits: LoadLimits
    on_chunks: ChunkProgress | None
    ahead: LoadAhead | None  # loads files ahead while others embed


def store_version(
    store: Store, new: NewVersion, *, declared: bool = True, shown: str | None = None
) -> Document:
    """Write a version and apply the supersession policy, all in one transaction.

    A new version supersedes the older active ones; a version older than the newest
    stored one arrives superseded (by the newest); the same version number with new
    content replaces the stored one. A document whose ID was derived, not `declared`, may
    only add to a document from the same source (`DocumentConflictError` otherwise, naming
    the file as `shown`). A failure leaves the store as it was.

        >>> store_version(store, version_2).status
        <DocumentStatus.ACTIVE: 'active'>
        >>> store.latest_version(version_2.document.document_id).version
        2
    """
    document = new.document
    with store.write() as writer:
        versions = writer.versions(document.document_id)
        if versions:
            newest = max(versions, key=lambda d: d.version)
            check_may_replace(newest, document, declared=declared, shown=shown)
        stored = {d.version for d in versions}
        if document.version in stored:
            writer.remove_version(document.document_id, document.version)
            stored.discard(document.version)
        newest_other = max(stored, default=0)
        if document.status is DocumentStatus.ACTIVE and newest_other > document.version:
            update = {"status": DocumentStatus.SUPERSEDED, "superseded_by": newest_other}
            new = replace(new, document=document.model_copy(update=update))
        elif document.status is DocumentStatus.ACTIVE:
            writer.mark_superseded(document.document_id, document.version)
        return writer.add_version(new)
