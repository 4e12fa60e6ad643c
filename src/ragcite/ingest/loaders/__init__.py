"""Loaders: one per file format, dispatched by extension.

    >>> extracted = load_document(Path("policies/returns.md"))
    >>> extracted.metadata.title, extracted.sections[0].heading
    ('Returns and Refunds Policy', 'Returns and Refunds Policy')

Metadata precedence, highest first: the `metadata` argument, a sidecar `<file>.meta.yaml`,
the file's own (Markdown front matter, HTML <title>, PDF /Title, docx core properties), a
title derived from the file name. `document_id` stays None unless given.

Limits (`LoadLimits`, from the `ingest.*` settings) are checked before a file is parsed:
its size, a DOCX's unpacked size and compression ratio; a PDF's pages, objects and time.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ragcite.errors import IngestError, UnsupportedFormatError
from ragcite.ingest.limits import DEFAULT_LIMITS, LoadLimits
from ragcite.ingest.loaders.html import load_html
from ragcite.ingest.loaders.markdown import load_markdown
from ragcite.ingest.loaders.metadata import read_sidecar, title_from_filename
from ragcite.ingest.loaders.pdf import load_pdf
from ragcite.ingest.loaders.text import load_text
from ragcite.ingest.loaders.word import load_docx
from ragcite.ingest.types import DocumentMetadata, ExtractedText

Loader = Callable[[Path, LoadLimits], ExtractedText]


def _without_limits(load: Callable[[Path], ExtractedText]) -> Loader:
    """A loader whose reading the size limit already bounds (text, Markdown, HTML)."""
    return lambda path, _limits: load(path)


def _load_docx(path: Path, limits: LoadLimits) -> ExtractedText:
    limits.check_zip(path, "Word document")  # before python-docx inflates any part
    return load_docx(path)


_LOADERS: dict[str, Loader] = {
    ".txt": _without_limits(load_text),
    ".md": _without_limits(load_markdown),
    ".markdown": _without_limits(load_markdown),
    ".html": _without_limits(load_html),
    ".htm": _without_limits(load_html),
    ".pdf": load_pdf,
    ".docx": _load_docx,
}
SUPPORTED_EXTENSIONS: frozenset[str] = frozenset(_LOADERS)

__all__ = ["SUPPORTED_EXTENSIONS", "load_document"]


def load_document(
    path: Path, *, metadata: DocumentMetadata | None = None, limits: LoadLimits = DEFAULT_LIMITS
) -> ExtractedText:
    """Extract `path`'s text with its page and section maps and its metadata.

    Raises IngestError (file missing, unreadable, empty, bad metadata), IngestLimitError
    (over a limit) or UnsupportedFormatError (no loader for the extension).
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
    limits.check_size(path)
    sidecar = read_sidecar(path)
    try:
        extracted = loader(path, limits)
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
