#!/usr/bin/env python3
"""Check ``eval/demo.jsonl`` against the demo corpus in ``demo/``.

For every labelled question it verifies that:

* the fields are well formed (unique ``id``, ``query``, ``answerable``; for
  answerable questions ``expected_document_id``, ``expected_version``,
  ``expected_chunk_text`` and ``expected_answer``);
* the (document_id, version) pair exists in the corpus metadata (Markdown front
  matter or ``<file>.meta.yaml`` sidecars);
* ``expected_chunk_text`` occurs verbatim (after collapsing whitespace) inside a
  single text unit of that document: one line of ``pypdf``'s
  ``page.extract_text()`` on ``expected_page`` for the PDF, one block element
  (p, li, h1-h6, ...) for HTML, one paragraph for DOCX, and the body text
  (front matter removed) for Markdown and plain text;
* ``expected_page`` is given for PDF answers only.

A table row is also a text unit, written the way ragcite writes it (the row's
first cell, " — ", then "Header: value" for each other cell, joined by "; "):
Markdown pipe tables, HTML ``<tr>`` rows, DOCX table rows and PDF lines laid out
in columns (``pypdf``'s layout mode).

It also checks the minimum size of the question set (45 lines, at least 33
answerable covering every document, at least 12 unanswerable).

Exit status 0 when everything passes, 1 otherwise. Uses only the standard
library, PyYAML, pypdf and python-docx.
"""

from __future__ import annotations

import html
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo"
EVAL = ROOT / "eval" / "demo.jsonl"
META_KEYS = {"title", "document_id", "version", "effective_date", "url"}


def collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ---------------------------------------------------------------- extraction


def table_row_units(rows: list[list[str]]) -> list[str]:
    """Body rows of a table (first row = header) as "Label — Header: value; ..." lines."""
    if len(rows) < 2:
        return []
    header = [collapse(c) for c in rows[0]]
    units = []
    for row in rows[1:]:
        cells = [collapse(c) for c in row]
        pairs = [f"{h}: {v}" for h, v in zip(header[1:], cells[1:], strict=False) if v]
        if cells and cells[0] and pairs:
            units.append(f"{cells[0]} — " + "; ".join(pairs))
    return units


def markdown_table_units(body: str) -> list[str]:
    units: list[str] = []
    block: list[list[str]] = []
    for line in [*body.splitlines(), ""]:
        if line.strip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                block.append(cells)
        elif block:
            units += table_row_units(block)
            block = []
    return units


def pdf_table_units(layout_text: str) -> list[str]:
    lines = [re.split(r" {3,}", line.strip()) for line in layout_text.splitlines() if line.strip()]
    units: list[str] = []
    i = 0
    while i < len(lines):
        j = i + 1
        while len(lines[i]) >= 2 and j < len(lines) and len(lines[j]) == len(lines[i]):
            j += 1
        if j - i >= 3:
            units += table_row_units(lines[i:j])
            i = j
        else:
            i += 1
    return units


class _TableRows(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self.tables:
            self.tables[-1][-1].append(collapse("".join(self._cell)))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def split_front_matter(text: str) -> tuple[dict, str]:
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise ValueError("missing front matter")
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            return yaml.safe_load("".join(lines[1:i])) or {}, "".join(lines[i + 1 :])
    raise ValueError("unterminated front matter")


class _BlockText(HTMLParser):
    BLOCKS = frozenset(
        {
            "p",
            "li",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "td",
            "th",
            "dd",
            "dt",
            "blockquote",
            "figcaption",
            "title",
        }
    )
    SKIP = frozenset({"script", "style"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.units: list[str] = []
        self._buf: list[str] | None = None
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self._skip += 1
        elif tag in self.BLOCKS:
            self._flush()
            self._buf = []

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self._skip -= 1
        elif tag in self.BLOCKS:
            self._flush()

    def handle_data(self, data):
        if self._buf is not None and not self._skip:
            self._buf.append(data)

    def _flush(self):
        if self._buf is not None:
            text = collapse(html.unescape("".join(self._buf)))
            if text:
                self.units.append(text)
        self._buf = None


def load_corpus() -> tuple[dict, list[str]]:
    """Return {(document_id, version): doc} and a list of problems."""
    docs: dict = {}
    problems: list[str] = []
    for path in sorted(DEMO.iterdir()):
        if path.name.endswith(".meta.yaml"):
            continue
        suffix = path.suffix.lower()
        units_by_page: dict[int | None, list[str]] = {}
        if suffix == ".md":
            meta, body = split_front_matter(path.read_text(encoding="utf-8"))
            units_by_page[None] = [collapse(body), *markdown_table_units(body)]
        else:
            sidecar = path.with_name(path.name + ".meta.yaml")
            if not sidecar.exists():
                problems.append(f"{path.name}: no sidecar {sidecar.name}")
                continue
            meta = yaml.safe_load(sidecar.read_text(encoding="utf-8")) or {}
            if suffix == ".txt":
                units_by_page[None] = [collapse(path.read_text(encoding="utf-8"))]
            elif suffix in (".html", ".htm"):
                parser = _BlockText()
                parser.feed(path.read_text(encoding="utf-8"))
                parser.close()
                tables = _TableRows()
                tables.feed(path.read_text(encoding="utf-8"))
                rows = [u for t in tables.tables for u in table_row_units(t)]
                units_by_page[None] = parser.units + rows
            elif suffix == ".docx":
                import docx

                d = docx.Document(str(path))
                units_by_page[None] = [collapse(p.text) for p in d.paragraphs if p.text.strip()]
                for table in d.tables:
                    cells = [[c.text for c in row.cells] for row in table.rows]
                    units_by_page[None] += table_row_units(cells)
            elif suffix == ".pdf":
                import pypdf

                reader = pypdf.PdfReader(str(path))
                for n, page in enumerate(reader.pages, 1):
                    units_by_page[n] = [collapse(line) for line in page.extract_text().splitlines()]
                    layout = page.extract_text(extraction_mode="layout")
                    units_by_page[n] += pdf_table_units(layout)
            else:
                problems.append(f"{path.name}: unexpected file type in demo/")
                continue
        missing = META_KEYS - set(meta)
        if missing:
            problems.append(f"{path.name}: metadata lacks {sorted(missing)}")
        if not isinstance(meta.get("version"), int):
            problems.append(f"{path.name}: version must be an int")
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(meta.get("effective_date", ""))):
            problems.append(f"{path.name}: effective_date must be YYYY-MM-DD")
        key = (meta.get("document_id"), meta.get("version"))
        if key in docs:
            problems.append(f"{path.name}: duplicate {key} (also {docs[key]['path'].name})")
        docs[key] = {"path": path, "meta": meta, "units": units_by_page, "is_pdf": suffix == ".pdf"}
    return docs, problems


# ---------------------------------------------------------------- checking


def check() -> list[str]:
    docs, problems = load_corpus()
    rows = []
    for n, line in enumerate(EVAL.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            problems.append(f"line {n}: blank line")
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            problems.append(f"line {n}: bad JSON: {exc}")

    ids = [r.get("id") for r in rows]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(f"duplicate id {dup}")

    covered = set()
    answerable = unanswerable = 0
    for r in rows:
        qid = r.get("id", "?")
        if not r.get("query"):
            problems.append(f"{qid}: empty query")
        if r.get("answerable") is False:
            unanswerable += 1
            extra = {k for k in r if k.startswith("expected_") and r[k] is not None}
            if extra:
                problems.append(f"{qid}: unanswerable but has {sorted(extra)}")
            continue
        if r.get("answerable") is not True:
            problems.append(f"{qid}: answerable must be true or false")
            continue
        answerable += 1
        for field in (
            "expected_document_id",
            "expected_version",
            "expected_chunk_text",
            "expected_answer",
        ):
            if not r.get(field):
                problems.append(f"{qid}: missing {field}")
        key = (r.get("expected_document_id"), r.get("expected_version"))
        doc = docs.get(key)
        if doc is None:
            problems.append(f"{qid}: no document {key}")
            continue
        covered.add(key)
        span = collapse(r.get("expected_chunk_text") or "")
        words = len(span.split())
        if not 5 <= words <= 25:
            problems.append(f"{qid}: expected_chunk_text has {words} words (want 5-25)")
        page = r.get("expected_page")
        if doc["is_pdf"]:
            if not isinstance(page, int):
                problems.append(f"{qid}: PDF answer needs an int expected_page")
                continue
            if not any(span in u for u in doc["units"].get(page, [])):
                where = [p for p, us in doc["units"].items() if any(span in u for u in us)]
                problems.append(
                    f"{qid}: span not on one line of page {page} of "
                    f"{doc['path'].name} (found on pages {where}): {span!r}"
                )
        else:
            if page is not None:
                problems.append(f"{qid}: expected_page given for a non-PDF document")
            if not any(span in u for u in doc["units"][None]):
                problems.append(f"{qid}: span not found in {doc['path'].name}: {span!r}")

    if len(rows) < 45:
        problems.append(f"only {len(rows)} questions (want >= 45)")
    if answerable < 33:
        problems.append(f"only {answerable} answerable questions (want >= 33)")
    if unanswerable < 12:
        problems.append(f"only {unanswerable} unanswerable questions (want >= 12)")
    for key in sorted(set(docs) - covered, key=str):
        problems.append(f"no question targets {key} ({docs[key]['path'].name})")

    print(
        f"{len(docs)} documents, {len(rows)} questions "
        f"({answerable} answerable, {unanswerable} unanswerable)"
    )
    return problems


def main() -> int:
    problems = check()
    for p in problems:
        print("FAIL:", p)
    if problems:
        print(f"{len(problems)} problem(s)")
        return 1
    print("OK: every expected_chunk_text was found in its document")
    return 0


if __name__ == "__main__":
    sys.exit(main())
