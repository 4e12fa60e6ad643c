"""Markdown (.md, .markdown): YAML front matter, a plain-text rendering, sections from headings.

The extracted text keeps the document's words and line structure but drops the markup: a
heading line becomes its text, `**bold**`, `*em*`, backticks and `[text](url)` become their
text, images are dropped, list items keep a "- " or "1. " marker, code blocks stay verbatim,
a table becomes one line per row with its header ("Team — Storage: 100 GB; Users: 25") and
blocks are separated by a blank line. Headings come from markdown-it tokens, so a `#` inside
a code block is never a heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ragcite.errors import IngestError
from ragcite.ingest.loaders.metadata import parse_metadata_yaml
from ragcite.ingest.loaders.text import read_utf8
from ragcite.ingest.types import DocumentMetadata, ExtractedText, SectionSpan
from ragcite.text.table_rows import format_table

_FRONT_MATTER_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
_HTML_TAG = re.compile(r"<!--.*?-->|<[^>]*>", re.DOTALL)
# markdown-it silently drops whatever lies deeper than maxNesting; a document that nests
# that deep (hostile, or not really Markdown) is kept verbatim instead, all its words intact.
_MAX_NESTING = 100
_PARSER = MarkdownIt("commonmark", {"html": True, "maxNesting": _MAX_NESTING}).enable(
    ["table", "strikethrough"]
)


def load_markdown(path: Path) -> ExtractedText:
    """Load a Markdown file; front matter becomes the file's own metadata."""
    raw = read_utf8(path)
    front_matter, body = split_front_matter(raw)
    if body is None:
        raise IngestError(str(path), "front matter opened with '---' is never closed")
    metadata = (
        parse_metadata_yaml(front_matter, source=str(path), what="front matter")
        if front_matter is not None
        else DocumentMetadata()
    )
    extracted = render_markdown(body)
    return ExtractedText(
        text=extracted.text,
        sections=extracted.sections,
        metadata=metadata.merged_over(extracted.metadata),
    )


def split_front_matter(raw: str) -> tuple[str | None, str | None]:
    """(front matter, body); front matter is None when the file has none, body None if unclosed."""
    if not raw.startswith("---\n"):
        return None, raw
    close = _FRONT_MATTER_CLOSE.search(raw, 4)
    if close is None:
        return raw[4:], None
    return raw[4 : close.start()], raw[close.end() + 1 :]


def render_markdown(body: str) -> ExtractedText:
    """Plain text and sections for Markdown `body`; the title is the first level-1 heading."""
    tokens = _PARSER.parse(body)
    if _nests_too_deep(tokens):
        return ExtractedText(text=body.strip())
    renderer = _Renderer()
    renderer.render(tokens)
    title = next((s.heading for s in renderer.sections if s.level == 1), None)
    return ExtractedText(
        text="".join(renderer.parts),
        sections=tuple(renderer.sections),
        metadata=DocumentMetadata(title=title),
    )


@dataclass
class _ListState:
    ordered: bool
    next_number: int


@dataclass
class _Renderer:
    parts: list[str] = field(default_factory=list)
    sections: list[SectionSpan] = field(default_factory=list)
    length: int = 0
    lists: list[_ListState] = field(default_factory=list)
    item_prefix: str | None = None
    last_block_in_list: bool = False

    def render(self, tokens: list[Token]) -> None:
        i = 0
        while i < len(tokens):
            token = tokens[i]
            kind = token.type
            if kind == "heading_open":
                text = _inline_text(tokens[i + 1]).strip()
                if text:
                    start = self._emit(text)
                    level = int(token.tag[1:])
                    self.sections.append(SectionSpan(heading=text, level=level, char_start=start))
                i += 3
                continue
            if kind == "paragraph_open":
                self._emit(_inline_text(tokens[i + 1]).strip())
                i += 3
                continue
            if kind in ("fence", "code_block"):
                self._emit(token.content.rstrip("\n"))
            elif kind == "html_block":
                self._emit(_HTML_TAG.sub("", token.content).strip())
            elif kind == "table_open":
                i = self._table(tokens, i)
                continue
            elif kind in ("bullet_list_open", "ordered_list_open"):
                start = int(token.attrGet("start") or 1)
                self.lists.append(_ListState(kind == "ordered_list_open", start))
            elif kind in ("bullet_list_close", "ordered_list_close"):
                self.lists.pop()
            elif kind == "list_item_open":
                state = self.lists[-1]
                marker = f"{state.next_number}. " if state.ordered else "- "
                state.next_number += 1
                self.item_prefix = "  " * (len(self.lists) - 1) + marker
            i += 1

    def _table(self, tokens: list[Token], i: int) -> int:
        """A table as one block, a line per body row with its header (`format_table`)."""
        rows: list[list[str]] = []
        cells: list[str] = []
        has_header = False
        while tokens[i].type != "table_close":
            token = tokens[i]
            if token.type == "inline":
                cells.append(_inline_text(token).strip())
            elif token.type == "thead_open":
                has_header = True
            elif token.type == "tr_close":
                rows.append(cells)
                cells = []
            i += 1
        self._emit(format_table(rows, has_header=has_header))
        return i + 1

    def _emit(self, block: str) -> int:
        """Append a block; returns the offset where its text (after any list marker) starts."""
        if not block:
            return self.length
        in_list = bool(self.lists)
        if self.length:
            self._append("\n" if in_list and self.last_block_in_list else "\n\n")
        if self.item_prefix is not None:
            self._append(self.item_prefix)
            self.item_prefix = None
        start = self.length
        self._append(block)
        self.last_block_in_list = in_list
        return start

    def _append(self, piece: str) -> None:
        self.parts.append(piece)
        self.length += len(piece)


def _nests_too_deep(tokens: list[Token]) -> bool:
    deepest = max(
        (t.level for token in tokens for t in (token, *(token.children or ()))), default=0
    )
    return deepest >= _MAX_NESTING - 1


def _inline_text(token: Token) -> str:
    """The words of an inline token: markup, link targets, images and inline HTML dropped."""
    pieces: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "text_special", "code_inline"):
            pieces.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            pieces.append("\n")
    return "".join(pieces)
