"""How far below the relevance floor a sentence the question singles out still counts.

A table row whose label or range the question names, a line giving the phone number or email
asked for, the out-of-hours line asked for at night: each is short or mostly digits, so its
relevance to the question reads low against its worth (`leeway`). A contact line also counts
more when a relevant sentence of its document tells the reader to get in touch without saying
how ("call or email us to arrange collection", `contact_allowance`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from ragcite.generate.contact_fit import OUT_OF_HOURS_FIT
from ragcite.generate.joining import Candidate
from ragcite.models import SourceChunk

# A sentence the question's words single out is relevant a little below the floor: a table
# row whose label the question says ("How fast do I need to respond to a SEV3?" over "SEV3 —
# … Acknowledge within: 4 business hours"), or a row or sentence whose range holds the
# question's number ("I'm 22" in "Young adult (18–25) — Annual (paid in full): £240"),
# however short its cells are against the question.
_FIT_LEEWAY = 0.03
# A sentence giving the phone number, email or web address asked for, about what is asked
# (`contact_fit`), counts this much above its score: "To report a breakdown, call our Claims
# Line on 0800 046 7721" reads 0.34 against "What number do I ring to report my dishwasher
# has broken down?" (0.15 answered no more of the rounds than 0.1). It joins an answer whose
# chosen sentences give no contact by the same leeway ("Planning enforcement (reporting
# unauthorised works) — Contact: 01629 555 748" for "who do I call to report my neighbour
# building something without permission?").
_CONTACT_LEEWAY = 0.1
# The out-of-hours line asked for at night or in an emergency (`OUT_OF_HOURS_FIT`) counts this
# much above its score: "Out-of-hours key holder — Contact: 07700 900 318" reads 0.19 against
# "I'm doing an evening shoot and got locked out of the studio - who do I ring?".
_OUT_OF_HOURS_LEEWAY = 0.25


def leeway(candidate: Candidate) -> float:
    """How far below the relevance floor `candidate` still counts (`_FIT_LEEWAY`,
    `_CONTACT_LEEWAY`, `_OUT_OF_HOURS_LEEWAY`)."""
    if candidate.contact == OUT_OF_HOURS_FIT:
        return _OUT_OF_HOURS_LEEWAY
    if candidate.contact:
        return _CONTACT_LEEWAY * candidate.contact
    return _FIT_LEEWAY if candidate.fit else 0.0


# A contact line about what is asked, in a document one of whose relevant sentences says to
# call, email or contact "us" without giving a number: "Bookings and collections — Phone: 0117
# 496 0321" reads 0.29 against "What number do I ring to get my skip collected?", over "When
# the skip is full, … call or email us to arrange collection." (0.49).
_REFERRED_LEEWAY = 0.2
_REFERS_TO_US = re.compile(
    r"\b(?:call|phone|ring|telephone|e-?mail|contact|text|message|write\s+to)"
    r"(?:\s+or\s+(?:call|phone|ring|e-?mail|text|message|write\s+to))?\s+us\b",
    re.IGNORECASE,
)


def contact_allowance(
    candidates: list[Candidate], window: list[SourceChunk], floor: float
) -> Callable[[Candidate], float]:
    """The leeway a sentence giving the contact asked for gets when it joins an answer whose
    chosen sentences give none: `leeway`, at least `_CONTACT_LEEWAY`, and `_REFERRED_LEEWAY`
    for a contact line about what is asked in the document of a relevant sentence (reaching
    `floor`) that tells the reader to get in touch without saying how ("call or email us")."""

    @cache
    def referring() -> frozenset[str]:  # read once, and only when a contact line is weighed
        return frozenset(
            window[c.chunk_rank].document_id
            for c in candidates
            if c.score >= floor and not c.contact and _REFERS_TO_US.search(c.text)
        )

    def allowance(candidate: Candidate) -> float:
        if not candidate.contact:
            return _CONTACT_LEEWAY
        own = leeway(candidate)
        if window[candidate.chunk_rank].document_id in referring():
            return max(own, _REFERRED_LEEWAY)
        return own

    return allowance
