"""The sentence that fills the question's gap: "What is the gorge known for?" is answered by
"… the stretch of the river which is known for its many castles and vineyards", two
sentences on from the one that names the gorge.

A question whose gap follows a participle and its preposition ("known for", "used for",
"made of", "named after", "responsible for") asks what comes after those words. When the
sentence chosen does not say it (the words there are the question's own: "is used only for
smaller streams"), a sentence of the same passage, at most two away, that says the phrase
and then words the question lacks is quoted beside it.

    >>> slot_phrase("The smaller streams are used for what?")
    ('used', 'for')
"""

from __future__ import annotations

import re

from ragcite.generate.joining import Candidate
from ragcite.text.words import IRREGULAR_PARTICIPLES, QUESTION_STOPWORDS, words

_PREPOSITION = r"(for|of|by|from|with|in|on|as|after|to|into|against)"
# "… known for?", "… used for what?" (the gap at the end), "What is X known for?".
_GAP_AT_END = re.compile(rf"\b([a-z]+)\s+{_PREPOSITION}(?:\s+what)?\s*\??\s*$", re.IGNORECASE)
_ASKS_WHAT = re.compile(r"^\s*(?:what|which|who)\b|\bwhat\s*\??\s*$", re.IGNORECASE)
_ADJECTIVES = frozenset("famous responsible notable popular renowned liable eligible".split())
# How far past the phrase the missing words may start ("known for its many castles").
_REACH = 4
_NEAR = 2


def slot_phrase(question: str) -> tuple[str, str] | None:
    """The participle (or adjective) and preposition before the question's gap, or None."""
    if not _ASKS_WHAT.search(question):
        return None
    found = _GAP_AT_END.search(question)
    if found is None:
        return None
    word = found.group(1).lower()
    if not (word.endswith("ed") or word in IRREGULAR_PARTICIPLES or word in _ADJECTIVES):
        return None
    return word, found.group(2).lower()


def _fills(text: str, phrase: tuple[str, str], asked: set[str]) -> bool:
    """Whether `text` says the phrase and then, within `_REACH` words, one the question
    lacks."""
    said = words(text)
    for i in range(len(said) - 1):
        if said[i] == phrase[0] and said[i + 1] == phrase[1]:
            after = [w for w in said[i + 2 : i + 2 + _REACH] if w not in QUESTION_STOPWORDS]
            if after and after[0] not in asked:
                return True
    return False


def fills_the_gap(
    question: str, chosen: list[Candidate], candidates: list[Candidate]
) -> Candidate | None:
    """The sentence near the best one (`chosen[0]`) that fills the question's gap, when no
    chosen sentence does (`slot_phrase`, `_fills`)."""
    phrase = slot_phrase(question)
    if phrase is None or not chosen:
        return None
    asked = set(words(question))
    if any(_fills(c.text, phrase, asked) for c in chosen):
        return None
    best = chosen[0]
    near = [
        c
        for c in candidates
        if c.chunk_rank == best.chunk_rank
        and 0 < abs(c.position - best.position) <= _NEAR
        and _fills(c.text, phrase, asked)
    ]
    return min(near, key=lambda c: abs(c.position - best.position), default=None)
