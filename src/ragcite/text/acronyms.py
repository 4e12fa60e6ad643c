"""Acronyms a question uses and its passages spell out.

Users write "PO", "BYOD" or "SLA"; a policy often says "purchase order", "bring your own
device", "service level agreement". A question's acronym (two to six capitals, "PO", "PTOs")
that none of the passages uses as such is read as the run of passage words whose initials
spell it, hyphenated words counted by their parts ("multi-factor authentication" is
"MFA"). Only the passages given are read, so an expansion is always the documents' own.

    >>> expand_acronyms("Is MFA needed for the VPN?",
    ...                 ["Multi-factor authentication is mandatory for the VPN."])
    'Is Multi-factor authentication needed for the VPN?'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ragcite.text.words import STOPWORDS

_ACRONYM = re.compile(r"\b([A-Z]{2,6})(s?)\b")
_PART = re.compile(r"(?<!['’])[^\W\d_]+")  # a word, not the "s" of a possessive
_APART = "\x1f"  # joins the passages: neither a word nor a space
_INNER = frozenset("a an the of and or to for in on at by with".split())


def expand_acronyms(question: str, passages: Sequence[str]) -> str:
    """`question` with each acronym that the passages spell out but never write replaced
    by their words (the question unchanged when there is none)."""
    found = {m.group(1) for m in _ACRONYM.finditer(question)}
    if not found or _shouted(question):
        return question
    expansions: dict[str, str] = {}
    text = _APART.join(passages)  # one search each, never across two passages
    for acronym in sorted(found):
        if re.search(rf"\b{acronym}s?\b", text):
            continue  # the documents use the acronym itself
        spelled = _spelled_out(acronym, text)
        if spelled is not None:
            expansions[acronym] = spelled
    if not expansions:
        return question

    def replace(match: re.Match[str]) -> str:
        words = expansions.get(match.group(1))
        if words is None:
            return match.group(0)
        return words if words.endswith("s") else words + match.group(2)

    return _ACRONYM.sub(replace, question)


def _shouted(question: str) -> bool:
    """Whether the question is written in capitals ("WHAT IS THE PO LIMIT?"): its words
    are not acronyms."""
    letters = [ch for ch in question if ch.isalpha()]
    return sum(ch.isupper() for ch in letters) > len(letters) / 2


def _spelled_out(acronym: str, text: str) -> str | None:
    """The run of words in `text` (the passages, joined) whose initials spell `acronym`
    (case ignored; "of", "and" and the like may be skipped), as first written: the most
    frequent such run, and for a two-letter acronym only one written at least twice or in
    capitals ("Purchase Order"), since two words chance to spell two letters often."""
    pattern = _run_pattern(acronym.lower())
    runs: dict[str, list[str]] = {}
    for match in pattern.finditer(text):
        run = match.group(0)
        words = _PART.findall(run)
        if _content(words[0]) and _content(words[-1]):
            runs.setdefault(run.lower().removesuffix("s"), []).append(run)
    if not runs:
        return None
    written = max(runs.values(), key=len)  # the first of the most frequent, on a tie
    if len(acronym) == 2 and len(written) < 2 and not written[0].istitle():
        return None
    return written[0]


@lru_cache(maxsize=256)
def _run_pattern(letters: str) -> re.Pattern[str]:
    """Words whose initials are `letters`, hyphens counting as spaces, a short word between
    two of them skipped ("bill of materials" is "BOM"), a possessive kept with its word
    ("Information Commissioner's Office" is "ICO")."""
    inner = "|".join(sorted(_INNER))
    word = r"[^\W\d_]*(?:['’]s)?"  # a possessive is its word: "Commissioner's"
    parts = [rf"\b{re.escape(letters[0])}{word}"]
    for letter in letters[1:]:
        parts.append(rf"(?:[\s-]+(?:{inner})\b)?[\s-]+{re.escape(letter)}{word}")
    return re.compile("".join(parts) + r"\b", re.IGNORECASE)


def _content(word: str) -> bool:
    """A word a run may start or end on: not a stopword, three letters or more ("please
    order" is never "PO")."""
    return len(word) >= 3 and word.lower() not in STOPWORDS
