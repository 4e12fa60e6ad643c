"""Numbers a question says in words, read as the digits the passages write, and units of
time in minutes to compare its spans of time with theirs.

"your one year fixed bond" is the row "1 Year Fixed Rate Bond"; "about an hour and a half
late" is 1.5 hours, 90 minutes, against "Late by up to 2 hours".

    >>> in_digits("we got in an hour and a half late on a two-week stay")
    'we got in 1.5 hour late on a 2-week stay'
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragcite.text.ordinals import NUMBER_WORDS

# Units of time, in minutes: "3 hours" asked is no "Up to 30 minutes".
TIME_UNITS = {
    **dict.fromkeys(("minute", "minutes", "min", "mins"), 1.0),
    **dict.fromkeys(("hour", "hours", "hr", "hrs"), 60.0),
    **dict.fromkeys(("day", "days"), 1440.0),
    **dict.fromkeys(("week", "weeks"), 10080.0),
    **dict.fromkeys(("month", "months"), 43800.0),
    **dict.fromkeys(("year", "years"), 525600.0),
}
# A number word before what it counts ("your one year fixed bond", "a two-week stay"): read
# as its digits, as the rows' labels write it ("1 Year Fixed Rate Bond").
_COUNTED = re.compile(
    rf"(?<![-–])\b({'|'.join(NUMBER_WORDS)})(?=[\s-]+(?:years?|months?|weeks?|days?|nights?|hours?|"
    r"minutes?|yards?|beds?|bedrooms?|tonnes?|people|persons?|adults?|child|children|"
    r"sessions?|lessons?|visits?|items?)\b)",
    re.IGNORECASE,
)
# A span of time said with "a half" ("an hour and a half", "a day and a half", "half an hour").
_AND_A_HALF = re.compile(
    r"\b(?:an?|(\d+))\s+(hours?|days?|weeks?|months?|years?)\s+and\s+a\s+half\b", re.IGNORECASE
)
_HALF_A = re.compile(r"\bhalf\s+an?\s+(hour|day|week|month|year)\b", re.IGNORECASE)
# A day named by how far away it is, and a fortnight: spans of time ("it's the day after
# tomorrow" is 2 days away, against "Between 72 and 24 hours before").
_DAYS_AWAY = re.compile(r"\b(?:(the\s+day\s+after\s+tomorrow)|(tomorrow)|(a\s+fortnight))\b", re.I)


@lru_cache(maxsize=1024)
def in_digits(question: str) -> str:
    """`question` with each number word before what it counts in digits (`_COUNTED`), a
    span of time said with "a half" as a number ("an hour and a half": "1.5 hours"), and
    "tomorrow", "the day after tomorrow" and "a fortnight" as their days (`_DAYS_AWAY`)."""
    question = _COUNTED.sub(lambda m: str(NUMBER_WORDS.index(m.group(1).lower()) + 1), question)
    question = _AND_A_HALF.sub(lambda m: f"{int(m.group(1) or 1) + 0.5:g} {m.group(2)}", question)
    question = _HALF_A.sub(lambda m: f"0.5 {m.group(1)}", question)
    return _DAYS_AWAY.sub(lambda m: "2 days" if m[1] else "1 day" if m[2] else "2 weeks", question)
