"""Table rows as text: one line per row, its header named in every cell.

Every loader that finds a table (Markdown pipe tables, HTML `<table>`, DOCX tables, PDF text
laid out in columns) writes each body row as one line of the extracted text:

    Team — Storage: 100 GB; Users: 25; SSO: yes

The row's first cell labels it; each other cell follows its column header. A row carries its
header with it, so a chunk that holds one row still says what its numbers are, and a row is a
unit that the sentence splitter never cuts and the extractive generator quotes whole.

    >>> format_row(["Plan", "Storage", "Users"], ["Team", "100 GB", "25"])
    'Team — Storage: 100 GB; Users: 25'
    >>> is_table_row("Team — Storage: 100 GB; Users: 25")
    True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

LABEL_SEPARATOR = " — "
CELL_SEPARATOR = "; "
# The shape `format_row` writes: a label, the separator, then "Header: value" cells.
_ROW_LINE_STRICT = re.compile(r"[^\n]*?\S — [^\n:;]{1,80}: [^\n]*\S")
_ROW_ANYWHERE = re.compile(r"(?m)^[ \t]*(?P<row>[^\n]*?\S — [^\n:;]{1,80}: [^\n]*\S)[ \t]*$")


def _cell(text: str) -> str:
    """One line, single-spaced, without the separators the row format uses."""
    cleaned = " ".join(text.split())
    return cleaned.replace(CELL_SEPARATOR, ", ").replace(LABEL_SEPARATOR, " - ")


def format_row(header: Sequence[str], cells: Sequence[str]) -> str:
    """One table row as a line: "Label — Header: value; Header: value" (empty cells left out).

    >>> format_row(["Fee", "Amount", "When"], ["Late payment", "$25", "after 30 days"])
    'Late payment — Amount: $25; When: after 30 days'
    """
    values = [_cell(c) for c in cells]
    names = [_cell(h) for h in header] + [""] * max(0, len(values) - len(header))
    if not any(values):
        return ""
    label, rest = values[0], list(zip(names[1:], values[1:], strict=False))
    pairs = [f"{name}: {value}" if name else value for name, value in rest if value]
    if not label:
        label = f"{names[0]}" if names and names[0] else ""
    if not pairs:
        return f"{names[0]}: {label}" if names and names[0] and label else label
    if not label:
        return CELL_SEPARATOR.join(pairs)
    return label + LABEL_SEPARATOR + CELL_SEPARATOR.join(pairs)


def format_table(rows: Sequence[Sequence[str]], *, has_header: bool = True) -> str:
    """The body rows of a table, one line each; the first row is the header when `has_header`.

    >>> print(format_table([["Plan", "Users"], ["Free", "1"], ["Team", "25"]]))
    Free — Users: 1
    Team — Users: 25
    """
    if not rows:
        return ""
    header: Sequence[str] = rows[0] if has_header else [""] * max(len(r) for r in rows)
    body = rows[1:] if has_header else rows
    if has_header and not body:
        return " | ".join(_cell(c) for c in header if _cell(c))
    lines = [format_row(header, row) for row in body]
    return "\n".join(line for line in lines if line)


def is_table_row(line: str) -> bool:
    """Whether `line` has the shape `format_row` writes with a label and a header."""
    if LABEL_SEPARATOR not in line:  # most sentences: no row without its separator
        return False
    return _ROW_LINE_STRICT.fullmatch(line.strip()) is not None


def table_row_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """The `(start, end)` of each whole line in text[start:end] that is a table row."""
    end = len(text) if end is None else end
    if text.find(LABEL_SEPARATOR, start, end) < 0:
        return []
    return [m.span("row") for m in _ROW_ANYWHERE.finditer(text, start, end)]


def row_cells(row: str) -> tuple[str, list[str]]:
    """A row's label and its cells ("Header: value"), as `format_row` wrote them.

    >>> row_cells("Team — Storage: 100 GB; Users: 25")
    ('Team', ['Storage: 100 GB', 'Users: 25'])
    """
    label, _, cells = row.partition(LABEL_SEPARATOR)
    return label, cells.split(CELL_SEPARATOR)


def single_cell_rows(row: str) -> list[str]:
    """A row of two or more cells cut to its label and each one of them: what a question
    naming one column compares with ("Team — Users: 25"); none for a row of one cell.

    >>> single_cell_rows("Team — Storage: 100 GB; Users: 25")
    ['Team — Storage: 100 GB', 'Team — Users: 25']
    """
    label, cells = row_cells(row)
    return [label + LABEL_SEPARATOR + cell for cell in cells] if len(cells) > 1 else []
