"""Numbers as a claim commits to them: digits, number words, durations, times of day.

Digits keep their separators, scales and percent signs ("1,200", "$5k", "12%"); number
words include compounds ("twenty-five", "two hundred"); a number followed by a unit of
time is also a duration, so "18 months" is "1.5 years" and "five weeks" is "35 days";
"5 pm" and "17:00" are one time of day; ISO dates read as written-out ones.

>>> number_values("about 1,200 people, twenty-five days, 5%")
[1200.0, 25.0, 5.0]
>>> [(q.surface, q.duration) for q in quantities("kept 18 months")]
[('18', ('calendar', 18.0))]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ragcite.text.ordinals import ORDINALS
from ragcite.text.times_of_day import CLOCK_TIME, clock_minutes

_UNITS = "one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
NUMBER_WORDS: dict[str, float] = {
    word: float(i) for i, word in enumerate(["zero", *_UNITS, *_TEENS.split(), "twenty"])
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
_TENS.update({"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90})
NUMBER_WORDS.update({word: float(value) for word, value in _TENS.items()})
NUMBER_WORDS.update(
    {
        "hundred": 100,
        "dozen": 12,
        **ORDINALS,
        "half": 0.5,
        "twice": 2,
        "double": 2,
        "triple": 3,
    }
)
_SCALES = {
    "hundred": 1e2,
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "m": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "b": 1e9,
    "bn": 1e9,
    "trillion": 1e12,
}
# Words that are rarely quantities in a claim ("one of", "first", "second") unless scaled.
_WEAK_NUMBER_WORDS = frozenset(
    ["zero", "one", "first", "second", "half", "double", "twice", "triple", "dozen"]
)

# Each pattern opens with a lookahead on its first character: the scan then skips most
# positions cheaply (two to three times faster on long evidence).
_DIGITS = re.compile(
    r"(?=[\d$])(?:(?<![\w.])|(?<=\b[vV]))\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:st|nd|rd|th)?"
    # A percent sign or scale on the same line: "£205\nB — …" is £205 and a table row "B".
    r"[^\S\n]*(%|percent\b|per cent\b)?"
    r"[^\S\n]*(thousand|million|billion|trillion|bn|mn|[kKmMbB])?\b",
)
_WORDS = re.compile(
    r"\b(?=["
    + "".join(sorted({w[0] for w in NUMBER_WORDS}))
    + r"])(?:("
    + "|".join(_TENS)
    + r")[-\s]("
    + "|".join(_UNITS)
    + r")|("
    + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
    + r"))\b(?:\s+(hundred|thousand|million|billion|trillion)\b)?",
    re.IGNORECASE,
)
# Units of time, in two families that convert exactly: months and seconds.
_CALENDAR = {"month": 1, "quarter": 3, "year": 12, "decade": 120}
_CLOCK = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800}
_CLOCK["fortnight"] = 2 * _CLOCK["week"]
# After the number: an optional repeat in digits ("three (3) years"), then the unit,
# written alone or hyphenated ("a 35-day window"); "business"/"working" days stay days.
_UNIT = re.compile(
    r"\s*(?:\(\s*\d+\s*\)\s*)?[-\s]?(?:(?:calendar|business|working)\s+)?"
    r"(" + "|".join([*_CALENDAR, *_CLOCK]) + r")s?\b",
    re.IGNORECASE,
)
# A unit that stands for one of itself: "every year", "per week", "annually".
_ONE_UNIT = re.compile(
    r"\b(?=[aepqmwdhy])(?:(?:a|an|every|per|each)\s+(" + "|".join([*_CALENDAR, *_CLOCK]) + r")\b"
    r"|(annually|yearly|quarterly|monthly|weekly|daily|hourly)\b)",
    re.IGNORECASE,
)
_ADVERB_UNITS = {"annually": "year", "yearly": "year", "quarterly": "quarter"}
_ADVERB_UNITS.update({"monthly": "month", "weekly": "week", "daily": "day", "hourly": "hour"})
_ISO_DATE = re.compile(r"\b(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b")
_MONTHS = (
    "January February March April May June July August September October November December".split()
)


@dataclass(frozen=True)
class Quantity:
    """One number in a text: its surface, its value, and what it measures when known."""

    surface: str
    value: float
    start: int
    weak: bool = False  # a number word that is rarely a quantity ("one of", "first")
    duration: tuple[str, float] | None = None  # (unit family, value in that family's base)
    time_of_day: bool = False  # value is minutes after midnight

    @property
    def is_year(self) -> bool:
        """Four plain digits from 1000 to 2100: "1998" is a year, "$1,500" and "1500%" are not."""
        return (
            not self.time_of_day
            and self.surface.isdigit()
            and len(self.surface) == 4
            and 1000 <= self.value <= 2100
        )


def spell_out_iso_dates(text: str) -> str:
    """ISO dates written as prose writes them: "2024-03-01" becomes "1 March 2024"."""
    return _ISO_DATE.sub(
        lambda m: f"{int(m.group(3))} {_MONTHS[int(m.group(2)) - 1]} {m.group(1)}", text
    )


def quantities(text: str) -> list[Quantity]:
    """Every number in `text` in order: times of day, digits and number words, with the
    duration each one measures when a unit of time follows it."""
    return list(_quantities(text))


@lru_cache(maxsize=4096)
def _quantities(text: str) -> tuple[Quantity, ...]:
    """`quantities`, read once per text (a passage's numbers for each claim citing it)."""
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for match in CLOCK_TIME.finditer(text):
        minutes = clock_minutes(match)
        if minutes is None:
            continue
        found.append(
            Quantity(match.group(0).strip(), float(minutes), match.start(), time_of_day=True)
        )
        taken.append(match.span())
    for match in _DIGITS.finditer(text):
        if not _inside(match.start(), taken):
            found.append(_with_unit(text, match, digit_values(match.group(0))[0], weak=False))
    for match in _WORDS.finditer(text):
        tens, unit, word, scale = match.groups()
        if tens:
            value = NUMBER_WORDS[tens.lower()] + NUMBER_WORDS[unit.lower()]
        else:
            value = NUMBER_WORDS[word.lower()]
        weak = bool(word) and word.lower() in _WEAK_NUMBER_WORDS and not scale
        if scale:
            value *= _SCALES[scale.lower()]
        found.append(_with_unit(text, match, value, weak=weak))
    for match in _ONE_UNIT.finditer(text):
        unit, adverb = match.groups()
        name = (unit or _ADVERB_UNITS[adverb.lower()]).lower()
        found.append(
            Quantity(match.group(0), 1.0, match.start(), weak=True, duration=_duration(name, 1.0))
        )
    return tuple(sorted(found, key=lambda q: q.start))


def _inside(position: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= position < b for a, b in spans)


def _with_unit(text: str, match: re.Match[str], value: float, *, weak: bool) -> Quantity:
    surface = match.group(0).strip()
    unit = _UNIT.match(text, match.end())
    if unit is None or "%" in surface or "percent" in surface.lower():
        return Quantity(surface, value, match.start(), weak=weak)
    duration = _duration(unit.group(1).lower(), value)
    return Quantity(surface, value, match.start(), weak=weak, duration=duration)


def _duration(unit: str, value: float) -> tuple[str, float]:
    """("calendar", months) or ("clock", seconds): the two families that convert exactly."""
    if unit in _CALENDAR:
        return "calendar", value * _CALENDAR[unit]
    return "clock", value * _CLOCK[unit]


def digit_values(text: str) -> list[float]:
    """Values written in digits only ("1,200", "$5k", "12%"): the fast path for one token."""
    values = []
    for match in _DIGITS.finditer(text):
        integer, fraction, _percent, scale = match.groups()
        value = float(integer.replace(",", "") + ("." + fraction if fraction else ""))
        values.append(value * _SCALES[scale.lower()] if scale else value)
    return values


def number_values(text: str, *, include_words: bool = True) -> list[float]:
    """Numeric values written in `text`: digits (with separators, scales, %) and number words.

    "1,200" and "1200" and "1.2 thousand" are all 1200; "three" is 3; "$5k" is 5000.
    """
    return [
        q.value
        for q in quantities(text)
        if include_words or q.surface[:1].isdigit() or q.surface[:1] == "$"
    ]


def claim_numbers(text: str) -> list[tuple[str, float]]:
    """Numbers a claim commits to, as (surface text, value): digits and number words,
    minus words that are rarely quantities ("one of", "first", "second")."""
    return [(q.surface, q.value) for q in quantities(text) if not q.weak]


def canonical_number(value: float) -> str:
    """ "1200" for 1200.0, "2.5" for 2.5: one spelling per value."""
    return str(int(value)) if value == int(value) else f"{value:g}"
