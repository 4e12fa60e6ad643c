"""HTML (.html, .htm): the main text via trafilatura, rendered through the Markdown path.

trafilatura drops navigation, headers and footers and returns Markdown, so headings become
sections exactly as in a Markdown file. A tiny page that trafilatura finds no main text in
falls back to the plain text of <body>.

Deeply nested pages keep all their text: libxml2 stops at 256 levels unless told
`huge_tree`, and even then at about 2,048, silently dropping what lies deeper. Pages are
parsed with `huge_tree`, and a page nested deeper than libxml2 can follow is read by the
standard library's event parser, which has no depth limit (its text, without sections).
"""

from __future__ import annotations

import codecs
import re
from html.parser import HTMLParser
from pathlib import Path

import lxml.html
import trafilatura
from lxml import etree

from ragcite.ingest.loaders.markdown import render_markdown
from ragcite.ingest.loaders.text import normalize_newlines, read_utf8
from ragcite.ingest.types import DocumentMetadata, ExtractedText

_DROPPED_TAGS = ("script", "style", "noscript", "template", "head")
_DECLARED_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([A-Za-z0-9_-]+)""", re.IGNORECASE)
# libxml2 follows at most 2,048 levels even with huge_tree; stay clear of it.
_LIBXML_MAX_DEPTH = 2_000
_VOID_TAGS = frozenset(
    "area base br col embed hr img input link meta param source track wbr".split()
)
# Tags whose end tag may be left out: a parser closes them, so they do not nest.
_OPTIONAL_END_TAGS = frozenset(
    "p li dt dd tr td th thead tbody tfoot option optgroup colgroup caption rt rp".split()
)
_BLOCK_TAGS = frozenset(
    "address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 h3 "
    "h4 h5 h6 header hr li main nav ol p pre section table td th tr ul".split()
)


def load_html(path: Path) -> ExtractedText:
    """Load an HTML page; the title comes from <title> (cleaned by trafilatura)."""
    html = _read_html(path)
    scan = _EventText()
    scan.feed(html)
    scan.close()
    if scan.max_depth > _LIBXML_MAX_DEPTH:
        return ExtractedText(text=scan.text(), metadata=DocumentMetadata(title=scan.title()))
    tree = _parse(html)
    if tree is None:
        return ExtractedText(text=scan.text(), metadata=DocumentMetadata(title=scan.title()))
    title = _page_title(tree)
    _captions_before_tables(tree)
    main = trafilatura.extract(
        tree,
        output_format="markdown",
        include_formatting=True,
        include_tables=True,
        include_comments=False,
        favor_recall=True,
    )
    if isinstance(main, str) and main.strip():
        extracted = render_markdown(normalize_newlines(main))
    else:
        extracted = ExtractedText(text=_body_text(_parse(html)))
    return ExtractedText(
        text=extracted.text,
        sections=extracted.sections,
        metadata=DocumentMetadata(title=title).merged_over(extracted.metadata),
    )


def _captions_before_tables(tree: lxml.html.HtmlElement) -> None:
    """Move each table's <caption> to a paragraph before the table: left inside, the
    Markdown rendering writes it as the table's first row, and the real header row is
    read as data ("Plan — Price; Included riding")."""
    for caption in list(tree.iter("caption")):
        table = caption.getparent()
        if table is None:
            continue
        paragraph = lxml.html.Element("p")
        paragraph.text = " ".join(caption.text_content().split())
        table.addprevious(paragraph)
        table.remove(caption)


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


def _parse(html: str) -> lxml.html.HtmlElement | None:
    # The text is decoded already (`_read_html`); without `encoding` libxml2 reads bytes of a
    # page that declares no charset as Latin-1 ("£" became "Â£").
    parser = lxml.html.HTMLParser(
        huge_tree=True,
        remove_comments=True,
        remove_pis=True,
        collect_ids=False,
        encoding="utf-8",
    )
    try:
        return lxml.html.document_fromstring(html.encode("utf-8"), parser=parser)
    except (ValueError, etree.ParserError):
        return None


def _page_title(tree: lxml.html.HtmlElement) -> str | None:
    metadata = trafilatura.extract_metadata(tree)
    title = getattr(metadata, "title", None) if metadata is not None else None
    if isinstance(title, str) and title.strip():
        return title.strip()
    found = tree.findtext(".//title")
    return " ".join(found.split()) or None if found else None


def _body_text(tree: lxml.html.HtmlElement | None) -> str:
    """Visible text of <body>, one line per text line, blank lines collapsed."""
    if tree is None:
        return ""
    for element in tree.iter(*_DROPPED_TAGS):
        element.drop_tree()
    body = tree.find("body")
    raw = (body if body is not None else tree).text_content()
    return _clean_lines(raw)


def _clean_lines(raw: str) -> str:
    lines = [" ".join(line.split()) for line in normalize_newlines(raw).split("\n")]
    return "\n".join(line for line in lines if line)


class _EventText(HTMLParser):
    """Visible text and nesting depth from the standard library's event parser."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.max_depth = 0
        self._skipping: list[str] = []
        self._parts: list[str] = []
        self._title: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID_TAGS and tag not in _OPTIONAL_END_TAGS:
            self.depth += 1
            self.max_depth = max(self.max_depth, self.depth)
        if tag in _DROPPED_TAGS and tag != "head":
            self._skipping.append(tag)
        self._in_title = tag == "title"
        if tag in _BLOCK_TAGS:
            self._parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID_TAGS and tag not in _OPTIONAL_END_TAGS:
            self.depth = max(self.depth - 1, 0)
        if self._skipping and self._skipping[-1] == tag:
            self._skipping.pop()
        self._in_title = False
        if tag in _BLOCK_TAGS:
            self._parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title.append(data)
        elif not self._skipping:
            self._parts.append(data)

    def text(self) -> str:
        return _clean_lines("".join(self._parts))

    def title(self) -> str | None:
        return " ".join("".join(self._title).split()) or None
