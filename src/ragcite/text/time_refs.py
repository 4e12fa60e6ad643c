"""Time references in a question: which version of a document it asks about.

A question may name a date ("as of 15 June 2020", "before March 2024", "in 2019"), a
version ("v1", "version 2") or a version relative to the current one ("the previous
policy", "the old handbook", "the original policy"). `parse_time_reference` finds the
first such phrase and says what it selects; a question without one returns None.

    >>> ref = parse_time_reference("How long were backups kept under the 2019 policy?")
    >>> ref.as_of, ref.phrase
    (datetime.date(2019, 12, 31), '2019')
    >>> parse_time_reference("What was the previous travel policy's hotel cap?").relative
    'previous'
    >>> parse_time_reference("How long are backups kept?") is None
    True

A year or a month means the version in force at its end ("the 2019 policy" is the one
in force at the end of 2019); "before" a date means the day before it.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

Relative = Literal["previous", "original"]

MONTHS = {
    name.lower(): number
    for number in range(1, 13)
    for name in (calendar.month_name[number], calendar.month_abbr[number])
}
MONTHS["sept"] = 9


_DOCUMENT_NOUN = (
    r"(?:policy|policies|version|versions|handbook|guidelines?|rules?|procedure|standard|"
    r"document|edition|sla|agreement|plan|schedule)\b"
)
_YEAR_CONTEXT = (
    "in",
    "during",
    "under",
    "from",
    "of",
    "since",
    "before",
    "until",
    "till",
    "by",
    "the",
    "year",
    "fy",
    "to",
    "for",
)


def _month(n: int) -> str:
    return rf"(?P<month{n}>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"


def _year(n: int) -> str:
    return rf"(?P<year{n}>(?:19|20)\d\d)"


def _day(n: int) -> str:
    return rf"(?P<day{n}>[0-3]?\d)(?:st|nd|rd|th)?"


_DATE_FORMS = (
    r"(?P<iso>(?:19|20)\d\d-[01]\d-[0-3]\d)",
    _day(1) + r"\s+" + _month(1) + r",?\s+" + _year(1),
    _month(2) + r"\s+" + _day(2) + r",?\s+" + _year(2),
    _month(3) + r",?\s+" + _year(3),
    # A bare year only after a word that makes it a time ("in 2019", "the 2019 policy"),
    # never a count ("a limit of 2000 characters" has "of": counted out by the lookahead).
    "(?:"
    + "|".join(rf"(?<=\b{w} )" for w in _YEAR_CONTEXT)
    + ")"
    + _year(4)
    + r"(?!\s+(?:characters|words|items|employees|people|users|customers|days|hours|units))",
    # ... or one followed by what names a document ("the original 2019 retention policy").
    _year(5) + r"(?=(?:\s+[\w-]+){0,2}?\s+" + _DOCUMENT_NOUN + ")",
)
_BEFORE = r"(?P<before>\b(?:before|prior\s+to|until|till)\s+)?"
DATE_PATTERN = re.compile(
    _BEFORE + r"\b(?:" + "|".join(f"(?:{form})" for form in _DATE_FORMS) + r")\b",
    re.IGNORECASE,
)
VERSION_PATTERN = re.compile(
    r"\b(?:v(?P<short>\d{1,3})|version\s+(?P<long>\d{1,3}))\b(?!\.\d)", re.IGNORECASE
)
# After a determiner ("the old handbook", never "how old is the handbook"), before what
# names a document; "first" only right before it ("the first step of the procedure" is none).
RELATIVE_PATTERN = re.compile(
    "(?:" + "|".join(rf"(?<=\b{w} )" for w in ("the", "a", "an", "our", "its", "this")) + ")"
    r"(?:(?P<word>previous|old|older|former|earlier|prior|superseded|original)\b"
    r"(?=(?:\s+[\w-]+){0,3}?\s+" + _DOCUMENT_NOUN + ")"
    r"|(?P<first>first)(?=\s+" + _DOCUMENT_NOUN + "))",
    re.IGNORECASE,
)
_ORIGINAL = {"original", "first"}


@dataclass(frozen=True)
class TimeReference:
    """What a question's time reference selects: one of a date, a version number or a
    version relative to the current one; `phrase` is the words that said so."""

    phrase: str
    as_of: date | None = None
    version: int | None = None
    relative: Relative | None = None


def parse_time_reference(question: str, *, today: date | None = None) -> TimeReference | None:
    """The first date, version or relative-version reference in `question`, or None.

    A date later than `today` (default: today) is not a time reference: questions about
    the future are answered from the current versions.
    """
    today = today or date.today()
    for match in DATE_PATTERN.finditer(question):
        as_of = _date_of(match)
        if as_of is not None and as_of.year <= today.year:
            return TimeReference(match.group(0).strip(), as_of=min(as_of, today))
    version = VERSION_PATTERN.search(question)
    if version is not None:
        number = int(version.group("short") or version.group("long"))
        if number >= 1:
            return TimeReference(version.group(0), version=number)
    relative = RELATIVE_PATTERN.search(question)
    if relative is not None:
        word = (relative.group("word") or relative.group("first")).lower()
        return TimeReference(
            relative.group(0), relative="original" if word in _ORIGINAL else "previous"
        )
    return None


def without_reference(question: str, reference: TimeReference | None) -> str:
    """`question` with the reference's words taken out (to ask the current version);
    `question` itself when there is no reference.

    >>> without_reference("How long were backups kept in 2019?", TimeReference("in 2019"))
    'How long were backups kept?'
    """
    if reference is None:
        return question
    pattern = r"\s*\b(?:in|under|as\s+of|on|from|of|during)?\s*" + re.escape(reference.phrase)
    stripped = re.sub(pattern, " ", question, count=1, flags=re.IGNORECASE)
    stripped = re.sub(r"\s+([?.!,])", r"\1", stripped)
    return " ".join(stripped.split()) or question


def _date_of(match: re.Match[str]) -> date | None:
    """The date a match selects: its day, the end of its month or year, or the day
    before it when it says "before"; None for an impossible date (31 February)."""
    groups: dict[str, str | None] = match.groupdict()
    parts = {
        name: next((v for k, v in groups.items() if k.rstrip("12345") == name and v), "")
        for name in ("iso", "before", "year", "month", "day")
    }
    try:
        if parts["iso"]:
            start = end = date.fromisoformat(parts["iso"])
        elif not parts["month"]:
            start, end = date(int(parts["year"]), 1, 1), date(int(parts["year"]), 12, 31)
        else:
            year, month = int(parts["year"]), MONTHS[parts["month"].lower().rstrip(".")]
            if parts["day"]:
                start = end = date(year, month, int(parts["day"]))
            else:
                start = date(year, month, 1)
                end = date(year, month, calendar.monthrange(year, month)[1])
    except ValueError:
        return None
    return start - timedelta(days=1) if parts["before"] else end
