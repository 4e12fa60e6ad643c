"""How a sentence or table row fits what the question names, beyond its words' relevance.

A table row whose label the question says or nearly says, or whose range or band holds the
question's number (units of time read, the tightest open band kept by the generator); a
sentence whose range holds it ("aged 21 to 24", "over-65s"); a labelled line whose one
number the question names ("the second instalment"). (A sentence giving the contact the
question asks for: `ragcite.generate.contact_fit`.) The extractive generator ranks such
candidates higher and lets them stand a little below its relevance floor
(`ragcite.generate.extractive`).

    >>> row_fit("$10,001 to $50,000 — Approver: Finance Director", "Who approves $25,000?")
    1
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from ragcite.generate.negated_labels import label_negated
from ragcite.text.actors import the_other_party_acts
from ragcite.text.counted_words import TIME_UNITS, in_digits
from ragcite.text.labels import label_of, undated
from ragcite.text.month_ranges import month_range_holds, months_asked, named_day_stated
from ragcite.text.ordinals import ORDINALS
from ragcite.text.sizes import sizes
from ragcite.text.table_rows import LABEL_SEPARATOR, is_table_row, row_cells
from ragcite.text.words import STOPWORDS, content_stems, words

_AMOUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")
_BELOW = re.compile(
    r"^\W*(?:up\s+to|under|less\s+than|below|at\s+most|"
    r"[\d,.]+\s*(?:[a-z]+\s+)?or\s+(?:less|fewer|under|shorter)\b)\b",
    re.IGNORECASE,
)
_ABOVE = re.compile(
    r"^\W*(?:over|above|more\s+than|from|at\s+least|"  # "14 days or more before …"
    r"[\d,.]+\s*(?:[a-z]+\s+)?or\s+(?:more|over|longer|above)\b)\b",
    re.IGNORECASE,
)


# "over $5,000" in a question asks about every amount above it, not about 5,000 itself.
_OVER = re.compile(
    r"\b(?:over|above|more\s+than|exceeding|beyond)\s+\D{0,3}?(\d[\d,]*(?:\.\d+)?)", re.IGNORECASE
)


def _amounts(text: str) -> list[float]:
    return [float(m.group().replace(",", "")) for m in _AMOUNT.finditer(text)]


_TIMED_AMOUNT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*([a-z]+)?", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _timed(text: str) -> tuple[tuple[float, float | None], ...]:
    """Each number of `text` with its unit of time in minutes, when one follows it (read
    once per question or label, not once per row it is compared with)."""
    return tuple(
        (float(m.group(1).replace(",", "")), TIME_UNITS.get((m.group(2) or "").lower()))
        for m in _TIMED_AMOUNT.finditer(text)
    )


def _asked_in(question: str, label: str) -> list[float]:
    """The question's numbers in the label's unit of time ("3 hours" as 180 against "Up to
    30 minutes", "3 weeks" as 21 against "1 to 13 days"), or as written when either has no
    unit of time; an amount of money is no time ("the £35 fee" against "28 days or more")."""
    unit = next((u for _, u in _timed(label) if u), None)  # "1 to 13 days": days
    money = _money(question) if unit else frozenset()
    return [v * u / unit if u and unit else v for v, u in _timed(question) if u or v not in money]


_MONEY = re.compile(r"[£$€]\s?(\d[\d,]*(?:\.\d+)?)")


@lru_cache(maxsize=1024)
def _money(question: str) -> frozenset[float]:
    """The amounts of money `question` names ("£35")."""
    return frozenset(float(m.group(1).replace(",", "")) for m in _MONEY.finditer(question))


# A number that is the asker's age ("I'm 22", "my daughter is 7", "aged 68", "a 15 year
# old"), and a label numbering levels ("Stages 6 and 7", "Level 3", "Year 5"): an age is
# not a level, so it does not fit one.
_AGE = re.compile(
    r"\b(?:i['’]?m|i\s+am|(?:he|she)\s+is|(?:he|she)['’]s|is|aged?)\s+(\d{1,3})\b(?!\s*(?:%|[.:,]\d|"
    r"(?:days?|weeks?|months?|hours?|minutes?|mins?|am|pm|miles?|km|kg|people|items?)\b))|"
    r"\b(\d{1,3})[\s-]*(?:years?|yrs?)[\s-]*old\b",
    re.IGNORECASE,
)
_LEVEL = re.compile(
    r"\b(?:stages?|levels?|bands?|grades?|tiers?|steps?|years?|classes|class|groups?)\s+\d",
    re.IGNORECASE,
)


def _not_ages(question: str, label: str) -> list[float]:
    """`_asked_in` without the asker's age when `label` numbers levels (`_LEVEL`)."""
    asked = _asked_in(question, label)
    if not _LEVEL.search(label):
        return asked
    ages = {float(a or b) for a, b in _AGE.findall(question)}
    return [n for n in asked if n not in ages]


def band_bound(row: str) -> float | None:
    """How wide a table row's open-ended band is, smaller being tighter: the bound of "Up
    to 4 hours" (240, in minutes), the negated bound of "Over 65" (-65); None for another
    label. Of the rows whose band holds the question's number, the tightest answers."""
    label = row.partition(LABEL_SEPARATOR)[0]
    timed = _timed(label)
    if len(timed) != 1:
        return None
    value, unit = timed[0]
    value *= unit or 1.0
    if _BELOW.match(label):
        return value
    if _ABOVE.match(label):
        return -value
    return None


def _over_fit(label: str, over: list[float], bounds: list[float]) -> int:
    """1 when every amount over N is in the label's open range ("Over $50,000" holds all of
    "over $60,000"); a bounded range ("$1,001 to $10,000") never holds all of "over $5,000"."""
    return int(bool(_ABOVE.match(label)) and len(bounds) == 1 and any(n >= bounds[0] for n in over))


# When the asker's own case happened or will: "last month", "next year", "two weeks ago".
# It names no row ("my direct debit bounced last month" is no "Fixed monthly Direct Debit").
_WHEN_IT_HAPPENED = re.compile(
    r"\b(?:(?:last|next|this|past|coming|previous)\s+|\w+\s+(?=\w+\s+ago\b))"
    r"(?:day|week|fortnight|month|quarter|year|weekend|term)s?\b",
    re.IGNORECASE,
)


def _nearly_named(label: str, question: str) -> bool:
    """Whether the question says all but one of the label's three or more content words
    ("a routine check-up for an adult" of "Routine examination (adult)"), the words that
    say when the asker's case happened left out."""
    own = content_stems(label)
    return len(own) >= 3 and len(own - _named_stems(question)) <= 1


@lru_cache(maxsize=64)
def _named_stems(question: str) -> frozenset[str]:
    """The question's content stems but those saying when the asker's case happened, read
    once per question rather than once per row."""
    return frozenset(content_stems(_WHEN_IT_HAPPENED.sub(" ", question)))


def _label_said(label: str, question: str) -> bool:
    """Whether the question says a row's (lower-cased) label as words of its own, a plural
    too ("over $50,000", "for members"); a one-letter label ("A", "B") only as that capital
    inside a sentence ("on pontoon B"), never the article "a" or a letter of another word."""
    asked = " ".join(question.split())
    if len(label) == 1:
        return re.search(rf"(?<=[\w,] ){re.escape(label.upper())}\b", asked) is not None
    said = rf"(?<!\w){re.escape(label)}(?:s|es)?(?!\w)"
    lowered = asked.lower()
    return any(not _ALREADY.search(lowered, 0, m.start()) for m in re.finditer(said, lowered))


# What the asker already is or has ("if I'm already a full member"): their own row, not the
# one asked about ("what would my wife pay?": "Partner member — … same address as a Full
# member").
_ALREADY = re.compile(r"\balready\s+(?:(?:a|an|the|on|in|have|got|my|our)\s+){0,2}$")
_ALREADY_IS = re.compile(
    r"\balready\s+(?:(?:a|an|the|on|in|have|got|my|our)\s+){0,2}([a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
)


def _for_what_the_asker_has(cells: str, question: str) -> bool:
    """Whether a row's cells name what the asker already is or has ("Partner member — Who
    it is for: A second beekeeper at the same address as a Full member" for "what would my
    wife pay if I'm already a full member?")."""
    found = _ALREADY_IS.search(question.lower())
    if found is None or not content_stems(found.group(1)):
        return False
    return re.search(rf"(?<!\w){re.escape(found.group(1))}(?!\w)", cells) is not None


def row_fit(row: str, question: str) -> int:
    """How well a table row's label fits the question: 2 when the question says the label
    ("purchases over $50,000"), 1 when a number in the question falls in the label's range
    ("$25,000" in "$10,001 to $50,000", "3 hours" in "Up to 4 hours", units of time read),
    is the label's one number ("rated a 4" in "4 – Exceeds"), or every amount over the
    question's ("over $60,000" in "Over $50,000"), or the question names all but one of the
    label's three or more words (`_nearly_named`), else 0.

    >>> row_fit("$10,001 to $50,000 — Approver: Finance Director", "Who approves $25,000?")
    1
    """
    label, _, cells = (" ".join(part.lower().split()) for part in row.partition(LABEL_SEPARATOR))
    if label and _label_said(undated(label, question), question):
        return 2
    stated = sizes(label)
    if stated:  # "9m x 18m" is a size, not a range from 9 to 18
        return 2 if stated & sizes(question.lower()) else 0
    if _for_what_the_asker_has(cells, question):
        return 1
    asked, bounds = _not_ages(question, label), _amounts(label)
    if not asked or not bounds:
        return int(_nearly_named(label, question))
    over = [float(m.group(1).replace(",", "")) for m in _OVER.finditer(question)]
    if over:
        return _over_fit(label, over, bounds)
    if _BELOW.match(label):
        return int(any(n <= bounds[0] for n in asked))
    if _ABOVE.match(label):
        return int(any(n > bounds[0] for n in asked))
    if len(bounds) == 2:
        return int(any(bounds[0] <= n <= bounds[1] for n in asked))
    return int(len(bounds) == 1 and bounds[0] in asked)  # "rated a 4": the row "4 – Exceeds"


# A number and the word after it, its unit: "50 sq ft", "a 2 hour lesson", "6.5 metres".
_MEASURE = re.compile(r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)[\s-]*([a-z]+)\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _measures(text: str) -> frozenset[tuple[float, str]]:
    """The numbers of `text` with their units, plural trimmed ("2 hours" as (2, "hour")),
    read once per question or row."""
    return frozenset(
        (float(m.group(1).replace(",", "")), m.group(2).lower().removesuffix("s"))
        for m in _MEASURE.finditer(text)
        if m.group(2).lower() not in STOPWORDS
    )


def cell_fit(row: str, question: str) -> int:
    """1 when a cell of the table row holds a number with its unit that the question names
    ("a 50 sq ft unit" for "Medium — Approx. floor area: 50 sq ft; Weekly rate: £21.00", "a
    2 hour lesson" for "Double lesson — Duration: 2 hours; …"), else 0.

    >>> cell_fit("Medium — Floor area: 50 sq ft; Weekly rate: £21.00", "How much is 50 sq ft?")
    1
    """
    asked = _measures(question)
    if not asked:
        return 0
    values = " ; ".join(cell.partition(": ")[2] for cell in row_cells(row)[1])
    return int(bool(asked & _measures(values)))


# A range a sentence states: "aged 21 to 24", "21–24", "between 5 and 10", "grade 7 and
# above", "between 90% and 95%", "65 or over", "over-65s", "65+", "8 years+", "under-18s"
# (below 18), "aged 16 or 17"; not the clock times of "10:00–11:30".
_NUM = r"(\d[\d,]*(?:\.\d+)?)"
# An age's unit inside its range: "8 years+", "65 years or over".
_YEARS = r"(?:\s*(?:years?|yrs?))?"
_SENTENCE_RANGES = (
    (re.compile(rf"(?<![\d:.]){_NUM}%?\s*(?:to|-|–|—)\s*{_NUM}(?!:\d)"), "between"),
    (re.compile(rf"\bage[ds]?\s+{_NUM}\s+or\s+{_NUM}\b", re.IGNORECASE), "between"),
    (
        re.compile(  # "between 24 hours and 2 hours before"
            rf"\bbetween\s+\D{{0,3}}{_NUM}%?(?:\s+([a-z]+))?\s+and\s+\D{{0,3}}{_NUM}",
            re.IGNORECASE,
        ),
        "between",
    ),
    (
        re.compile(rf"{_NUM}{_YEARS}\s+(?:and|or)\s+(?:above|over|more|older|higher)\b", re.I),
        "from",
    ),
    (
        re.compile(rf"{_NUM}{_YEARS}\s+(?:and|or)\s+(?:below|under|less|younger|lower)\b", re.I),
        "upto",
    ),
    (re.compile(r"\b(?:over|above)[-\s](\d[\d,]*)s?\b", re.IGNORECASE), "from"),  # "over-65s"
    (re.compile(rf"(?<![£$€\d.,])(\d[\d,]*){_YEARS}\+(?!\d)", re.I), "from"),  # not "£5 + VAT"
    (re.compile(r"\b(?:under|below)[-\s](\d[\d,]*)s?\b", re.IGNORECASE), "below"),
)
# A row's label may state an open range of time in words: "Late by up to 2 hours", "Late by
# more than 2 hours", "Less than 48 hours' notice" (in sentences and cells these are read as
# conditions, `ragcite.generate.conditions`, or are limits: "up to £50 a night"). They hold
# a span of time the question names within this factor of the bound, as a condition does.
_NEAR_BOUND = 8.0
_LABEL_RANGES = (
    (re.compile(rf"\bup\s+to\s+{_NUM}", re.IGNORECASE), "upto"),
    (re.compile(rf"\b(?:more|longer)\s+than\s+{_NUM}", re.IGNORECASE), "from"),
    (re.compile(rf"\b(?:less|fewer|shorter)\s+than\s+{_NUM}", re.IGNORECASE), "below"),
)


_UNIT_AFTER = re.compile(r"\s*(minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b", re.I)


def range_fit(sentence: str, question: str) -> int:
    """1 when a number the question names falls in a range the sentence states ("I'm 23" in
    "Drivers aged 21 to 24 pay …", "grade 8" in "grade 7 and above"; "two weeks before" in
    "between 21 and 8 days before", read in the range's unit of time), else 0.

    >>> range_fit("Drivers aged 21 to 24 pay a surcharge.", "I'm 23 - do I pay extra?")
    1
    """
    return int(range_width(sentence, question) is not None)


# An open range ("16 or over", "aged 65+") is wider than any closed one; of two open ranges
# holding the asker's 67, the one whose bound is nearer ("65+") is the narrower.
_OPEN_WIDTH = 1e9


def range_width(sentence: str, question: str) -> float | None:
    """How wide the narrowest range that `sentence` states and that holds a number the
    question names is (for an open one, "16 or over", `_OPEN_WIDTH` plus the distance from
    its bound to the number), None when none holds one."""
    asked = _amounts(in_digits(question))
    if not asked:
        return None
    times = _timed(in_digits(question))
    # A range without a unit of time holds no span of time ("under-16s": no "3 weeks"), but
    # an age ("a 10 year old").
    plain = [v for v, m in times if not m] + [float(a or b) for a, b in _AGE.findall(question)]
    widths = []
    ranges = [(pattern, kind, sentence, False) for pattern, kind in _SENTENCE_RANGES]
    if is_table_row(sentence):
        label = sentence.partition(LABEL_SEPARATOR)[0]
        ranges += [(pattern, kind, label, True) for pattern, kind in _LABEL_RANGES]
    for pattern, kind, text, timed_only in ranges:
        for m in pattern.finditer(text):
            low, high = (float(g.replace(",", "")) for g in (m.group(1), m.group(m.lastindex or 1)))
            unit = _UNIT_AFTER.match(text, m.end())  # "… 28 days": the question's times
            per = TIME_UNITS[unit.group(1).lower()] if unit else 0.0
            if timed_only and not per:
                continue
            held = [v * m / per for v, m in times if m] if per else plain
            if timed_only:  # "3 days a week" is not held by "less than 2 years" of service
                held = [n for n in held if n > 0 and max(n, low) / min(n, low) <= _NEAR_BOUND]
            if per and m.lastindex == 3 and m.group(2):  # "between 14 days and 48 hours"
                low *= TIME_UNITS.get(m.group(2).lower(), per) / per
            if kind == "from":
                high = float("inf")
            elif kind == "upto":
                low, high = float("-inf"), low
            elif kind == "below":  # "under 16": not 16 itself
                low, high = float("-inf"), math.nextafter(low, float("-inf"))
            else:  # counted down as often as up
                low, high = min(low, high), max(low, high)
            inside = [n for n in held if low <= n <= high]
            if low < high and inside:
                widths.append(_width(low, high, inside))
    return min(widths, default=None)


def _width(low: float, high: float, inside: list[float]) -> float:
    """A range's width, an open one's by how near its bound is to the numbers inside it."""
    if math.isinf(low) or math.isinf(high):
        bound = high if math.isinf(low) else low
        return _OPEN_WIDTH + min(abs(n - bound) for n in inside)
    return high - low


def label_fit(sentence: str, question: str) -> int:
    """2, as for a table row whose label the question says, when the label opening a line
    holds one number and the question names it, in digits or as an ordinal ("the second lot
    of rent" for "Instalment 2: 35% of the total, due 10 January 2025"; "sev 2" for
    "Severity 2: …"), else 0.

    >>> label_fit("Instalment 2: 35% of the total, due 10 January 2025", "When is the second one?")
    2
    """
    label = label_of(sentence)
    numbers = _amounts(label)
    if len(numbers) != 1:
        return 0
    asked = set(_not_ages(question, label)) | {
        ORDINALS[w] for w in words(question) if w in ORDINALS
    }
    return 2 if numbers[0] in asked else 0


def candidate_fit(text: str, question: str, *, is_row: bool) -> tuple[int, bool]:
    """How a candidate fits the question, and whether it is about the other case than the
    asker's: a table row whose label the question negates (`label_negated`: its fit then
    counts for nothing), a sentence where the organisation does what the asker would
    (`the_other_party_acts`: "If we cancel …" for "I need to cancel …"). A row fits by its
    label, a range it states or a cell (`row_fit`, `range_fit`, `cell_fit`); a sentence by a
    range or the numbered label opening it (`label_fit`); either by a month range holding the
    month the question names ("in December": "1 November to 31 March — …") or by the date of
    a day it names ("on Boxing Day": "26 December")."""
    named_day = named_day_stated(text, question)  # "on Boxing Day": "26 December"
    season = int(month_range_holds(text, months_asked(question)) or named_day)  # "in December"
    if not is_row:
        fit = max(range_fit(text, question), label_fit(text, question), season)
        return fit, the_other_party_acts(text, question)
    if label_negated(text, question):
        return 0, True
    counted = in_digits(question)  # a label's number, read with its unit: not `range_fit`
    fits = (row_fit(text, counted), range_fit(text, question), cell_fit(text, counted), season)
    return max(fits), False
