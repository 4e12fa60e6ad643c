"""What identifies a file to ingest before it is parsed: its fingerprint (bytes, sidecar
and the caller's metadata) and the document_id it declares, read cheaply, so an unchanged
file is skipped without loading it (index/indexer.py)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ragcite.errors import IngestError
from ragcite.ingest.files import SIDECAR_SUFFIX
from ragcite.ingest.types import DocumentMetadata


def file_fingerprint(path: Path, metadata: DocumentMetadata) -> str:
    """sha256 of the file's bytes, its sidecar's and the caller's metadata."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as file:
            while block := file.read(1 << 20):
                digest.update(block)
        sidecar = path.with_name(path.name + SIDECAR_SUFFIX)
        if sidecar.exists():
            digest.update(b"\0sidecar\0" + sidecar.read_bytes())
    except OSError as exc:
        raise IngestError(str(path), f"cannot read the file ({exc.strerror})") from None
    digest.update(b"\0meta\0" + repr(metadata).encode())
    if metadata.version_name is not None:  # not in repr: older fingerprints stay the same
        digest.update(b"\0version_name\0" + metadata.version_name.encode())
    return digest.hexdigest()


def declared_document_id(path: Path) -> str | None:
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
