"""Ingest files into a store: load, chunk, embed and write each document version.

Idempotent: a file whose bytes (and metadata) are unchanged is skipped before it is
even parsed. A changed file becomes a new version that supersedes the old one. Each
version is written in one transaction; a file that fails (over a limit, out of time) is
reported, nothing of it is stored, and the rest goes on. The supersession policy (which
version is active, which file may replace which document: see `index.identity`) lives
here, in `store_version`, so every store gets it from the same primitive writes.

    >>> report = Indexer(store, embedder).ingest([Path("demo")])
    >>> report.added, report.unchanged, report.failed
    (8, 0, [])
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from ragcite.config import ChunkSettings, IngestSettings
from ragcite.embed.base import Embedder, Span, SpanVectors, Vectors
from ragcite.errors import IngestError, RagciteError
from ragcite.index.embed_steps import embed_in_steps
from ragcite.index.heading_plan import HeadingPlan
from ragcite.index.identity import (
    check_may_replace,
    document_id_for,
    legacy_document_id,
)
from ragcite.index.sentence_vectors import SentencePlan, SpanPlan
from ragcite.index.store import NewVersion, Store
from ragcite.ingest.chunker import chunk_text
from ragcite.ingest.files import scan_folder
from ragcite.ingest.fingerprint import declared_document_id, file_fingerprint
from ragcite.ingest.limits import LoadLimits
from ragcite.ingest.loaders import SUPPORTED_EXTENSIONS, load_document
from ragcite.ingest.types import DocumentMetadata, TextChunk
from ragcite.models import Document, DocumentStatus, SourceChunk

__all__ = ["FileOutcome", "Indexer", "IngestReport", "document_id_for", "store_version"]


@dataclass(frozen=True)
class FileOutcome:
    path: Path
    status: str  # "added" | "unchanged" | "skipped" | "failed"
    document_id: str | None = None
    version: int | None = None
    chunks: int = 0
    version_name: str | None = None
    error: str | None = None
    # The error a failed file raised, kept so callers can map its kind (limit, conflict).
    failure: RagciteError | None = field(default=None, compare=False, repr=False)


@dataclass
class IngestReport:
    outcomes: list[FileOutcome] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def added(self) -> int:
        return sum(1 for o in self.outcomes if o.status == "added")

    @property
    def unchanged(self) -> int:
        return sum(1 for o in self.outcomes if o.status == "unchanged")

    @property
    def failed(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    @property
    def chunks(self) -> int:
        return sum(o.chunks for o in self.outcomes if o.status == "added")


ProgressCallback = Callable[[FileOutcome], None]
# (file, chunks embedded so far, chunks in the file): progress inside one large file.
ChunkProgress = Callable[[Path, int, int], None]


class Indexer:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        *,
        chunking: ChunkSettings | None = None,
        corpus: str = "default",
        limits: IngestSettings | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.chunking = chunking or ChunkSettings()
        self.corpus = corpus
        self.limits = limits or IngestSettings()

    def collect(self, paths: Iterable[Path]) -> tuple[list[tuple[Path, Path]], list[FileOutcome]]:
        """(file, root) pairs to ingest, and outcomes decided already: missing paths fail,
        files of unknown types inside a folder are skipped (named alone, they fail), and
        symlink loops, broken links and unreadable folders are reported as skipped."""
        files: list[tuple[Path, Path]] = []
        decided: list[FileOutcome] = []
        for path in paths:
            if not path.exists():
                decided.append(FileOutcome(path, "failed", error=f"{path}: no such file or folder"))
                continue
            if not path.is_dir():
                files.append((path, path.parent))
                continue
            scan = scan_folder(path)
            for found in scan.files:
                if found.suffix.lower() in SUPPORTED_EXTENSIONS:
                    files.append((found, path))
                else:
                    decided.append(
                        FileOutcome(found, "skipped", error=f"{found}: not a supported file type")
                    )
            decided.extend(
                FileOutcome(where, "skipped", error=f"{where}: {why}")
                for where, why in scan.problems
            )
        return files, decided

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
        files, decided = self.collect(paths)
        if on_start is not None:
            on_start(len(files))
        report = IngestReport(outcomes=list(decided))
        for path, root in files:
            outcome = self.ingest_file(path, root=root, metadata=metadata, on_chunks=on_chunks)
            report.outcomes.append(outcome)
            if on_file is not None:
                on_file(outcome)
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
        try:
            return self._ingest_file(
                _Job(
                    path=path,
                    root=root or path.parent,
                    metadata=metadata or DocumentMetadata(),
                    source=source_uri or str(path.resolve()),
                    limits=LoadLimits.from_settings(self.limits, started=time.monotonic()),
                    on_chunks=on_chunks,
                )
            )
        except RagciteError as exc:
            return FileOutcome(path, "failed", error=str(exc), failure=exc)

    def _ingest_file(self, job: _Job) -> FileOutcome:
        path, limits = job.path, job.limits
        if path.suffix.lower() not in SUPPORTED_EXTENSIONS:
            supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
            raise IngestError(str(path), f"unsupported file type; supported: {supported}")
        limits.check_size(path)
        fingerprint = file_fingerprint(path, job.metadata)
        preliminary_id = job.metadata.document_id or declared_document_id(path)
        if same := self._unchanged(path, preliminary_id or self._derived_id(job), fingerprint):
            return same
        extracted = load_document(path, metadata=job.metadata, limits=limits)
        meta = extracted.metadata
        document_id = meta.document_id or self._derived_id(job)
        if same := self._unchanged(path, document_id, fingerprint):
            return same
        latest = self.store.latest_version(document_id)
        version = meta.version or ((latest.version + 1) if latest else 1)
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
        chunks = _source_chunks(document, pieces)
        vectors, sentences = self._embed_version(job, document, chunks)
        limits.check_time(path, "after embedding")
        stored = store_version(
            self.store,
            NewVersion(
                document,
                extracted.text,
                extracted.pages,
                chunks,
                vectors,
                sentence_vectors=sentences,
            ),
            declared=bool(meta.document_id),
            shown=str(path),
        )
        added = (stored.document_id, stored.version, len(chunks), stored.version_name)
        return FileOutcome(path, "added", *added)

    def _unchanged(self, path: Path, document_id: str, fingerprint: str) -> FileOutcome | None:
        """The outcome of a file stored before with these bytes and metadata, else None."""
        known = self.store.find_version_by_hash(document_id, fingerprint)
        if known is None:
            return None
        return FileOutcome(path, "unchanged", known.document_id, known.version)

    def _derived_id(self, job: _Job) -> str:
        """The path-derived ID; a file stored before under its legacy ID keeps that one."""
        derived = document_id_for(job.path, job.root)
        legacy = legacy_document_id(job.path, job.root)
        if legacy != derived and self.store.latest_version(derived) is None:
            earlier = self.store.latest_version(legacy)
            if earlier is not None and earlier.source_uri == job.source:
                return legacy
        return derived

    def _embed_version(
        self, job: _Job, document: Document, chunks: list[SourceChunk]
    ) -> tuple[Vectors, list[bytes | None] | None]:
        """The chunks' vectors and, when `ingest.sentence_vectors`, their sentences' blobs."""
        texts = [embedding_text(document.title, c) for c in chunks]
        plan = None  # "spans": sentence vectors pooled from the chunks' own forward pass
        if self.limits.sentence_vectors and self.limits.sentence_pooling == "spans":
            starts = [len(t) - len(c.chunk_text) for t, c in zip(texts, chunks, strict=True)]
            plan = SpanPlan.of(chunks, starts)
        vectors, pooled = self._embed(job, texts, report=True, spans=plan.spans if plan else None)
        if not self.limits.sentence_vectors:
            return vectors, None

        def alone(more: list[str]) -> Vectors:  # texts embedded whole, no progress reported
            return self._embed(job, more, report=False)[0]

        if plan is not None and pooled is not None:  # None: the embedder cannot pool spans
            return vectors, plan.blobs(pooled, alone)
        if self.limits.sentence_pooling == "heading":  # each sentence through the model once
            heading = HeadingPlan.of(chunks)
            own, spans = self._embed(job, heading.texts, report=False, spans=heading.spans)
            return vectors, heading.blobs(own, spans, alone)
        sentences = SentencePlan.of(chunks)
        return vectors, sentences.blobs(alone(sentences.texts))

    def _embed(
        self, job: _Job, texts: list[str], *, report: bool, spans: list[list[Span]] | None = None
    ) -> tuple[Vectors, SpanVectors | None]:
        """`embed_in_steps` of `ingest.embed_batch`, checking time; progress when `report`."""
        notify = job.on_chunks if report else None
        return embed_in_steps(
            self.embedder,
            texts,
            self.limits.embed_batch,
            check=lambda done: job.limits.check_time(
                job.path, f"while embedding ({done} of {len(texts)} texts done)"
            ),
            progress=(lambda done: notify(job.path, done, len(texts))) if notify else None,
            spans=spans,
        )


@dataclass(frozen=True)
class _Job:
    """One file being ingested, with where it came from and its limits."""

    path: Path
    root: Path
    metadata: DocumentMetadata
    source: str
    limits: LoadLimits
    on_chunks: ChunkProgress | None


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


def chunk_id_for(document_id: str, version: int, text: str, occurrence: int) -> str:
    """Content-addressed: the same text in the same document version keeps its ID."""
    digest = hashlib.sha256(f"{document_id}\0{version}\0{occurrence}\0{text}".encode()).hexdigest()
    return f"c_{digest[:16]}"


def _source_chunks(document: Document, pieces: list[TextChunk]) -> list[SourceChunk]:
    seen: dict[str, int] = {}
    chunks = []
    for piece in pieces:
        occurrence = seen.get(piece.text, 0)
        seen[piece.text] = occurrence + 1
        chunks.append(
            SourceChunk(
                chunk_id=chunk_id_for(
                    document.document_id, document.version, piece.text, occurrence
                ),
                document_id=document.document_id,
                document_version=document.version,
                document_version_name=document.version_name,
                document_title=document.title,
                document_url=document.url,
                document_date=document.effective_date,
                corpus=document.corpus,
                page_number=piece.page_number,
                section_heading=piece.section_heading,
                chunk_text=piece.text,
                char_start=piece.char_start,
                char_end=piece.char_end,
            )
        )
    return chunks


def embedding_text(title: str, chunk: SourceChunk) -> str:
    """What ingest embeds for a chunk: "title — section", then its text. The title and
    section give a chunk the context its sentences leave implicit."""
    heading = f" — {chunk.section_heading}" if chunk.section_heading else ""
    return f"{title}{heading}\n{chunk.chunk_text}"
