"""Tables in PDF text: lines laid out in aligned columns become table rows.

pypdf's plain extraction runs a table's cells together with single spaces ("Invoices 7 years
Finance"), losing which words belong to which column. Its layout mode keeps the horizontal
positions, so a table shows as three or more lines with the same number of cells, separated by
wide gaps and starting at the same columns. Such a block is rewritten as one line per body row
with its header (`format_table`); every other line keeps its words, single-spaced.

    >>> print(tables_from_layout("Type     Period     Owner\\nInvoices     7 years     Finance\\n"
    ...                          "Tickets      3 years     Support"))
    None
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragcite.text.table_rows import format_table

# Cells are separated by at least this many spaces in pypdf's layout text.
_CELL_GAP = re.compile(r" {3,}")
_MIN_ROWS = 3  # a header and two body rows
_COLUMN_TOLERANCE = 3
# Table cells are short; two columns of prose side by side are not a table.
_MAX_MEAN_CELL_CHARS = 32


@dataclass(frozen=True)
class _Line:
    cells: list[str]
    starts: list[int]


def _cells(line: str) -> _Line:
    cells: list[str] = []
    starts: list[int] = []
    position = 0
    for piece in _CELL_GAP.split(line.rstrip()):
        offset = line.index(piece, position) if piece else position
        if piece.strip():
            cells.append(" ".join(piece.split()))
            starts.append(offset + len(piece) - len(piece.lstrip()))
        position = offset + len(piece)
    return _Line(cells, starts)


def _aligned(header: _Line, row: _Line) -> bool:
    """Same number of cells, and most of them starting where the header's do."""
    if len(row.cells) != len(header.cells):
        return False
    close = sum(
        abs(a - b) <= _COLUMN_TOLERANCE for a, b in zip(header.starts, row.starts, strict=True)
    )
    return close * 2 >= len(header.cells)


def tables_from_layout(layout_text: str) -> str | None:
    """The page text with its column-laid tables as rows, or None when it has no table.

    `layout_text` is pypdf's `extract_text(extraction_mode="layout")` of one page.
    """
    lines = [line for line in layout_text.split("\n") if line.strip()]
    parsed = [_cells(line) for line in lines]
    out: list[str] = []
    found = False
    i = 0
    while i < len(lines):
        header = parsed[i]
        j = i + 1
        if len(header.cells) >= 2:
            while j < len(lines) and _aligned(header, parsed[j]):
                j += 1
        if j - i >= _MIN_ROWS and _short_cells(parsed[i:j]):
            found = True
            # A blank line on each side: the table is a paragraph of its own for the chunker.
            out.append("\n" + format_table([p.cells for p in parsed[i:j]]) + "\n")
            i = j
            continue
        out.append(" ".join(lines[i].split()))
        i += 1
    return "\n".join(out).strip("\n") if found else None


def _short_cells(block: list[_Line]) -> bool:
    lengths = [len(cell) for line in block for cell in line.cells]
    return sum(lengths) <= _MAX_MEAN_CELL_CHARS * len(lengths)
