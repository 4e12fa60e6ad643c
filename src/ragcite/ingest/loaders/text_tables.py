"""Tables in plain text: a header over a rule of dashes, or rows between pipes, become rows.

Plain-text documents (exports, e-mails, README-style policies) lay tables out in fixed-width
columns under a rule of dashes, or between pipes:

    Plan        Monthly fee  Users          | Plan | Users |
    ----------  -----------  -----          |------|-------|
    Team        $49          25             | Team | 25    |

Each such table is rewritten as one line per body row with its header (`format_table`), a blank
line on each side; every other line is kept as it is. Columns come from the rule's runs of
dashes, or from the header's cells when the rule is one run; a row's words go to the column they
start in, and a line indented past the first column goes on from the row above ("waste, TV
point)" under "Fully serviced (electric, water,"). A heading underlined with dashes is no table:
a table needs a header of two or more cells and a row under its rule.

    >>> print(tables_in_text("Plan    Users\\n------  -----\\nFree    1\\nTeam    25\\n"))
    <BLANKLINE>
    Free — Users: 1
    Team — Users: 25
    <BLANKLINE>
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from ragcite.text.table_rows import format_table

# A rule: dashes or equals signs, with the spaces, pipes, pluses and colons that separate
# columns (read by character sets, linear in the line's length whatever it holds).
_RULE_CHARS = frozenset("-=+|: \t")
_RUNS = re.compile(r"[-=]+")
_CELL_GAP = re.compile(r"\S+(?: \S+)*")  # text between gaps of two or more spaces
_WORD = re.compile(r"\S+")
_COLUMN_TOLERANCE = 2
_MAX_HEADER_LINES = 3
_MAX_MEAN_CELL_CHARS = 40  # two columns of prose side by side are not a table


@dataclass(frozen=True)
class _Table:
    first: int  # index of the table's first line (a top border or the header)
    last: int  # index of its last line (a row or a bottom border)
    rows: list[list[str]]  # the header, then the body rows


def tables_in_text(text: str) -> str:
    """`text` with each fixed-width or pipe table rewritten as rows; unchanged without one."""
    lines = text.split("\n")
    # Columns are read where they show: a tab moves to the next multiple of 8, and a table
    # drawn with box-drawing characters reads as its ASCII grid.
    shown = [_as_ascii(line) for line in lines]
    out: list[str] = []
    i = 0
    while i < len(lines):
        table = _table_at(shown, i)
        if table is None:
            out.append(lines[i])
            i += 1
            continue
        header_lines = i - table.first  # lines of the header already copied out
        del out[len(out) - header_lines :]
        if out and out[-1].strip():
            out.append("")
        out.append(format_table(table.rows))
        i = table.last + 1
        if i < len(lines) and lines[i].strip():
            out.append("")
    return "\n".join(out)


# Box-drawing characters as the ASCII a grid table is drawn with.
_BOX_TO_ASCII = str.maketrans(
    {
        **dict.fromkeys("─━┄┅┈┉╌╍", "-"),
        **dict.fromkeys("═", "="),
        **dict.fromkeys("│┃┆┇┊┋╎╏║", "|"),
        **dict.fromkeys("┌┐└┘├┤┬┴┼┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬╒╕╘╛╞╡╤╧╪╓╖╙╜╟╢╥╨╫╭╮╯╰", "+"),
    }
)


_BOX = re.compile("[\u2500-\u257f]")


def _as_ascii(line: str) -> str:
    if "\t" in line:
        line = line.expandtabs(8)
    return line.translate(_BOX_TO_ASCII) if _BOX.search(line) else line


def _is_rule(line: str) -> bool:
    return ("---" in line or "===" in line) and _RULE_CHARS.issuperset(line)


def _table_at(lines: list[str], i: int) -> _Table | None:
    """The table whose rule under the header is line `i`, if it is one."""
    if not _is_rule(lines[i]) or i == 0 or not lines[i - 1].strip() or _is_rule(lines[i - 1]):
        return None
    if "|" in lines[i - 1]:
        return _pipe_table(lines, i)
    return _fixed_width_table(lines, i)


def _fixed_width_table(lines: list[str], rule: int) -> _Table | None:
    runs = [m.start() for m in _RUNS.finditer(lines[rule])]
    if len(runs) >= 2:
        starts, split = runs, _WORD
    else:
        starts = [m.start() for m in _CELL_GAP.finditer(lines[rule - 1])]
        split = _CELL_GAP
    if len(starts) < 2:
        return None
    first = rule - 1
    header = _cells(lines[first], starts, split)
    while (
        first > 0
        and rule - first < _MAX_HEADER_LINES
        and not _is_rule(lines[first - 1])
        and _header_line(lines[first - 1], starts)
    ):
        first -= 1  # a header wrapped over two lines: "Plan" over "level"
        above = _cells(lines[first], starts, split)
        header = [f"{a} {h}".strip() for a, h in zip(above, header, strict=True)]
    if sum(bool(cell) for cell in header) < 2:
        return None
    if first > 0 and lines[first - 1].strip() == lines[rule].strip():
        first -= 1  # the same rule above the header too: "=====  =====" over "Plan   Users"
    rows: list[list[str]] = [header]
    j = rule + 1
    while j < len(lines) and lines[j].strip() and not _is_rule(lines[j]):
        line = lines[j]
        cells = _cells(line, starts, split)
        if len(rows) > 1 and (
            len(line) - len(line.lstrip()) >= starts[0] + _COLUMN_TOLERANCE
            or _label_goes_on(cells, lines, j, starts, split)
        ):
            # Indented past the first column, or a label's second line between two rows:
            # the row above goes on.
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        elif sum(bool(cell) for cell in cells) >= 2:
            rows.append(cells)
        else:
            break
        j += 1
    last = j if j < len(lines) and _is_rule(lines[j]) else j - 1
    if len(rows) < 2 or not _short_cells(rows):
        return None
    return _Table(first=first, last=last, rows=rows)


def _label_goes_on(
    cells: list[str], lines: list[str], j: int, starts: list[int], split: re.Pattern[str]
) -> bool:
    """Whether line `j`, holding text in the first column only, is the second line of the
    label above it: a row follows it ("Item from another library authority" over
    "(inter-library loan, UK)", then the next row). At the table's end such a line is a note."""
    if not cells[0] or any(cells[1:]) or j + 1 >= len(lines):
        return False
    after = lines[j + 1]
    return (
        bool(after.strip())
        and not _is_rule(after)
        and sum(bool(c) for c in _cells(after, starts, split)) >= 2
    )


def _cells(line: str, starts: list[int], split: re.Pattern[str]) -> list[str]:
    """The line's text in each column: each piece goes to the last column starting at or
    before it."""
    cells: list[list[str]] = [[] for _ in starts]
    for piece in split.finditer(line):
        column = max(bisect_right(starts, piece.start() + _COLUMN_TOLERANCE) - 1, 0)
        cells[column].append(piece.group())
    return [" ".join(words) for words in cells]


def _header_line(line: str, starts: list[int]) -> bool:
    """Whether `line` is the upper part of a wrapped header: two or more cells, each starting
    at a column."""
    pieces = [m.start() for m in _CELL_GAP.finditer(line)]
    return len(pieces) >= 2 and all(_near_a_start(p, starts) for p in pieces)


def _near_a_start(position: int, starts: list[int]) -> bool:
    """Whether a column of `starts` (in order) begins within the tolerance of `position`."""
    k = bisect_left(starts, position - _COLUMN_TOLERANCE)
    return k < len(starts) and starts[k] <= position + _COLUMN_TOLERANCE


def _pipe_table(lines: list[str], rule: int) -> _Table | None:
    """A table between pipes. A grid table's top border and a header wrapped under it are part
    of it, and when rules separate its rows, each row may wrap over several lines."""
    first = rule - 1
    while first > 0 and rule - first < _MAX_HEADER_LINES and "|" in lines[first - 1]:
        first -= 1
    if first > 0 and _is_rule(lines[first - 1]):
        header = _joined_block([_pipe_cells(line) for line in lines[first:rule]])
        first -= 1
    else:
        first = rule - 1
        header = _pipe_cells(lines[first])
    if len(header) < 2:
        return None
    blocks: list[list[list[str]]] = [[]]
    j, last = rule + 1, rule
    while j < len(lines) and lines[j].strip() and (_is_rule(lines[j]) or "|" in lines[j]):
        if _is_rule(lines[j]):
            blocks.append([])
        else:
            blocks[-1].append(_pipe_cells(lines[j]))
        last = j
        j += 1
    blocks = [block for block in blocks if block]
    body = [_joined_block(b) for b in blocks] if len(blocks) > 1 else blocks[0] if blocks else []
    rows = [row[: len(header)] + [""] * (len(header) - len(row)) for row in [header, *body]]
    if len(rows) < 2 or not _short_cells(rows):
        return None
    return _Table(first=first, last=last, rows=rows)


def _pipe_cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [" ".join(cell.split()) for cell in inner.split("|")]


def _joined_block(block: list[list[str]]) -> list[str]:
    """The lines of one ruled row of a grid table, joined cell by cell."""
    width = max(len(line) for line in block)
    padded = [line + [""] * (width - len(line)) for line in block]
    return [" ".join(c for c in column if c) for column in zip(*padded, strict=True)]


def _short_cells(rows: list[list[str]]) -> bool:
    lengths = [len(cell) for row in rows for cell in row if cell]
    return bool(lengths) and sum(lengths) <= _MAX_MEAN_CELL_CHARS * len(lengths)
