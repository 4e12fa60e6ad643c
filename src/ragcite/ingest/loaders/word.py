"""Word (.docx): paragraphs and table rows in document order, sections from heading styles.

A table's first row is its header; each other row is one line that names its headers
("VPN — Rotation: Every 90 days", see `ragcite.text.table_rows`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import docx
from docx.document import Document as DocxDocument
from docx.table import Table
from docx.text.paragraph import Paragraph

from ragcite.errors import IngestError
from ragcite.ingest.loaders.text import normalize_newlines
from ragcite.ingest.types import DocumentMetadata, ExtractedText, SectionSpan
from ragcite.text.table_rows import format_table

BLOCK_SEPARATOR = "\n\n"
_HEADING_STYLE = re.compile(r"heading\s*(\d)", re.IGNORECASE)


def load_docx(path: Path) -> ExtractedText:
    """Load a .docx; paragraphs are joined by a blank line, a table row is one line."""
    try:
        document = docx.Document(str(path))
        blocks = list(_blocks(document))
        core_title = document.core_properties.title
    except Exception as exc:  # BadZipFile, KeyError, PackageNotFoundError, lxml errors, ...
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise IngestError(str(path), f"not a readable Word document: {detail}") from exc
    parts: list[str] = []
    sections: list[SectionSpan] = []
    offset = 0
    title_style_text: str | None = None
    for text, level, is_title in blocks:
        if parts:
            parts.append(BLOCK_SEPARATOR)
            offset += len(BLOCK_SEPARATOR)
        if level is not None:
            sections.append(
                SectionSpan(heading=" ".join(text.split()), level=level, char_start=offset)
            )
        if is_title and title_style_text is None:
            title_style_text = " ".join(text.split())
        parts.append(text)
        offset += len(text)
    first_heading = sections[0].heading if sections else None
    title = (core_title or "").strip() or title_style_text or first_heading
    return ExtractedText(
        text="".join(parts),
        sections=tuple(sections),
        metadata=DocumentMetadata(title=title),
    )


def _blocks(document: DocxDocument) -> Iterator[tuple[str, int | None, bool]]:
    """(text, heading level or None, is a Title paragraph) for each non-empty block; the
    items of a list are one block, a line each, marked as Markdown marks them ("- " for a
    bullet, "1. " for a numbered item), so that the stages read them as a list."""
    items: list[str] = []
    style_name = _style_names()
    for child in document.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        paragraph = Paragraph(child, document) if tag == "p" else None
        text = normalize_newlines(paragraph.text).strip() if paragraph is not None else ""
        style = style_name(paragraph) if paragraph is not None else ""
        marker = _list_marker(paragraph, style, len(items)) if paragraph is not None else None
        if marker is not None:
            if text:
                items.append(marker + " ".join(text.split()))
            continue
        if items:
            yield "\n".join(items), None, False
            items = []
        if paragraph is not None:
            if text:
                yield text, *_heading_level(style)
        elif tag == "tbl":
            text = format_table(_table_rows(Table(child, document)))
            if text:
                yield text, None, False
    if items:
        yield "\n".join(items), None, False


def _style_names() -> Callable[[Paragraph], str]:
    """A paragraph's style name (empty for none), each style looked up once per document:
    python-docx resolves a paragraph's style, and the default one, anew on every read."""
    names: dict[str | None, str] = {}

    def name(paragraph: Paragraph) -> str:
        style_id = paragraph._p.style  # its w:pStyle, None for the document's default
        if style_id not in names:
            style = paragraph.style
            names[style_id] = (style.name if style is not None else "") or ""
        return names[style_id]

    return name


def _list_marker(paragraph: Paragraph, name: str, index: int) -> str | None:
    """The marker of a list item ("- ", or "2. " for the second numbered item), None for
    a paragraph that is not one: a list style (`name` "List Bullet", "List Number 2") or
    numbering of its own (`w:numPr`) makes an item."""
    numbered_style = name.lower().startswith("list number")
    properties = paragraph._p.pPr
    if not name.lower().startswith("list") and (properties is None or properties.numPr is None):
        return None
    return f"{index + 1}. " if numbered_style else "- "


def _heading_level(name: str) -> tuple[int | None, bool]:
    """The heading level a style name gives (`Heading 2`: 2), and whether it is the Title."""
    if name.lower() == "title":
        return 1, True
    match = _HEADING_STYLE.fullmatch(name.strip())
    return (int(match.group(1)), False) if match else (None, False)


def _table_rows(table: Table) -> list[list[str]]:
    """The cells of each non-empty row; the first row is the header."""
    rows: list[list[str]] = []
    for row in table.rows:
        cells: list[str] = []
        seen: set[int] = set()
        for cell in row.cells:
            if id(cell._tc) in seen:  # a merged cell repeats across the columns it spans
                continue
            seen.add(id(cell._tc))
            cells.append(" ".join(normalize_newlines(cell.text).split()))
        if any(cells):
            rows.append(cells)
    return rows
