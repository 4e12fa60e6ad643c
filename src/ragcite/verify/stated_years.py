"""Years a question sets that the passage does not: "What seminal paper was written by
Hartmanis and Stearns in 1975?" over "… the seminal paper … by Juris Hartmanis and Richard
Stearns (1965)". A question that sets its own year, decade or century asks about another
case than a passage giving a different one, the way an opposite word does
(`verify/reading.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragcite.text.ordinals import ORDINAL_WORDS

# A year written in digits ("1975", "the 1970s"), not part of a longer number, an amount or
# a code ("£2,000", "2024-03", "1999/2000" are read elsewhere or not at all).
_YEAR = re.compile(r"(?<![\d,.£$€/-])\b(1[0-9]{3}|20[0-9]{2})(s)?\b(?![\d,.]\d|%|/)")
# "the 11th century", "the twelfth century".
_CENTURY = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)\s+century\b|\b(" + "|".join(ORDINAL_WORDS) + r")\s+century\b",
    re.IGNORECASE,
)
# A preposition that makes the time a condition of the question, right before it.
_CONDITION = re.compile(
    r"\b(?:in|since|by|before|after|until|till|from|between|during|and|to)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


# The time ends its clause ("… in 1975?", "between 1000 and 1300?"); one inside a longer
# phrase describes something the question names ("in the 1962–63 Segunda División season").
_CLAUSE_END = re.compile(r"\s*(?:[?!.,;:]|and\b|$)")


@dataclass(frozen=True)
class StatedTime:
    """A year, a decade ("1970s") or a century as written, where it starts in its text,
    and the years it covers."""

    text: str
    start: int
    first: int
    last: int

    def covers(self, other: StatedTime) -> bool:
        """Whether the two overlap ("1972" is in "the 1970s" and in the 20th century)."""
        return self.first <= other.last and other.first <= self.last


def stated_times(text: str) -> list[StatedTime]:
    """The years, decades and centuries `text` states in digits or ordinal words."""
    found = []
    for m in _YEAR.finditer(text):
        year = int(m.group(1))
        last = year + 9 if m.group(2) and year % 10 == 0 else year
        found.append(StatedTime(m.group(0), m.start(), year, last))
    for m in _CENTURY.finditer(text):
        n = int(m.group(1)) if m.group(1) else ORDINAL_WORDS.index(m.group(2).lower()) + 1
        found.append(StatedTime(m.group(0), m.start(), (n - 1) * 100 + 1, n * 100))
    return found


def asked_times(question: str) -> list[StatedTime]:
    """The times a question sets as its condition: a year, decade or century right after a
    preposition and ending its clause ("in 1975?", "between 1000 and 1300?"), not one that
    is part of a name ("the 1999 French Open") or of a longer phrase ("in the 1962–63
    season")."""
    return [
        t
        for t in stated_times(question)
        if _CONDITION.search(question[: t.start])
        and _CLAUSE_END.match(question, t.start + len(t.text))
    ]


def year_unmatched(question: str, passage: str, quoted: str) -> tuple[str, str] | None:
    """(the question's time, a quoted one) when the question sets a year, decade or century
    that nothing in `passage` covers and the `quoted` sentences state another: they answer
    for a different time. None otherwise, and when the question sets none."""
    asked_for = asked_times(question)
    if not asked_for:  # most questions set none: the passages are not read
        return None
    said = stated_times(passage)
    other = stated_times(quoted)
    for asked in asked_for:
        if other and not any(asked.covers(s) for s in said):
            return asked.text, other[0].text
    return None
