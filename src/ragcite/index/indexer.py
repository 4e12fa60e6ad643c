"""Ingest files into a store: load, chunk, embed and write each document version.

Idempotent: a file whose bytes (and metadata) are unchanged is skipped before it is
even parsed. A changed file becomes a new version that supersedes the old one. Each
version is written in one transaction; a file that fails is reported and the rest of
the batch goes on. The supersession policy (which version is active) lives here,
in `store_version`, so every store gets it from the same primitive writes.

    >>> report = Indexer(store, embedder).ingest([Path("demo")])
    >>> report.added, report.unchanged, report.failed
    (8, 0, [])
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ragcite.config import ChunkSettings
from ragcite.embed.base import Embedder
from ragcite.errors import IngestError, RagciteError
from ragcite.index.store import NewVersion, Store
from ragcite.ingest.chunker import chunk_text
from ragcite.ingest.loaders import SUPPORTED_EXTENSIONS, load_document
from ragcite.ingest.types import DocumentMetadata, TextChunk
from ragcite.models import Document, DocumentStatus, SourceChunk

SIDECAR_SUFFIX = ".meta.yaml"


@dataclass(frozen=True)
class FileOutcome:
    path: Path
    status: str  # "added" | "unchanged" | "skipped" | "failed"
    document_id: str | None = None
    version: int | None = None
    chunks: int = 0
    error: str | None = None


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


class Indexer:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        *,
        chunking: ChunkSettings | None = None,
        corpus: str = "default",
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.chunking = chunking or ChunkSettings()
        self.corpus = corpus

    def collect(self, paths: Iterable[Path]) -> tuple[list[tuple[Path, Path]], list[FileOutcome]]:
        """(file, root) pairs to ingest, and outcomes decided already: missing paths fail,
        files of unknown types inside a folder are skipped (named alone, they fail)."""
        files: list[tuple[Path, Path]] = []
        decided: list[FileOutcome] = []
        for path in paths:
            if not path.exists():
                decided.append(FileOutcome(path, "failed", error=f"{path}: no such file or folder"))
            elif not path.is_dir():
                files.append((path, path.parent))
                continue
            for found in sorted(path.rglob("*")) if path.is_dir() else []:
                if _ingestible(found, path):
                    files.append((found, path))
                elif _visible_file(found, path):
                    decided.append(
                        FileOutcome(found, "skipped", error=f"{found}: not a supported file type")
                    )
        return files, decided

    def ingest(
        self,
        paths: Iterable[Path],
        *,
        metadata: DocumentMetadata | None = None,
        on_start: Callable[[int], None] | None = None,
        on_file: ProgressCallback | None = None,
    ) -> IngestReport:
        """Ingest files and folders; `on_start` hears how many files, `on_file` each outcome."""
        started = time.perf_counter()
        files, decided = self.collect(paths)
        if on_start is not None:
            on_start(len(files))
        report = IngestReport(outcomes=list(decided))
        for path, root in files:
            outcome = self.ingest_file(path, root=root, metadata=metadata)
            report.outcomes.append(outcome)
            if on_file is not None:
                on_file(outcome)
        report.seconds = time.perf_counter() - started
        return report

    def ingest_file(
        self, path: Path, *, root: Path | None = None, metadata: DocumentMetadata | None = None
    ) -> FileOutcome:
        """Ingest one file; never raises for a bad file, reports it instead."""
        try:
            return self._ingest_file(path, root or path.parent, metadata or DocumentMetadata())
        except RagciteError as exc:
            return FileOutcome(path, "failed", error=str(exc))

    def _ingest_file(self, path: Path, root: Path, metadata: DocumentMetadata) -> FileOutcome:
        if path.suffix.lower() not in SUPPORTED_EXTENSIONS:
            supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
            raise IngestError(str(path), f"unsupported file type; supported: {supported}")
        fingerprint = _fingerprint(path, metadata)
        preliminary_id = metadata.document_id or _sidecar_document_id(path)
        if preliminary_id:
            known = self.store.find_version_by_hash(preliminary_id, fingerprint)
            if known is not None:
                return FileOutcome(path, "unchanged", known.document_id, known.version)
        extracted = load_document(path, metadata=metadata)
        meta = extracted.metadata
        document_id = meta.document_id or document_id_for(path, root)
        known = self.store.find_version_by_hash(document_id, fingerprint)
        if known is not None:
            return FileOutcome(path, "unchanged", known.document_id, known.version)
        latest = self.store.latest_version(document_id)
        version = meta.version or ((latest.version + 1) if latest else 1)
        document = Document(
            document_id=document_id,
            corpus=self.corpus,
            title=meta.title or path.stem,
            url=meta.url,
            source_uri=str(path.resolve()),
            version=version,
            content_sha256=fingerprint,
            effective_date=meta.effective_date,
            access=meta.access,
        )
        pieces = chunk_text(
            extracted,
            chunk_size=self.chunking.chunk_size,
            chunk_overlap=self.chunking.chunk_overlap,
        )
        if not pieces:
            raise IngestError(str(path), "is empty: no text to index")
        chunks = _source_chunks(document, pieces)
        vectors = self.embedder.embed([_embedding_text(document, c) for c in chunks])
        stored = store_version(
            self.store, NewVersion(document, extracted.text, extracted.pages, chunks, vectors)
        )
        return FileOutcome(path, "added", stored.document_id, stored.version, len(chunks))


def store_version(store: Store, new: NewVersion) -> Document:
    """Write a version and apply the supersession policy, all in one transaction.

    A new version supersedes the older active ones; a version older than the newest
    stored one arrives superseded (by the newest); the same version number with new
    content replaces the stored one. A failure leaves the store as it was.

        >>> store_version(store, version_2).status
        <DocumentStatus.ACTIVE: 'active'>
        >>> store.latest_version(version_2.document.document_id).version
        2
    """
    document = new.document
    with store.write() as writer:
        stored = {d.version for d in writer.versions(document.document_id)}
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


def document_id_for(path: Path, root: Path) -> str:
    """A stable ID from the path under the ingested folder: "policies/Data Retention.md" ->
    "policies-data-retention"."""
    try:
        relative = path.resolve().relative_to(root.resolve())
    except ValueError:
        relative = Path(path.name)
    stem = str(relative.with_suffix("")).replace("\\", "/")
    return re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "document"


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


def _embedding_text(document: Document, chunk: SourceChunk) -> str:
    # The title and section give a chunk the context its sentences leave implicit.
    heading = f" — {chunk.section_heading}" if chunk.section_heading else ""
    return f"{document.title}{heading}\n{chunk.chunk_text}"


def _fingerprint(path: Path, metadata: DocumentMetadata) -> str:
    """sha256 of the file's bytes, its sidecar's and the caller's metadata."""
    digest = hashlib.sha256()
    try:
        digest.update(path.read_bytes())
        sidecar = path.with_name(path.name + SIDECAR_SUFFIX)
        if sidecar.exists():
            digest.update(b"\0sidecar\0" + sidecar.read_bytes())
    except OSError as exc:
        raise IngestError(str(path), f"cannot read the file ({exc.strerror})") from None
    digest.update(b"\0meta\0" + repr(metadata).encode())
    return digest.hexdigest()


def _sidecar_document_id(path: Path) -> str | None:
    """The document_id a sidecar or front matter declares, read cheaply for the skip check."""
    sidecar = path.with_name(path.name + SIDECAR_SUFFIX)
    sources = [sidecar] if sidecar.exists() else []
    if path.suffix.lower() in {".md", ".markdown"}:
        sources.append(path)
    for source in sources:
        try:
            head = source.read_text(encoding="utf-8", errors="replace")[:4000]
        except OSError:
            return None
        match = re.search(r"^document_id:\s*['\"]?([^'\"\n]+?)['\"]?\s*$", head, re.MULTILINE)
        if match:
            return match.group(1).strip()
    return None


def _visible_file(path: Path, root: Path) -> bool:
    if not path.is_file() or path.name.endswith(SIDECAR_SUFFIX):
        return False
    return not any(part.startswith(".") for part in path.relative_to(root).parts)


def _ingestible(path: Path, root: Path) -> bool:
    return _visible_file(path, root) and path.suffix.lower() in SUPPORTED_EXTENSIONS
