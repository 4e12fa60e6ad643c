"""Loaders: one per file format, dispatched by extension.

    >>> extracted = load_document(Path("policies/returns.md"))
    >>> extracted.metadata.title, extracted.sections[0].heading
    ('Returns and Refunds Policy', 'Returns and Refunds Policy')

Metadata precedence, highest first: the `metadata` argument, a sidecar `<file>.meta.yaml`,
the file's own (Markdown front matter, HTML <title>, PDF /Title, docx core properties), a
title derived from the file name. `document_id` stays None unless given.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ragcite.errors import IngestError, UnsupportedFormatError
from ragcite.ingest.loaders.html import load_html
from ragcite.ingest.loaders.markdown import load_markdown
from ragcite.ingest.loaders.metadata import read_sidecar, title_from_filename
from ragcite.ingest.loaders.pdf import load_pdf
from ragcite.ingest.loaders.text import load_text
from ragcite.ingest.loaders.word import load_docx
from ragcite.ingest.types import DocumentMetadata, ExtractedText

_LOADERS: dict[str, Callable[[Path], ExtractedText]] = {
    ".txt": load_text,
    ".md": load_markdown,
    ".markdown": load_markdown,
    ".html": load_html,
    ".htm": load_html,
    ".pdf": load_pdf,
    ".docx": load_docx,
}
SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(_LOADERS)

__all__ = ["SUPPORTED_EXTENSIONS", "load_document"]


def load_document(path: Path, *, metadata: DocumentMetadata | None = None) -> ExtractedText:
    """Extract `path`'s text with its page and section maps and its metadata.

    Raises IngestError (file missing, unreadable, empty, bad metadata) or
    UnsupportedFormatError (no loader for the extension).
    """
    path = Path(path)
    extension = path.suffix.lower()
    loader = _LOADERS.get(extension)
    if loader is None:
        supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
        kind = f"'{extension}'" if extension else "without an extension"
        raise UnsupportedFormatError(
            str(path), f"unsupported file type {kind}; supported: {supported}"
        )
    if not path.exists():
        raise IngestError(str(path), "file not found")
    if not path.is_file():
        raise IngestError(str(path), "not a file")
    sidecar = read_sidecar(path)
    try:
        extracted = loader(path)
    except OSError as exc:
        raise IngestError(str(path), f"cannot read the file: {exc.strerror or exc}") from exc
    if not extracted.text.strip():
        raise IngestError(str(path), "the file is empty: no text to index")
    merged = (metadata or DocumentMetadata()).merged_over(sidecar.merged_over(extracted.metadata))
    if merged.title is None:
        merged = DocumentMetadata(title=title_from_filename(path)).merged_over(merged)
    return ExtractedText(
        text=extracted.text,
        pages=extracted.pages,
        sections=extracted.sections,
        metadata=merged,
    )
