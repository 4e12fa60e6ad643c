"""Times of day a text gives, and questions that ask for one.

"What time does the hot food come round?" asks for a clock time; "Times: 01:00 to 02:30",
"by 6.30am", "noon" and "0900 hrs" give one, "every weekday" does not. The generator joins
a sentence that gives the time to one that does not, and the reading check declines an
answer that gives none, by the same reading.

    >>> asks_time_of_day("what time does the canteen open on saturdays?")
    True
    >>> gives_time_of_day("Night service — Times: 01:00 to 02:30"), gives_time_of_day("Monday")
    (True, False)
"""

from __future__ import annotations

import re

# "9:30am", "6.30 p.m.", "9am" (groups: hour, minute, a or p) and "17:00" (hour, minute).
CLOCK_TIME = re.compile(
    r"(?=\d)(?<![\w:.])(?:(\d{1,2})(?:[:.]([0-5]\d))?\s*([ap])\.?\s?m\b\.?"
    r"|([01]?\d|2[0-3]):([0-5]\d)\b)",
    re.IGNORECASE,
)
# Times of day written without clock digits.
_TIME_IN_WORDS = re.compile(
    r"\b\d{4}\s*(?:hrs|hours)\b|"
    r"\b(?:noon|midday|midnight|o'clock|24\s+hours|24/7|close\s+of\s+business)\b",
    re.IGNORECASE,
)
# A question asking for a clock time ("What time does the restaurant open?"; not "What time
# did a river system develop?", which asks when).
_WHAT_TIME = re.compile(
    r"\bwhat\s+(?:time|times|hours)\s+(?:does|do|is|are|will|can|should|must|would|could)\b",
    re.IGNORECASE,
)

__all__ = ["CLOCK_TIME", "asks_time_of_day", "clock_minutes", "gives_time_of_day"]


def clock_minutes(match: re.Match[str]) -> int | None:
    """The minutes after midnight of a `CLOCK_TIME` match ("6.30pm": 1110); None for an
    hour no clock has ("13 pm")."""
    hour, minute, half, hour24, minute24 = match.groups()
    if not half:
        return int(hour24) * 60 + int(minute24)
    if int(hour) > 12:
        return None
    return (int(hour) % 12 + (12 if half.lower() == "p" else 0)) * 60 + int(minute or 0)


def asks_time_of_day(question: str) -> bool:
    """Whether `question` asks what time (or what hours) something happens."""
    return bool(_WHAT_TIME.search(question))


def gives_time_of_day(text: str) -> bool:
    """Whether `text` gives a time of day ("no later than 9:30am", "07:00", "noon")."""
    return bool(_TIME_IN_WORDS.search(text)) or any(
        clock_minutes(m) is not None for m in CLOCK_TIME.finditer(text)
    )
