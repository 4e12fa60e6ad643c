"""Price lists and contents laid out with dot leaders become table rows.

Plain-text and PDF price lists lead the eye from an item to its price with dots:

    Extras
        Replacement or additional key fob ................. GBP 25
        Pitch swap at customer's request .................. GBP 15

Two or more such lines in a row under a heading line are rewritten as rows with the heading as
their column (`ragcite.text.table_rows`), so that retrieval, the generator and the gate read
each line as a row whose label is the item:

    >>> print(leader_rows("Extras\\n  Key fob ........ GBP 25\\n  Pitch swap ..... GBP 15"))
    Extras
    <BLANKLINE>
    Key fob — Extras: GBP 25
    Pitch swap — Extras: GBP 15

Lines without a heading line above them are kept as they are (the sentence splitter keeps
each whole).
"""

from __future__ import annotations

import re

from ragcite.text.table_rows import format_table

# An item, four dots or more (spaces between them allowed), its value.
_LEADER_LINE = re.compile(r"[ \t]*(?P<item>\S.*?\S)[ \t]*(?:\.[ \t]?){4,}[ \t]*(?P<value>\S.*?)\s*")
_MAX_HEADING = 80


def leader_rows(text: str) -> str:
    """`text` with each run of two or more dot-leader lines under a heading line rewritten as
    rows; unchanged without one."""
    if "...." not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        end = i
        while end < len(lines) and _LEADER_LINE.fullmatch(lines[end]):
            end += 1
        heading = _heading(out)
        if end - i < 2 or heading is None:
            out.extend(lines[i : max(end, i + 1)])
            i = max(end, i + 1)
            continue
        matches = [_LEADER_LINE.fullmatch(line) for line in lines[i:end]]
        rows = [[m["item"], m["value"]] for m in matches if m]
        out += ["", format_table([["", heading], *rows])]
        if end < len(lines) and lines[end].strip():
            out.append("")  # the rows stand apart from the line after them
        i = end
    return "\n".join(out)


def _heading(before: list[str]) -> str | None:
    """The line right above a run of leader lines, when it reads as its heading: short, no
    sentence (no final full stop) and no leader line itself."""
    if not before or not before[-1].strip():
        return None
    line = before[-1].strip()
    if len(line) > _MAX_HEADING or line.endswith((".", ";", ",")) or "...." in line:
        return None
    return line
