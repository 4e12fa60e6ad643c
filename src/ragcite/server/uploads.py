"""Uploaded files: kept under the store's uploads folder by content, then ingested like
`ragcite ingest FILE` (same loaders, limits, metadata precedence, versioning and errors).

An upload's source identity is its file name (`upload:NAME`), never the server path it is
kept at: a re-upload of the same name may add a version to the document it made; a file
whose derived ID belongs to another document is refused with 409 unless it declares that
`document_id`. A refused upload leaves nothing behind on disk.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from pathlib import Path

from ragcite.errors import (
    IngestError,
    IngestLimitError,
    InputError,
    UnsupportedFormatError,
)
from ragcite.index.identity import upload_source
from ragcite.index.ingest_outcomes import FileOutcome
from ragcite.ingest.loaders import SUPPORTED_EXTENSIONS
from ragcite.ingest.types import DocumentMetadata
from ragcite.pipeline import Ragcite

_UNSAFE = re.compile(r"[^\w.\- ]+", re.UNICODE)


def safe_filename(name: str | None) -> str:
    """The uploaded file's own name, without folders or characters a file system dislikes."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = _UNSAFE.sub("_", base).strip(" .")
    if not cleaned:
        raise InputError(
            "the upload has no file name; send the file as the multipart field 'file' with its name"
        )
    return cleaned


def ingest_upload(
    rag: Ragcite,
    filename: str,
    data: bytes,
    upload_dir: Path,
    *,
    metadata: DocumentMetadata,
    corpus: str | None,
) -> FileOutcome:
    """Store `data` as `filename` and ingest it; raise IngestError (or a subclass: over a
    limit, a conflict) naming the file, never a server path, if it is refused."""
    suffix = Path(filename).suffix.lower()
    if suffix not in SUPPORTED_EXTENSIONS:
        supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
        raise UnsupportedFormatError(filename, f"unsupported file type; supported: {supported}")
    if not data:
        raise IngestError(filename, "is empty: no text to index")
    limit = rag.settings.ingest.max_file_bytes
    if len(data) > limit:
        raise IngestLimitError(
            filename,
            f"{len(data):,} bytes is over the per-file limit of {limit:,} bytes "
            "(ingest.max_file_bytes); split the file or raise the limit",
        )
    folder = upload_dir / hashlib.sha256(data).hexdigest()[:16]
    path = folder / filename
    written = _Written(folder, path)
    written.write(data)
    try:
        outcome = rag.indexer(corpus).ingest_file(
            path, metadata=metadata, source_uri=upload_source(filename)
        )
    except BaseException:
        written.remove()
        raise
    if outcome.status != "added":
        written.remove()  # refused, or the same content stored already: keep nothing new
    if outcome.status == "failed":
        raise _named_error(outcome, filename, folder)
    return outcome


class _Written:
    """What one upload wrote (the file and maybe its folder), to remove on refusal."""

    def __init__(self, folder: Path, path: Path) -> None:
        self.folder, self.path = folder, path
        self.new_folder = not folder.exists()
        self.new_file = not path.exists()

    def write(self, data: bytes) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path.write_bytes(data)

    def remove(self) -> None:
        if self.new_file:
            self.path.unlink(missing_ok=True)
        if self.new_folder:
            # Another upload of the same bytes may have put a file there meanwhile.
            with contextlib.suppress(OSError):
                self.folder.rmdir()


def _named_error(outcome: FileOutcome, filename: str, folder: Path) -> IngestError:
    """The failure as the same kind of error, naming the upload, with server paths removed."""
    failure = outcome.failure
    kind = type(failure) if isinstance(failure, IngestError) else IngestError
    problem = failure.problem if isinstance(failure, IngestError) else outcome.error or ""
    problem = problem.replace(str(folder / filename), filename).replace(f"{folder}/", "")
    return kind(filename, problem or "could not be ingested")
