"""Heading lines in text without markup (plain text, PDF pages): a conservative heuristic.

Numbered headings ("3. Leave and Holidays", "3.2 Parental leave") win when a document has any;
otherwise short Title Case or ALL CAPS lines count. A candidate must stand alone: between blank
lines (`standalone="blank-lines"`, plain text), or after a line that ends a sentence and before a
capitalised line (`standalone="sentence"`, PDF text, where blank lines are not reliable).
"""

from __future__ import annotations

import re
from typing import Literal

from ragcite.ingest.types import SectionSpan

_NUMBERED = re.compile(r"(?P<number>\d{1,2}(?:\.\d{1,2})*)\.?\s+(?P<rest>\S.*)")
_SMALL_WORDS = frozenset(
    re.findall(r"\S+", "a an and as at but by for from in into nor of on or per the to vs via with")
)
_MAX_WORDS = 10
_MAX_LENGTH = 80
_NO_HEADING_END = ".,;:!?"
_SENTENCE_END = ".!?:"


def find_heading_lines(
    text: str, *, standalone: Literal["blank-lines", "sentence"]
) -> tuple[SectionSpan, ...]:
    """Sections for heading-like lines in `text`, in order."""
    lines = _lines(text)
    numbered: list[SectionSpan] = []
    plain: list[SectionSpan] = []
    previous_heading = -2
    for i, (offset, line) in enumerate(lines):
        stripped = line.strip()
        if not _plausible(stripped):
            continue
        before = lines[i - 1][1].strip() if i > 0 else ""
        after = lines[i + 1][1].strip() if i + 1 < len(lines) else ""
        if not _stands_alone(before, after, standalone, previous_heading == i - 1):
            continue
        start = offset + len(line) - len(line.lstrip())
        number = _NUMBERED.fullmatch(stripped)
        if number and _heading_words(number.group("rest"), title_case=False):
            level = number.group("number").count(".") + 1
            numbered.append(SectionSpan(heading=stripped, level=level, char_start=start))
            previous_heading = i
        elif not number and _heading_words(stripped, title_case=True):
            plain.append(SectionSpan(heading=stripped, level=1, char_start=start))
            previous_heading = i
    return tuple(numbered or plain)


def _lines(text: str) -> list[tuple[int, str]]:
    lines: list[tuple[int, str]] = []
    offset = 0
    for line in text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    return lines


def _plausible(line: str) -> bool:
    return 0 < len(line) <= _MAX_LENGTH and line[-1] not in _NO_HEADING_END


def _stands_alone(before: str, after: str, standalone: str, after_heading: bool) -> bool:
    if standalone == "blank-lines":
        return not before and not after
    before_ok = not before or before[-1] in _SENTENCE_END or after_heading
    after_ok = not after or after[0].isupper() or after[0].isdigit()
    return before_ok and after_ok


def _heading_words(words_text: str, *, title_case: bool) -> bool:
    words = words_text.split()
    if not words or len(words) > _MAX_WORDS or not words[0][:1].isupper():
        return False
    if not title_case:
        return True
    letters = [c for c in words_text if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        return len(letters) > 1
    return all(w[:1].isupper() or not w[:1].isalpha() or w.lower() in _SMALL_WORDS for w in words)
