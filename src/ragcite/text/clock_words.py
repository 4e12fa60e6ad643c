"""Clock times said in words, as people in the UK type them.

"camp finishes at half 3 but I work till 5" means 3:30; "quarter past 4" is 4:15 and
"quarter to 6" is 5:45. A passage writes "Late Club until 17:30", and the generator reads a
question's times of day in digits: "half 3" read as words matches the "Half day" row instead.
`clock_digits` writes such times in digits; an amount ("half 3 hours", "half a day") is left.

    >>> clock_digits("camp finishes at half 3 but i work till 5")
    'camp finishes at 3:30 but i work till 5'
    >>> clock_digits("can I come at quarter to six?")
    'can I come at 5:45?'
    >>> clock_digits("is it half 2 hours or a full day?")
    'is it half 2 hours or a full day?'
"""

from __future__ import annotations

import re

from ragcite.text.ordinals import NUMBER_WORDS

_HOUR = rf"(?P<hour>1[0-2]|[1-9]|{'|'.join(NUMBER_WORDS)})"
# What an amount would go on to ("half 3 hours", "half 2 days' pay"): no clock time.
_NOT_CLOCK = (
    r"(?!\s*(?:hours?|hrs?|days?|weeks?|months?|years?|minutes?|mins?|%|per\b|of\b|times?\b))"
)
_SAID = re.compile(
    rf"\b(?:(?P<half>half)(?:\s+past)?|(?:a\s+)?quarter\s+(?P<way>past|to))\s+{_HOUR}"
    rf"(?P<noon>\s*[ap]\.?m\.?)?\b{_NOT_CLOCK}",
    re.IGNORECASE,
)


def clock_digits(question: str) -> str:
    """`question` with "half 3", "half past three", "quarter past 4" and "quarter to 6"
    written as 3:30, 3:30, 4:15 and 5:45."""
    return _SAID.sub(_in_digits, question)


def _in_digits(match: re.Match[str]) -> str:
    """The clock time `match` says, in digits ("quarter to six": "5:45")."""
    said = match.group("hour").lower()
    hour = int(said) if said.isdigit() else NUMBER_WORDS.index(said) + 1
    noon = match.group("noon") or ""
    if match.group("half"):
        return f"{hour}:30{noon}"
    if match.group("way").lower() == "past":
        return f"{hour}:15{noon}"
    return f"{(hour - 2) % 12 + 1}:45{noon}"
