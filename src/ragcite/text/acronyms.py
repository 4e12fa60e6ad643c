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

from ragcite.text.words import STOPWORDS

_ACRONYM = re.compile(r"\b([A-Z]{2,6})(s?)\b")
_PART = re.compile(r"[^\W\d_]+")
_INNER = frozenset("a an the of and or to for in on at by with".split())


def expand_acronyms(question: str, passages: Sequence[str]) -> str:
    """`question` with each acronym that the passages spell out but never write replaced
    by their words (the question unchanged when there is none)."""
    found = {m.group(1) for m in _ACRONYM.finditer(question)}
    if not found or _shouted(question):
        return question
    expansions: dict[str, str] = {}
    for acronym in sorted(found):
        if any(re.search(rf"\b{acronym}s?\b", p) for p in passages):
            continue  # the documents use the acronym itself
        spelled = _spelled_out(acronym, passages)
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


def _spelled_out(acronym: str, passages: Sequence[str]) -> str | None:
    """The run of words in `passages` whose initials spell `acronym` (case ignored; "of",
    "and" and the like may be skipped), as first written: the most frequent such run, and
    for a two-letter acronym only one written at least twice or in capitals ("Purchase
    Order"), since two words chance to spell two letters often."""
    letters = acronym.lower()
    runs: dict[str, list[str]] = {}
    for passage in passages:
        parts = list(_PART.finditer(passage))
        for i in range(len(parts)):
            end = _match_from(parts, i, letters)
            if end is not None:
                run = passage[parts[i].start() : parts[end].end()]
                runs.setdefault(run.lower().removesuffix("s"), []).append(run)
    if not runs:
        return None
    written = max(runs.values(), key=len)  # the first of the most frequent, on a tie
    if len(letters) == 2 and len(written) < 2 and not written[0].istitle():
        return None
    return written[0]


def _match_from(parts: list[re.Match[str]], i: int, letters: str) -> int | None:
    """The index of the last part when the parts from `i` spell `letters`, else None. The
    first and last words are content words ("please order" is never "PO"); a short word
    between them may be skipped ("bill of materials" is "BOM", "terms and conditions" "T&C")."""
    at = i
    for letter in letters:
        while (
            at < len(parts)
            and at > i
            and parts[at].group(0).lower() in _INNER
            and parts[at].group(0)[0].lower() != letter
        ):
            at += 1
        if at >= len(parts) or parts[at].group(0)[0].lower() != letter:
            return None
        at += 1
    first, last = parts[i].group(0).lower(), parts[at - 1].group(0).lower()
    if first in STOPWORDS or last in STOPWORDS or len(first) < 3 or len(last) < 3:
        return None
    return at - 1
