"""HTML (.html, .htm): the main text via trafilatura, rendered through the Markdown path.

trafilatura drops navigation, headers and footers and returns Markdown, so headings become
sections exactly as in a Markdown file. A tiny page that trafilatura finds no main text in
falls back to the plain text of <body>.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import lxml.html
import trafilatura

from ragcite.ingest.loaders.markdown import render_markdown
from ragcite.ingest.loaders.text import normalize_newlines, read_utf8
from ragcite.ingest.types import DocumentMetadata, ExtractedText

_DROPPED_TAGS = ("script", "style", "noscript", "template", "head")
_DECLARED_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([A-Za-z0-9_-]+)""", re.IGNORECASE)


def load_html(path: Path) -> ExtractedText:
    """Load an HTML page; the title comes from <title> (cleaned by trafilatura)."""
    html = _read_html(path)
    title = _page_title(html)
    main = trafilatura.extract(
        html,
        output_format="markdown",
        include_formatting=True,
        include_tables=True,
        include_comments=False,
        favor_recall=True,
    )
    if isinstance(main, str) and main.strip():
        extracted = render_markdown(normalize_newlines(main))
    else:
        extracted = ExtractedText(text=_body_text(html))
    return ExtractedText(
        text=extracted.text,
        sections=extracted.sections,
        metadata=DocumentMetadata(title=title).merged_over(extracted.metadata),
    )


def _read_html(path: Path) -> str:
    """UTF-8, or the charset the page declares in a <meta> tag."""
    declared = _DECLARED_CHARSET.search(path.read_bytes()[:4096])
    if declared is None:
        return read_utf8(path)
    try:
        codec = codecs.lookup(declared.group(1).decode("ascii")).name
    except LookupError:
        return read_utf8(path)
    if codec == "utf-8":
        return read_utf8(path)
    return normalize_newlines(path.read_bytes().decode(codec, errors="replace"))


def _page_title(html: str) -> str | None:
    metadata = trafilatura.extract_metadata(html)
    title = getattr(metadata, "title", None) if metadata is not None else None
    if isinstance(title, str) and title.strip():
        return title.strip()
    try:
        tree = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return None
    found = tree.findtext(".//title")
    return " ".join(found.split()) or None if found else None


def _body_text(html: str) -> str:
    """Visible text of <body>, one line per text line, blank lines collapsed."""
    try:
        tree = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return ""
    for element in tree.iter(*_DROPPED_TAGS):
        element.drop_tree()
    body = tree.find("body")
    raw = (body if body is not None else tree).text_content()
    lines = [" ".join(line.split()) for line in normalize_newlines(raw).split("\n")]
    return "\n".join(line for line in lines if line)
