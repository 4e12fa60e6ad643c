"""Of a passage's table rows whose band holds the question's number, the tightest answers.

"3 hours" is in "Up to 4 hours" and in "Up to 24 hours"; a 16-year-old is in "Aged 16 or
17" and in "Anyone aged 16 or over": the row for the asker's case is the one whose band is
tightest around it, and the others lose their fit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace

from ragcite.generate.fits import band_bound, range_width
from ragcite.generate.joining import Candidate
from ragcite.text.table_rows import is_table_row, row_cells


def tightest_bands(query: str, candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` where, of the fitting rows of a table, only the tightest keeps its fit:
    first, in each passage, by the bound of an open band in the row's label ("Up to 4 hours",
    `band_bound`); then, in each table (its rows' headers, the rows of one table may stand in
    two passages), by the width of the range in the row that holds the question's number
    ("Aged 16 or 17" before "Anyone aged 16 or over", `range_width`)."""
    tightest = _tightest(candidates, band_bound, lambda c: c.chunk_rank)
    return _tightest(tightest, lambda row: range_width(row, query), _headers)


def _headers(row: Candidate) -> Hashable:
    """The headers of a table row's cells ("Who it is for", "Price"): its table."""
    return tuple(cell.partition(":")[0] for cell in row_cells(row.text)[1])


def _tightest(
    candidates: list[Candidate],
    measure: Callable[[str], float | None],
    group: Callable[[Candidate], Hashable],
) -> list[Candidate]:
    """`candidates` with the fit taken from the fitting rows that `measure` reads as wider
    than the narrowest of their `group` (rows it reads as None keep theirs)."""
    measured = {
        id(c): value
        for c in candidates
        if c.fit == 1 and is_table_row(c.text) and (value := measure(c.text)) is not None
    }
    narrowest: dict[Hashable, float] = {}
    for c in candidates:
        if id(c) in measured:
            narrowest[group(c)] = min(measured[id(c)], narrowest.get(group(c), float("inf")))
    return [
        replace(c, fit=0) if id(c) in measured and measured[id(c)] > narrowest[group(c)] else c
        for c in candidates
    ]
