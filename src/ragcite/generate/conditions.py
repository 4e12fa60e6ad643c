"""Whether a sentence's time condition is the asker's case, and the sentence for the other.

Policies state a rule for one side of a threshold and the next sentence for the other: "If
you cancel at least 14 days before the first session, we refund the fee minus a £20
administration charge. We do not refund cancellations made after that, …". A question that
says where the asker stands ("it starts in 3 weeks", "the course starts in 10 days", "I
brought it back 4 days late") is answered by the side that holds its time: that sentence
fits the question like a table row whose range holds its number, and the other side is the
other case (`Candidate.other_case`: ranked after every other), as is a band of a passage of
bands ("More than 14 days' notice: …", "Between 14 days and 48 hours' notice: …") whose
condition fails where another's holds. So with the kind of day the question names: "we're
coming on Saturday" is answered by "At weekends … limited to 2 hours",
not by "On weekdays in term time there is no time limit" beside it (`days_settled`); with a
distance ("I'm about 30 miles outside Ludcombe": "Beyond 20 miles we add £1.00 per mile"); and
with a day of the month ("I changed it on the 15th": "Changes made after the 10th take effect
from the following month", not "… on or before the 10th …", `month_days_settled`); and with
a month ("hand back my hut in september": "From 1 July onwards, no refund is made",
`months_settled`).

    >>> condition_holds("If you cancel at least 14 days before, we refund the fee.",
    ...                 "the course starts in 3 weeks, can I get a refund?")
    True
"""

from __future__ import annotations

import re
from dataclasses import replace

from ragcite.generate.joining import Candidate
from ragcite.text.counted_words import TIME_UNITS, in_digits
from ragcite.text.month_ranges import month_bound_holds, months_asked
from ragcite.text.table_rows import is_table_row

_UNIT = r"(minutes?|mins?|hours?|hrs?|days?|working\s+days?|weeks?|months?|years?)"
_NUMBER = r"(\d[\d,]*(?:\.\d+)?)"
# "at least 14 days", "more than 21 days", "less than 48 hours", "fewer than 7 days".
_THRESHOLD = re.compile(
    rf"\b(at\s+least|more\s+than|over|longer\s+than|less\s+than|fewer\s+than|under)\s+"
    rf"{_NUMBER}\s+{_UNIT}\b",
    re.IGNORECASE,
)
_FROM = ("at least", "more than", "over", "longer than")
# "between 14 days and 48 hours", "between 8 and 12 weeks": a band of time, each bound in its
# own unit or the last one's.
_BETWEEN = re.compile(
    rf"\bbetween\s+{_NUMBER}(?:\s+{_UNIT})?\s+and\s+{_NUMBER}\s+{_UNIT}\b", re.IGNORECASE
)
# A requirement states what the asker must do, not whose case it is: "You must give at least
# 14 days' notice" answers a question about 10 days' notice as well as one about 3 weeks.
_REQUIREMENT = re.compile(
    r"\b(?:must|should|need\s+to|needs\s+to|have\s+to|has\s+to|required|requires|"
    r"no\s+later\s+than)\b",
    re.IGNORECASE,
)
# A sentence for the other side of the one before ("… made after that", "If you cancel later
# than that", "Otherwise, …", "Further afield we charge …").
_OTHER_SIDE = re.compile(
    r"\b(?:(?:later|less|shorter|fewer|earlier|more|longer|sooner)\s+than\s+that|"
    r"after\s+that|before\s+that|otherwise|if\s+not|any\s+later|(?:further|farther)\s+"
    r"afield|(?:beyond|outside)\s+(?:that|this|these))\b",
    re.IGNORECASE,
)
# A distance condition ("within 20 miles", "Beyond 20 miles we add £1.00 per mile", "further
# than 15 miles away") and a distance the question names ("I'm about 30 miles outside …").
_MILES = r"(miles?|km|kilomet(?:re|er)s?)"
_DISTANCE_BOUND = re.compile(
    rf"\b(within|up\s+to|under|less\s+than|beyond|over|more\s+than|further\s+than|"
    rf"farther\s+than)\s+{_NUMBER}\s*{_MILES}(?!\w)",
    re.IGNORECASE,
)
_QUESTION_DISTANCE = re.compile(rf"\b{_NUMBER}\s*{_MILES}(?!\w)", re.IGNORECASE)
_FROM_DISTANCE = ("beyond", "over", "more than", "further than", "farther than")
# How far apart (a ratio) the question's time and the condition's bound may be.
_NEAR = 8.0
_QUESTION_TIME = re.compile(rf"\b{_NUMBER}\s+{_UNIT}\b", re.IGNORECASE)


def _minutes(value: str, unit: str) -> float:
    """`value` `unit`s in minutes (a working day read as a day)."""
    return float(value.replace(",", "")) * TIME_UNITS[unit.lower().split()[-1]]


def _question_times(question: str) -> list[float]:
    """The spans of time the question names, in minutes ("3 weeks", "ten days")."""
    return [_minutes(v, u) for v, u in _QUESTION_TIME.findall(in_digits(question))]


def _miles(value: str, unit: str) -> float:
    """`value` `unit`s in miles."""
    return float(value.replace(",", "")) * (1.0 if unit.lower().startswith("mile") else 0.621)


def _question_distances(question: str) -> list[float]:
    """The distances the question names, in miles ("30 miles", "12 km")."""
    return [_miles(v, u) for v, u in _QUESTION_DISTANCE.findall(in_digits(question))]


def _distance_holds(sentence: str, distances: list[float]) -> bool | None:
    """`_holds` for a distance condition ("within 20 miles") and the question's distances."""
    bounds = _DISTANCE_BOUND.findall(sentence)
    if not distances or len(bounds) != 1:
        return None
    word, value, unit = bounds[0]
    bound = _miles(value, unit)
    above = " ".join(word.lower().split()) in _FROM_DISTANCE
    held = {d > bound if above else d <= bound for d in distances}
    return held.pop() if len(held) == 1 else None


def condition_holds(sentence: str, question: str) -> bool | None:
    """Whether the time the question names meets the sentence's one time condition (None:
    no such condition, a requirement, no time in the question, or times on both sides)."""
    return _holds(sentence, _question_times(question))


def _holds(sentence: str, times: list[float]) -> bool | None:
    """`condition_holds` for the question's `times` (minutes), read once per question."""
    if not times:
        return None
    thresholds = _THRESHOLD.findall(sentence)
    bands = _BETWEEN.findall(sentence)
    if len(thresholds) + len(bands) != 1 or _REQUIREMENT.search(sentence):
        return None
    if bands:
        low_value, low_unit, high_value, high_unit = bands[0]
        low = _minutes(low_value, low_unit or high_unit)
        high = _minutes(high_value, high_unit)
        low, high = min(low, high), max(low, high)
        held = {low <= t <= high for t in _near(times, low) + _near(times, high)}
        return held.pop() if len(held) == 1 else None
    word, value, unit = thresholds[0]
    bound = _minutes(value, unit)
    above = " ".join(word.lower().split()) in _FROM
    held = {t >= bound if above else t <= bound for t in _near(times, bound)}
    return held.pop() if len(held) == 1 else None


def _near(times: list[float], bound: float) -> list[float]:
    """The `times` near enough to `bound` to be measured against it: a time far from the
    bound measures something else ("four months ago" against "at least 5 working days
    before payday")."""
    return [t for t in times if bound > 0 and t > 0 and max(t, bound) / min(t, bound) <= _NEAR]


def conditions_settled(question: str, candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` with each sentence whose time condition holds for the question fitting
    it; where the next sentence of the same passage speaks of the other side (`_OTHER_SIDE`),
    the side that fails is made the other case, as is each sentence of a passage of bands
    ("More than 14 days' notice: …", "Between 14 days and 48 hours' notice: …") whose
    condition fails where another's holds."""
    times, distances = _question_times(question), _question_distances(question)
    if not times and not distances:
        return candidates
    by_place = {(c.chunk_rank, c.position): i for i, c in enumerate(candidates)}
    settled = list(candidates)
    held: list[bool | None] = []
    for i, c in enumerate(candidates):
        holds = None
        if not is_table_row(c.text):
            holds = _holds(c.text, times)
            holds = _distance_holds(c.text, distances) if holds is None else holds
        held.append(holds)
        if holds is None:
            continue
        j = by_place.get((c.chunk_rank, c.position + 1))
        if j is not None and _OTHER_SIDE.search(candidates[j].text):
            settled[i] = _as_case(settled[i], holds)
            settled[j] = _as_case(settled[j], not holds)
        elif holds:  # alone, a condition that fails may still be the answer ("must be less
            settled[i] = _as_case(settled[i], True)  # than 8 years old" for a 9-year-old)
    return _settled(settled, held)


# Days that make a weekend and days that make a week ("on Saturday", "Monday to Friday",
# "Mon-Fri"; a short name only capitalised: "sat" and "sun" are words).
_WEEKEND = re.compile(r"(?i:\b(?:week-?ends?|saturdays?|sundays?)\b)|\b(?:Sat|Sun)\b")
_WEEKDAY = re.compile(
    r"(?i:\b(?:week-?days?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?)\b)|"
    r"\b(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri)\b"
)


def _days(text: str) -> str | None:
    """ "weekend" or "weekday" when `text` names days of one kind only, else None."""
    weekend, weekday = bool(_WEEKEND.search(text)), bool(_WEEKDAY.search(text))
    if weekend == weekday:
        return None
    return "weekend" if weekend else "weekday"


def days_settled(question: str, candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` with a sentence for the other kind of day than the question's made the
    other case ("On weekdays in term time there is no time limit" for "we're coming on
    Saturday"), when a sentence of the same passage names the question's kind ("At weekends
    … limited to 2 hours"), which then fits."""
    asked = _days(question)
    if asked is None:
        return candidates
    kinds = [None if is_table_row(c.text) else _days(c.text) for c in candidates]
    passages = {c.chunk_rank for c, kind in zip(candidates, kinds, strict=True) if kind == asked}
    return [
        _as_case(c, kind == asked) if kind is not None and c.chunk_rank in passages else c
        for c, kind in zip(candidates, kinds, strict=True)
    ]


def cases_settled(question: str, candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` with the asker's case read from the times, distances, days and months
    the question names (`conditions_settled`, `days_settled`, `month_days_settled`,
    `months_settled`)."""
    settled = days_settled(question, conditions_settled(question, candidates))
    return months_settled(question, month_days_settled(question, settled))


def _as_case(candidate: Candidate, asker_case: bool) -> Candidate:
    """`candidate` fitting the question, or as the other case; a sentence about what the
    other party does ("If we need to cancel …") stays the other case."""
    if not asker_case:
        return replace(candidate, other_case=True)
    return candidate if candidate.other_case else replace(candidate, fit=max(candidate.fit, 1))


# A day of the month the question names ("I changed it on the 15th"), and a sentence's
# cut-off day ("Changes made on or before the 10th …", "… after the 10th …").
_DAY_ASKED = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
_DAY_BOUND = re.compile(
    r"\b(on\s+or\s+before|no\s+later\s+than|by|before|on\s+or\s+after|after|from)\s+"
    r"the\s+(\d{1,2})(?:st|nd|rd|th)\b",
    re.IGNORECASE,
)


def _day_holds(sentence: str, day: int) -> bool | None:
    """Whether the day of the month `day` meets the sentence's one cut-off day (None: no
    such cut-off, or several)."""
    bounds = _DAY_BOUND.findall(sentence)
    if len(bounds) != 1:
        return None
    word, value = " ".join(bounds[0][0].lower().split()), int(bounds[0][1])
    if word == "before":
        return day < value
    if word == "after":
        return day > value
    if word in ("on or after", "from"):
        return day >= value
    return day <= value  # "on or before", "no later than", "by"


def month_days_settled(question: str, candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` with the sentence whose cut-off day of the month the question's day
    meets fitting it and the one it fails made the other case, when a passage has both
    ("Changes made on or before the 10th … take effect in that month's payroll. Changes made
    after the 10th take effect from the following month." for "I changed it on the 15th")."""
    days = {int(d) for d in _DAY_ASKED.findall(question) if 1 <= int(d) <= 31}
    if len(days) != 1:
        return candidates
    day = days.pop()
    return _settled(candidates, [_day_holds(c.text, day) for c in candidates])


def months_settled(question: str, candidates: list[Candidate]) -> list[Candidate]:
    """`candidates` with the sentence whose month condition the question's one month meets
    fitting it ("From 1 July onwards, no refund is made." for "I want to hand back my hut in
    september") and, in its passage, the one it fails made the other case ("If you give
    notice before 1 July, we will refund …"; `month_bound_holds`)."""
    months = months_asked(question)
    if len(months) != 1:
        return candidates
    month = next(iter(months))
    return _settled(candidates, [month_bound_holds(c.text, month) for c in candidates])


def _settled(candidates: list[Candidate], held: list[bool | None]) -> list[Candidate]:
    """`candidates` with the sentences whose condition holds for the asker fitting and, in a
    passage with one that holds, those whose condition fails made the other case (rows are
    read by their ranges, not here)."""
    pairs = [
        (c, None if is_table_row(c.text) else h) for c, h in zip(candidates, held, strict=True)
    ]
    holding = {c.chunk_rank for c, h in pairs if h}
    return [
        _as_case(c, h) if h or (h is False and c.chunk_rank in holding) else c for c, h in pairs
    ]
