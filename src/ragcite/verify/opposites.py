"""Opposites a changed question swaps in: "What is the smallest city on the Rhine?" over
"The biggest city on the Rhine is Cologne", "What can be viewed as an informal language?"
over "… a formal language". Read by the reading check (`verify/reading.py`).
"""

from __future__ import annotations

import re

from ragcite.generate.focus import ANSWERED_BY_NO, question_focus, question_proper
from ragcite.text.words import words

# Pairs of opposites a changed question often swaps in (both directions are read). Words
# as common as "before"/"after" or "more"/"less" are left out: a question uses them for
# other ends.
_OPPOSITES = (
    ("first", "last"), ("earliest", "latest"), ("most", "least"),
    ("largest", "smallest"), ("biggest", "smallest"), ("highest", "lowest"),
    ("longest", "shortest"), ("oldest", "newest"), ("oldest", "youngest"),
    ("maximum", "minimum"), ("increase", "decrease"), ("increased", "decreased"),
    ("win", "lose"), ("won", "lost"), ("start", "end"), ("began", "ended"),
    ("north", "south"), ("east", "west"), ("northern", "southern"), ("eastern", "western"),
    ("upper", "lower"), ("inner", "outer"), ("modern", "ancient"), ("modern", "medieval"),
    ("public", "private"), ("male", "female"), ("import", "export"), ("imports", "exports"),
    ("positive", "negative"), ("major", "minor"), ("allowed", "forbidden"),
    ("accept", "reject"), ("accepted", "rejected"), ("rise", "fall"),
    ("larger", "smaller"), ("bigger", "smaller"), ("higher", "lower"), ("longer", "shorter"),
    ("older", "younger"), ("northward", "southward"), ("eastward", "westward"),
    ("northernmost", "southernmost"), ("easy", "difficult"), ("easier", "harder"),
    ("stronger", "weaker"), ("strongest", "weakest"), ("best", "worst"), ("better", "worse"),
    ("upstream", "downstream"), ("internal", "external"), ("success", "failure"),
    ("wet", "dry"), ("deep", "shallow"), ("fastest", "slowest"), ("richest", "poorest"),
    ("begin", "end"), ("beginning", "end"), ("begins", "ends"), ("rising", "falling"),
    ("rising", "dropping"), ("rises", "falls"), ("rose", "fell"), ("precedes", "follows"),
    ("preceded", "followed"), ("precedes", "succeeds"),
)  # fmt: skip
# Opposites too common to read alone, read before the same word: "a left turn" asked, "a
# right turn" said; "a factor more than k" asked, "a factor less than k" said.
_PHRASE_OPPOSITES = (
    ("left", "right"), ("large", "small"), ("big", "small"), ("more", "less"),
    ("more", "fewer"), ("greater", "less"), ("greater", "smaller"), ("high", "low"),
    ("long", "short"), ("early", "late"), ("old", "new"), ("old", "young"), ("top", "bottom"),
    ("open", "closed"), ("same", "different"), ("hot", "cold"), ("wide", "narrow"),
    ("fast", "slow"), ("strong", "weak"), ("rich", "poor"), ("full", "empty"),
    ("before", "after"), ("above", "below"), ("inside", "outside"), ("light", "heavy"),
)  # fmt: skip


def _both_ways(pairs: tuple[tuple[str, str], ...]) -> dict[str, set[str]]:
    """Each word of the pairs with its opposites, read in both directions."""
    opposites: dict[str, set[str]] = {}
    for a, b in pairs:
        opposites.setdefault(a, set()).add(b)
        opposites.setdefault(b, set()).add(a)
    return opposites


_PHRASE_OPPOSITE = _both_ways(_PHRASE_OPPOSITES)
_ARTICLES = frozenset({"the", "a", "an"})
# A preposition after the word names no thing: "open on Saturdays" is not turned round by
# "closed on Sundays" beside "open Monday to Saturday".
_PREPOSITIONS = frozenset("on at in for to from by with of during until till".split())
# Opposite states, of which one answers a yes/no question about the other.
_STATES = frozenset(
    "allowed forbidden accept reject accepted rejected win lose won lost success failure".split()
)
_OPPOSITE = _both_ways(_OPPOSITES)

# Prefixes that make a word's opposite ("possible", "impossible"), read by `opposite_pair`.
_OPPOSING_PREFIXES = ("un", "non-", "non", "in", "im", "il", "ir")
# The endings of words that read as a quality, which a negating prefix turns round.
_QUALITY = re.compile(
    r"^\w{2,}(?:al|ible|able|ent|ant|ive|ite|ly|ect|ete|ual|ular|ected|ated|ful)$"
)


def opposite_pair(question: str, window_text: str) -> tuple[str, str] | None:
    """(question word, its opposite) when the window holds the opposite of a question
    word and neither the word itself nor a question that names both ("smallest" asked,
    "biggest" said); None otherwise. The asker's situation before the question proper is
    not asked ("I only started last week, when is the training due?" over "in your first
    month"). A question a "no" answers is answered by the opposite state ("Are dogs
    allowed?" by "Dogs are forbidden", "Is it possible …?" by "It is impossible …"), not by
    the opposite thing ("Is there a maximum …?" by "Minimum commitment: …")."""
    asked = set(words(question_proper(question)))
    there = set(words(window_text))
    answered_by_no = question_focus(question) in ANSWERED_BY_NO
    for word in sorted(asked - there):
        opposite = _OPPOSITE.get(word, set()) & (there - asked)
        if answered_by_no:
            said = sorted(opposite - _STATES) if word not in _STATES else []
        else:
            said = sorted(opposite | _prefixed(word, there, window_text.lower()))
        if said:
            return word, said[0]
    return None if answered_by_no else _phrase_opposite(question_proper(question), window_text)


def _phrase_opposite(question: str, window_text: str) -> tuple[str, str] | None:
    """("left turn", "right turn") when the question puts one of a common pair before a
    word and the window only puts its opposite before that word."""
    asked = words(question)
    text = window_text.lower()
    for i, word in enumerate(asked[:-1]):
        if word not in _PHRASE_OPPOSITE:
            continue
        rest = [w for w in asked[i + 1 : i + 4] if w not in _ARTICLES]
        if not rest or rest[0] in _PREPOSITIONS:
            continue
        after = " ".join(rest[:2]) if rest[0] == "than" and len(rest) > 1 else rest[0]
        tail = r"\s+(?:(?:the|a|an)\s+)?" + r"\s+".join(map(re.escape, after.split())) + r"\b"
        if re.search(rf"\b{word}{tail}", text):
            continue
        for opposite in sorted(_PHRASE_OPPOSITE[word]):
            if re.search(rf"\b{opposite}{tail}", text):
                return f"{word} {after}", f"{opposite} {after}"
    return None


def _prefixed(word: str, there: set[str], window_text: str) -> set[str]:
    """The words of `there` that are `word` with a negating prefix added or taken off
    ("possible" said, "impossible" asked; "formal" asked, "informal" said). Only words that
    read as qualities take such a prefix ("in" + "formal", not "in" + "voice"), and a word
    the window negates itself ("not known" for "unknown") says the same."""
    found = set()
    for prefix in _OPPOSING_PREFIXES:
        if _QUALITY.search(word) and prefix + word in there:
            found.add(prefix + word)
        rest = word.removeprefix(prefix)
        if (
            rest != word
            and _QUALITY.search(rest)
            and rest in there
            and not _negated(rest, window_text)
        ):
            found.add(rest)
    return found


def _negated(word: str, text: str) -> bool:
    """Whether `text` negates `word` itself ("not equal", "no known")."""
    return re.search(rf"\b(?:not|n't|never|no)\s+(?:\w+\s+)?{word}\b", text) is not None
