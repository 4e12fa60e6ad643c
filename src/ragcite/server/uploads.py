"""Uploaded files: kept under the store's uploads folder by content, then ingested like
`ragcite ingest FILE` (same loaders, metadata precedence, versioning and errors)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ragcite.errors import IngestError, InputError, UnsupportedFormatError
from ragcite.index.indexer import FileOutcome
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
    """Store `data` as `filename` and ingest it; raise IngestError naming the file if it fails."""
    suffix = Path(filename).suffix.lower()
    if suffix not in SUPPORTED_EXTENSIONS:
        supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
        raise UnsupportedFormatError(filename, f"unsupported file type; supported: {supported}")
    if not data:
        raise IngestError(filename, "is empty: no text to index")
    folder = upload_dir / hashlib.sha256(data).hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / filename
    path.write_bytes(data)
    report = rag.ingest([path], metadata=metadata, corpus=corpus)
    outcome = report.outcomes[0]
    if outcome.status == "failed":
        problem = (outcome.error or "could not be ingested").replace(str(path), "").lstrip(": ")
        raise IngestError(filename, problem)
    return outcome
