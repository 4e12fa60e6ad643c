"""Whether a sentence gives the contact the question asks for, about what it asks.

"What number do I ring to report my dishwasher has broken down?" is answered by the line
that gives a number for reporting, not by the office's switchboard; asked at 2am or when
locked out, by the out-of-hours line.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragcite.generate.focus import question_proper
from ragcite.text.contacts import CONTACT_WORDS, gives_contact, wanted_contact
from ragcite.text.words import content_stems


def contact_fit(sentence: str, question: str, around: str = "") -> int:
    """When the question asks for a phone number, email or web address (`wanted_contact`)
    and `sentence` gives one: `OUT_OF_HOURS_FIT` when the question is asked out of hours ("at
    2am", "in the middle of the night", "when the office is shut") and the sentence or
    `around` (its heading, its line's label) is the out-of-hours line ("Emergency
    out-of-hours (security) — Contact: 07700 900 481"), 1 when it is about what is asked: it
    or `around` shares a word of the question beyond the contact's ("report" in "To report a
    breakdown, call our Claims Line on 0800 046 7721" for "What number do I ring to report my
    dishwasher has broken down?"); else 0.

    >>> contact_fit("To report it, call 0800 046 7721.", "What number do I ring to report it?")
    1
    >>> contact_fit("Out of hours: 07700 900 481", "it's 11pm, what number do I ring?")
    2
    """
    kind, topic = _contact_asked(question)
    if kind is None or not gives_contact(kind, sentence):
        return 0
    if _OUT_OF_HOURS_ASKED.search(question) and _OUT_OF_HOURS.search(f"{around} {sentence}"):
        return OUT_OF_HOURS_FIT
    said = content_stems(f"{around} {sentence}")
    return int(any(t in said or _starts_one(t, said) for t in topic))


def _starts_one(stem: str, said: set[str]) -> bool:
    """Whether a stem of five letters or more begins a word said, or one said begins it
    ("collect" and "collection")."""
    return len(stem) >= 5 and any(
        len(s) >= 5 and (s.startswith(stem) or stem.startswith(s)) for s in said
    )


# A question asked outside office hours or in an emergency ("locked out of the studio"), and
# the line that answers it then: it fits twice as well as a contact line about what is asked
# (the office's own line shares the words).
OUT_OF_HOURS_FIT = 2
_OUT_OF_HOURS_ASKED = re.compile(
    r"\b(?:(?:[1-5]|12)\s*a\.?m\b|(?:8|9|10|11)\s*p\.?m\b|midnight|night|overnight|weekend|"
    r"bank\s+holiday|(?:is|are|['’]s|['’]re)\s+(?:shut|closed)|out\s+of\s+hours|after\s+hours|"
    r"locked\s+(?:myself\s+|ourselves\s+)?out|emergency|urgent(?:ly)?)",
    re.IGNORECASE,
)
_OUT_OF_HOURS = re.compile(
    r"\b(?:out[\s-]of[\s-]hours|after[\s-]hours|outside\s+(?:office|opening|normal|staffed|"
    r"working|business)\s+hours|24\s*(?:hours|-hour|/\s*7)|emergenc\w*|on[\s-]call|night)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=64)
def _contact_asked(question: str) -> tuple[str | None, frozenset[str]]:
    """The contact `question` wants and its words beyond the contact's, read once per
    question rather than once per candidate sentence."""
    kind = wanted_contact(question_proper(question))
    return kind, frozenset(content_stems(question) - CONTACT_WORDS) if kind else frozenset()
