"""A table row the question rules out: the question negates what the row's label says.

"I'm not a member, how much is a day pass?" is not asked of the "Members" row; "the book
isn't in Marlowe's stock" not of "Item in Marlowe stock". `ragcite.generate.fits` reads the
row as the other case.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragcite.text.table_rows import LABEL_SEPARATOR
from ragcite.text.words import content_stems

# A negation and the words it negates, up to the end of its clause: "isn't in Marlowe's
# stock", "I'm not a member", "don't have a car".
_NEGATED_PHRASE = re.compile(
    r"(?:\b(?:not|no|never|without)|n['’]t)\s+((?:[\w'’-]+\s+){0,3}[\w'’-]+)", re.IGNORECASE
)
_NEGATING_STEMS = frozenset({"non", "not", "no", "without"})


def label_negated(row: str, question: str) -> bool:
    """Whether the question negates what a table row's label says: the row is the other
    case ("Item in Marlowe stock" when "the book isn't in Marlowe's stock"; "Members" when
    "I'm not a member"; not "Non-members").

    >>> label_negated("Members — Day pass: £5", "I'm not a member, how much is a day pass?")
    True
    """
    negated = _negated_phrases(question)
    if not negated:
        return False
    label = content_stems(row.partition(LABEL_SEPARATOR)[0])
    if not label or label & _NEGATING_STEMS:
        return False
    return any(phrase <= label for phrase in negated)


@lru_cache(maxsize=64)
def _negated_phrases(question: str) -> tuple[frozenset[str], ...]:
    """The content stems of each phrase the question negates, read once per question."""
    phrases = (frozenset(content_stems(m.group(1))) for m in _NEGATED_PHRASE.finditer(question))
    return tuple(p for p in phrases if p)
