"""Does a how-many question meet a count? "How many guests can I invite to my private view?"
is not answered by "… with a private view from 6pm to 8.30pm" or "A contribution of £350 is
payable …": a time of day, an amount of money, a share, a date or a span of time counts
nothing the question asks. A number of anything else ("up to 24 guests", "Berths: 2", "two
visitors per bed"), or "unlimited", "no limit", "once", "twice", answers.

    >>> gives_no_count("how many guests can I invite?", ["The view runs from 6pm to 8.30pm."])
    True
    >>> gives_no_count("how many guests can I invite?", ["You may invite up to 40 guests."])
    False
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcite.generate.focus import question_proper
from ragcite.text.ordinals import NUMBER_WORDS
from ragcite.text.time_refs import MONTHS

_TIME_UNITS = r"(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|yrs?)"
# "how many" and the words after it, where the counted noun stands ("how many paid
# volunteering days").
_HOW_MANY = re.compile(r"\bhow\s+many((?:\s+[a-z]+){1,3})", re.IGNORECASE)
_NUMBER_WORD = "|".join(
    [*NUMBER_WORDS, *"fifteen twenty thirty forty fifty hundred dozen single both".split()]
)
# A number and the word after it; what is not a count: money before it, a share, a clock
# time or a date after it.
_NUMBER = re.compile(
    rf"(?<![\w.,£$€¥])(\d[\d,]*(?:\.\d+)?|{_NUMBER_WORD})\b(?![.:]\d|\s?(?:%|per\s?cent|am\b|"
    r"pm\b|st\b|nd\b|rd\b|th\b))[\s-]*([a-z]*)",
    re.IGNORECASE,
)
_MONEY_BEFORE = re.compile(r"[£$€¥]\s?$|\b(?:GBP|EUR|USD)\s?$", re.IGNORECASE)
_NO_LIMIT = re.compile(
    r"\b(?:unlimited|no\s+(?:limit|maximum|cap)|as\s+many\s+as|any\s+number|once|twice)\b",
    re.IGNORECASE,
)
_TIMED = re.compile(rf"^{_TIME_UNITS}$", re.IGNORECASE)


def gives_no_count(question: str, quoted: Sequence[str]) -> bool:
    """Whether a how-many question ("how many guests …?") is met by sentences that count
    nothing it could ask: no number but money, shares, clock times, dates and (unless it asks
    how many days, weeks …) spans of time; "unlimited", "once" or "twice" answer."""
    asked = _HOW_MANY.search(question_proper(question))
    if asked is None:
        return False
    timed = any(_TIMED.match(word) for word in asked.group(1).split())
    return not any(_counts(sentence, timed) for sentence in quoted)


def _counts(sentence: str, timed: bool) -> bool:
    """Whether `sentence` holds a count (a span of time only when `timed`)."""
    if _NO_LIMIT.search(sentence):
        return True
    for m in _NUMBER.finditer(sentence):
        if _MONEY_BEFORE.search(sentence, 0, m.start()) or m.group(2).lower() in MONTHS:
            continue
        if timed or not _TIMED.match(m.group(2)):
            return True
    return False
