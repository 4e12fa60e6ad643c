"""PDF (.pdf): text per page with pypdf, sections from the outline or from heading lines.

A table laid out in columns becomes one line per row with its header (see `pdf_tables`).
Pages are joined with a blank line; page N covers text[pages[N-1].char_start:char_end].
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pypdf import PageObject, PdfReader

from ragcite.errors import IngestError, IngestLimitError
from ragcite.ingest.limits import DEFAULT_LIMITS, LoadLimits
from ragcite.ingest.loaders.headings import find_heading_lines
from ragcite.ingest.loaders.leader_rows import leader_rows
from ragcite.ingest.loaders.pdf_tables import tables_from_layout
from ragcite.ingest.loaders.text import normalize_newlines
from ragcite.ingest.types import DocumentMetadata, ExtractedText, PageSpan, SectionSpan
from ragcite.text.print_marks import BROKEN_WORD, LIGATURES_AND_SOFT_HYPHENS

PAGE_SEPARATOR = "\n\n"
# A first or last line repeated (digits aside) on this share of pages is a running header or
# footer ("Page 3 of 6"): it is dropped so it does not become chunks of its own.
_RUNNING_LINE_SHARE = 0.6
_RUNNING_LINE_MIN_PAGES = 3
_DIGITS = re.compile(r"\d+")
# What may stand before an outline title on its line: "3.", "3.2", "A)", "iv.".
_NUMBERING = re.compile(r"(?:\d{1,3}|[A-Za-z]|[ivxIVX]{1,5})?(?:\.\d{1,3})*[.)]?")


def load_pdf(path: Path, limits: LoadLimits = DEFAULT_LIMITS) -> ExtractedText:
    """Load a PDF; encrypted, corrupt and image-only files raise IngestError, one over the
    page, object or time limits IngestLimitError."""
    reader = _open(path, limits)
    try:
        page_texts = []
        for number, page in enumerate(reader.pages, start=1):
            limits.check_time(path, f"while reading page {number}")
            page_texts.append(leader_rows(clean_page_text(_page_text(page))))
    except IngestLimitError:
        raise
    except Exception as exc:  # pypdf raises many kinds on damaged content streams
        raise IngestError(str(path), f"not a readable PDF: {_describe(exc)}") from exc
    page_texts = _drop_running_lines(page_texts)
    if not any(page_texts):
        raise IngestError(
            str(path), "no text could be extracted; is it a scanned image? run OCR first"
        )
    pages: list[PageSpan] = []
    offset = 0
    for number, page_text in enumerate(page_texts, start=1):
        if number > 1:
            offset += len(PAGE_SEPARATOR)
        pages.append(
            PageSpan(page_number=number, char_start=offset, char_end=offset + len(page_text))
        )
        offset += len(page_text)
    text = PAGE_SEPARATOR.join(page_texts)
    sections = _outline_sections(reader, text, pages) or find_heading_lines(
        text, standalone="sentence"
    )
    return ExtractedText(
        text=text,
        pages=tuple(pages),
        sections=sections,
        metadata=DocumentMetadata(title=_title(reader, text)),
    )


def _page_text(page: PageObject) -> str:
    """The page's text; a table laid out in columns becomes one line per row."""
    plain = page.extract_text() or ""
    if not plain.strip():
        return plain
    try:
        layout = page.extract_text(extraction_mode="layout")
    except Exception:  # layout mode is stricter on odd fonts; the plain text stands
        return plain
    return tables_from_layout(layout) or plain


def _open(path: Path, limits: LoadLimits) -> PdfReader:
    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise IngestError(
                str(path),
                "not a readable PDF: it is encrypted with a password; save an unencrypted copy",
            )
        _check_counts(path, reader, limits)
    except IngestError:
        raise
    except Exception as exc:  # PdfReadError, ValueError, KeyError, DependencyError, ...
        raise IngestError(str(path), f"not a readable PDF: {_describe(exc)}") from exc
    return reader


def _check_counts(path: Path, reader: PdfReader, limits: LoadLimits) -> None:
    objects = sum(len(table) for table in reader.xref.values()) + len(reader.xref_objStm)
    if objects > limits.max_pdf_objects:
        raise IngestLimitError(
            str(path),
            f"{objects:,} objects, over the limit of {limits.max_pdf_objects:,} "
            "(ingest.max_pdf_objects)",
        )
    pages = len(reader.pages)
    if pages > limits.max_pdf_pages:
        raise IngestLimitError(
            str(path),
            f"{pages:,} pages, over the limit of {limits.max_pdf_pages:,} (ingest.max_pdf_pages); "
            "split the PDF or raise the limit",
        )


def _describe(exc: Exception) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def clean_page_text(raw: str) -> str:
    """A page's extracted text as a reader sees it: typographic ligatures spelled out
    ("ﬁ" to "fi"), soft hyphens dropped, and a word hyphenated across a line break joined
    ("reten-\ntion" to "retention"; a compound broken at its own hyphen loses it)."""
    text = normalize_newlines(raw).translate(LIGATURES_AND_SOFT_HYPHENS)
    lines = [line.rstrip() for line in BROKEN_WORD.sub("", text).split("\n")]
    return "\n".join(lines).strip()


def _drop_running_lines(page_texts: list[str]) -> list[str]:
    if len(page_texts) < _RUNNING_LINE_MIN_PAGES:
        return page_texts
    pages = [text.split("\n") for text in page_texts]
    for position in (0, -1):
        keys = [
            _DIGITS.sub("#", lines[position].strip()) if lines[position] else "" for lines in pages
        ]
        running = {
            key for key in set(keys) if key and keys.count(key) >= _RUNNING_LINE_SHARE * len(pages)
        }
        for lines, key in zip(pages, keys, strict=True):
            if key in running:
                lines.pop(position)
    return ["\n".join(lines).strip() for lines in pages]


def _title(reader: PdfReader, text: str) -> str | None:
    try:
        title = reader.metadata.title if reader.metadata is not None else None
    except Exception:  # a damaged /Info dictionary is not worth failing the document for
        title = None
    if isinstance(title, str) and title.strip():
        return " ".join(title.split())
    first_line = next((line.strip() for line in text.split("\n") if line.strip()), None)
    return first_line


def _outline_sections(
    reader: PdfReader, text: str, pages: list[PageSpan]
) -> tuple[SectionSpan, ...]:
    """Sections from the bookmarks, each placed where its title appears on its page."""
    try:
        entries = list(_walk_outline(reader, reader.outline, level=1))
    except Exception:  # a broken outline falls back to the heading heuristic
        return ()
    sections: list[SectionSpan] = []
    cursor_page, cursor = -1, 0
    for title, page_index, level in entries:
        if not 0 <= page_index < len(pages):
            continue
        page = pages[page_index]
        search_from = cursor if page_index == cursor_page else page.char_start
        found = _find_title(text, title, search_from, page.char_end)
        start = found if found is not None else max(search_from, page.char_start)
        sections.append(SectionSpan(heading=title, level=level, char_start=start))
        cursor_page, cursor = page_index, start
    return tuple(sorted(sections, key=lambda s: s.char_start))


def _walk_outline(reader: PdfReader, items: Any, level: int) -> Any:
    for item in items:
        if isinstance(item, list):
            yield from _walk_outline(reader, item, level + 1)
            continue
        title = " ".join(str(item.title or "").split())
        page_index = reader.get_destination_page_number(item)
        if title and page_index is not None:
            yield title, page_index, level


def _find_title(text: str, title: str, start: int, end: int) -> int | None:
    """Where `title` appears in text[start:end], moved back over numbering on its line."""
    words = title.split()
    pattern = re.compile(r"\s+".join(re.escape(word) for word in words), re.IGNORECASE)
    match = pattern.search(text, start, end)
    if match is None:
        return None
    line_start = max(text.rfind("\n", 0, match.start()) + 1, start)
    prefix = text[line_start : match.start()]
    if _NUMBERING.fullmatch(prefix.strip()):
        return line_start + len(prefix) - len(prefix.lstrip())
    return match.start()
