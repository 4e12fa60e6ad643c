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
# A table's cells are short on each line they take, even where a long cell wraps over several
# lines; two columns of prose side by side run every line full and are not a table.
_MAX_MEAN_CELL_CHARS = 32
# The longest wrapped part of a cell on a line of its own (an email address, a clause).
_MAX_WRAPPED_CHARS = 64
# A cell that goes on from the line above: it opens on a word in lower case ("hours; one
# parent …"), not on an address ("auditchair@…").
_GOES_ON = re.compile(r"[a-z]+[\s,;:]")


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

    `layout_text` is pypdf's `extract_text(extraction_mode="layout")` of one page. A cell
    wrapped onto the next line ("Weekend / Bank" over "Holiday") is joined to the cell above.
    """
    raw = layout_text.split("\n")
    lines = [line for line in raw if line.strip()]
    after_blank = [k > 0 and not raw[k - 1].strip() for k, line in enumerate(raw) if line.strip()]
    parsed = [_cells(line) for line in lines]
    out: list[str] = []
    found = False
    i = 0
    while i < len(lines):
        rows, j = _table_at(parsed, after_blank, i)
        if len(rows) >= _MIN_ROWS and _short_cells(parsed[i:j]):
            found = True
            plain_above = (
                i > 0 and not after_blank[i] and out[-1:] == [" ".join(lines[i - 1].split())]
            )
            above = _wrapped_columns(rows[0], parsed[i - 1]) if plain_above else {}
            if above and (centred := _centred(_Line([], []), rows[0], above)[1]) != rows[0]:
                rows[0] = centred  # "Annual" over the header's "management" / "charge"
                out.pop()
            # A blank line on each side: the table is a paragraph of its own for the chunker.
            out.append("\n" + format_table([row.cells for row in rows]) + "\n")
            i = j
            continue
        out.append(" ".join(lines[i].split()))
        i += 1
    return "\n".join(out).strip("\n") if found else None


def _table_at(parsed: list[_Line], after_blank: list[bool], i: int) -> tuple[list[_Line], int]:
    """The rows of the table whose header is line `i` (wrapped cells joined), and the line
    after it; a single row when line `i` heads no table."""
    header = parsed[i]
    rows = [header]
    wrapped: dict[int, str] = {}  # the cells of the line just joined to the row above
    j = i + 1
    if len(header.cells) < 2 or _inside_a_table(parsed, after_blank, i):
        return rows, j
    while j < len(parsed):
        if _aligned(header, parsed[j]):
            rows[-1:] = _centred(rows[-1], parsed[j], wrapped)
            wrapped = {}
        elif not after_blank[j] and (columns := _wrapped_columns(header, parsed[j])):
            rows[-1], wrapped = _joined(rows[-1], columns), columns
        else:
            break
        j += 1
    return rows, j


def _inside_a_table(parsed: list[_Line], after_blank: list[bool], i: int) -> bool:
    """Whether line `i` goes on from a table the lines above it began: the line before it,
    itself inside a paragraph, is a row like it or the wrapped end of one ("can opt in"
    between two rows whose cells ran together)."""
    if i < 2 or after_blank[i] or after_blank[i - 1]:
        return False
    above, line = parsed[i - 1], parsed[i]
    return _aligned(line, above) or bool(_wrapped_columns(line, above))


def _wrapped_columns(header: _Line, line: _Line) -> dict[int, str]:
    """Column → text of `line` when it holds the wrapped parts of a row's cells: fewer cells
    than the header, each starting at one of the header's columns, no longer than a cell
    ("bookings@ashcombevillagehall.org.uk" under "01398 552417 /") and ending before the next
    column (a row whose cells ran together is no wrap); empty otherwise."""
    if not line.cells or len(line.cells) >= len(header.cells):
        return {}
    columns: dict[int, str] = {}
    ends = [*header.starts[1:], None]
    for cell, start in zip(line.cells, line.starts, strict=True):
        column = next(
            (k for k, s in enumerate(header.starts) if abs(s - start) <= _COLUMN_TOLERANCE), None
        )
        if column is None or column in columns or len(cell) > _MAX_WRAPPED_CHARS:
            return {}
        end = ends[column]
        if end is not None and start + len(cell) > end:
            return {}
        columns[column] = cell
    return columns


def _joined(row: _Line, columns: dict[int, str]) -> _Line:
    cells = [f"{c} {columns[k]}".strip() if k in columns else c for k, c in enumerate(row.cells)]
    return _Line(cells, row.starts)


def _centred(above: _Line, row: _Line, wrapped: dict[int, str]) -> list[_Line]:
    """`above` and `row`, with a wrapped line joined to `above` moved to `row` where `row`'s
    cell in that column goes on from it: a cell centred over three lines starts on the line
    above its row ("Parents and carers welcome 24" over "hours; one parent may …")."""
    moved = {
        k: t
        for k, t in wrapped.items()
        if k < len(row.cells) and _GOES_ON.match(row.cells[k]) and t.count("(") >= t.count(")")
    }
    if not moved:
        return [above, row]
    kept = [
        c[: -len(moved[k])].rstrip() if k in moved and c.endswith(moved[k]) else c
        for k, c in enumerate(above.cells)
    ]
    cells = [f"{moved[k]} {c}" if k in moved else c for k, c in enumerate(row.cells)]
    return [_Line(kept, above.starts), _Line(cells, row.starts)]


def _short_cells(block: list[_Line]) -> bool:
    """The pieces of the block's lines, as laid out (a wrapped cell counts line by line),
    are short on average."""
    lengths = [len(cell) for line in block for cell in line.cells]
    return sum(lengths) <= _MAX_MEAN_CELL_CHARS * len(lengths)
