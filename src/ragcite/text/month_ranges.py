"""Months a question names and the month ranges a passage states ("in December" and "1
November to 31 March"): a table of seasons answers by the range that holds the month.

    >>> winter = "1 November to 31 March — Access: 8am to 6pm"
    >>> month_range_holds(winter, months_asked("Can I get in during December?"))
    True
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragcite.text.time_refs import MONTHS

_MONTH = "(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")(?![a-z])\.?"
_DAY = r"(?:\d{1,2}(?:st|nd|rd|th)?\s+)"
# "1 November to 31 March", "November - March", "Nov–Mar", "April until the end of October"
_RANGE = re.compile(
    rf"\b{_DAY}?({_MONTH})(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?\s*"
    rf"(?:to|until|till|through|[-–—])\s*(?:the\s+end\s+of\s+)?{_DAY}?({_MONTH})",
    re.IGNORECASE,
)
# A month the asker names: full names only ("may" and "march" only capitalised, since
# "may I" and "march in" are words), and Christmas as December.
_ASKED = re.compile(
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|january|february|april|june|july|august|september|october|november|december|"
    r"christmas|Christmas|xmas|Xmas)\b"
)
# A season the asker names, as its months (the meteorological seasons): "in the winter
# months" is answered by "from 1 October to 31 March". "Spring" only after "in" ("a spring"
# is a thing).
_SEASONS = {"winter": (12, 1, 2), "spring": (3, 4, 5), "summer": (6, 7, 8), "autumn": (9, 10, 11)}
_SEASON = re.compile(r"\b(winter|summer|autumn)s?\b|\bin\s+(?:the\s+)?(spring)\b", re.IGNORECASE)


def _number(name: str) -> int | None:
    if name.lower() in ("christmas", "xmas"):
        return 12
    return MONTHS.get(name.lower().rstrip("."))


@lru_cache(maxsize=1024)  # asked of one question for every candidate sentence
def months_asked(question: str) -> frozenset[int]:
    """The months (1-12) `question` names, or the months of the season it names.

    >>> sorted(months_asked("what time does it shut in the winter months?"))
    [1, 2, 12]
    """
    named = {n for m in _ASKED.finditer(question) if (n := _number(m.group(0)))}
    for m in _SEASON.finditer(question):
        named.update(_SEASONS[(m.group(1) or m.group(2)).lower()])
    return frozenset(named)


def month_range_holds(text: str, months: frozenset[int]) -> bool:
    """Whether a month range `text` states holds one of `months` (ranges may run over the new
    year: "November to March" holds January)."""
    if not months:
        return False
    for found in _RANGE.finditer(text):
        start, end = _number(found.group(1)), _number(found.group(2))
        if start is None or end is None or start == end:
            continue
        if any(_between(m, start, end) for m in months):
            return True
    return False


# A month that bounds a condition: "before 1 July", "From 1 July onwards", "on or after 1
# August", "by the end of March".
_BOUND = re.compile(
    rf"\b(on\s+or\s+before|on\s+or\s+after|before|after|from|by|until|till)\s+"
    rf"(?:the\s+(?:end\s+of\s+)?)?{_DAY}?(?:of\s+)?({_MONTH})",
    re.IGNORECASE,
)
_FROM = ("on or after", "after", "from")


def month_bound_holds(text: str, month: int) -> bool | None:
    """Whether the month (1-12) the asker names meets the month condition `text` states:
    later than "From 1 July onwards", earlier than "before 1 August"; a sentence stating
    both sides of one month ("before 1 August, or … on or after 1 August") holds either
    way. None without one condition, or in the bound's own month.

    >>> month_bound_holds("From 1 July onwards, no refund is made.", 9)
    True
    """
    bounds = [(" ".join(w.lower().split()), _number(m)) for w, m in _BOUND.findall(text)]
    sides = {word in _FROM for word, _ in bounds}
    if len(bounds) == 2 and len(sides) == 2 and bounds[0][1] == bounds[1][1] != month:
        return True
    if len(bounds) != 1:
        return None
    word, bound = bounds[0]
    if bound is None or bound == month:
        return None
    return month > bound if word in _FROM else month < bound


def _between(month: int, start: int, end: int) -> bool:
    """Whether `month` falls from `start` to `end`, running over the new year if need be."""
    return start <= month <= end if start < end else month >= start or month <= end


# Days people call by name, as the day and month a policy writes ("Boxing Day": "26
# December").
_NAMED_DAYS = {
    "christmas eve": (24, 12),
    "christmas day": (25, 12),
    "boxing day": (26, 12),
    "new year's eve": (31, 12),
    "new years eve": (31, 12),
    "new year's day": (1, 1),
    "new years day": (1, 1),
}
_NAMED = re.compile(
    r"\b(?:" + "|".join(re.escape(n) for n in _NAMED_DAYS).replace("'", "['’]?") + r")\b",
    re.IGNORECASE,
)
_DAY_OF_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH})|\b({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b",
    re.IGNORECASE,
)


def named_day_stated(text: str, question: str) -> bool:
    """Whether `text` states, as a date, a day the question calls by name ("Shifts worked on
    25 December and 26 December …" for "I worked on boxing day").

    >>> named_day_stated("Shifts on 26 December are paid double.", "worked boxing day?")
    True
    """
    asked = _days_named(question)
    if not asked:
        return False
    for m in _DAY_OF_MONTH.finditer(text):
        day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        if (int(day), _number(month)) in asked:
            return True
    return False


@lru_cache(maxsize=1024)  # asked of one question for every candidate sentence
def _days_named(question: str) -> frozenset[tuple[int, int]]:
    """The (day, month) of each day the question calls by name."""
    names = (
        " ".join(m.group(0).lower().replace("’", "'").split()) for m in _NAMED.finditer(question)
    )
    return frozenset(_NAMED_DAYS[name] for name in names if name in _NAMED_DAYS)
