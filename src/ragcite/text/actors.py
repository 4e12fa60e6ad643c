"""Who does what: the asker's "I" is a document's "you", and a document's "we" is the
organisation that wrote it.

"I need to cancel my appointment this morning. Will I be charged?" is not answered by "If
we cancel with less than 24 hours' notice, your next appointment will be charged at half
price.": there the clinic cancels, not the patient. A sentence in which the organisation
does what the asker would do (`the_other_party_acts`) is about the other case.

    >>> the_other_party_acts(
    ...     "If we cancel with less than 24 hours' notice, your next appointment is half price.",
    ...     "I need to cancel my appointment this morning. Will I be charged?")
    True
    >>> the_other_party_acts(
    ...     "If you cancel with less than 24 hours' notice, we charge 50% of the fee.",
    ...     "I need to cancel my appointment this morning. Will I be charged?")
    False
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragcite.text.stems import stem
from ragcite.text.words import HEDGES

# What the asker does: "I need to cancel", "we'll have to cancel", "if I cancel", "can I
# cancel" (the verb after "I"/"we", past the helping verbs).
_ADVERBS = "|".join(sorted(HEDGES))
_ASKER_DOES = re.compile(
    r"\b(?:i|we)(?:'ll|'d|'ve|'m)?\s+(?:(?:will|would|may|might|must|can|could|should|"
    rf"have|had|need|needed|want|wanted|got|going|{_ADVERBS}|to)\s+){{0,3}}(?P<verb>[a-z]+)",
    re.IGNORECASE,
)
_ASKED_FIRST = re.compile(
    r"\b(?:can|could|may|should|must|do|did|will|would)\s+(?:i|we)\s+"
    rf"(?:(?:{_ADVERBS})\s+)?(?P<verb>[a-z]+)",
    re.IGNORECASE,
)
# Verbs too common to say who acts ("be", "get", "have", "pay": both sides pay).
_ANY_PARTY = frozenset(
    "be is am are was were get got have has had do did need want go going pay paid "
    "know think like see make use keep kept can could will would shall should may might must "
    "won don didn doesn isn aren wasn haven".split()
)
# Ending an agreement, said many ways: the asker who wants to "stop" the service is the
# other party to "We may end the service with 2 weeks' notice".
_ENDING = frozenset(stem(v) for v in "stop end cancel terminate quit".split())
# "… notice do I need to give to stop my regular cleaning?": an ending the asker wants.
_TO_END = re.compile(r"\bto\s+(stop|end|cancel|terminate|quit)\b", re.IGNORECASE)
# The organisation does it: "If we cancel", "where we have to cancel", "we may cancel"; what
# it can do is a service to the asker ("We can exchange an item …" for "can I swap it?").
_WE_DO = r"\bwe\s+(?:(?:have|need|are|may|might|must|will|had)\s+(?:to\s+)?){{0,2}}{verb}"


@lru_cache(maxsize=256)
def _acts(verb: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The organisation doing `verb` (a stem: any form), and the reader ("you") doing it."""
    form = rf"{re.escape(verb)}\w*"
    return re.compile(_WE_DO.format(verb=form)), re.compile(rf"\byou\s+(?:\w+\s+){{0,2}}{form}")


@lru_cache(maxsize=1024)  # read for every candidate sentence of a question
def _asker_verbs(question: str) -> frozenset[str]:
    """The stems of the verbs the asker is the subject of ("cancel" of "I need to cancel")."""
    found = [
        m.group("verb").lower() for p in (_ASKER_DOES, _ASKED_FIRST) for m in p.finditer(question)
    ]
    if re.search(r"\b(?:i|we)\b", question, re.IGNORECASE):
        found += [m.group(1).lower() for m in _TO_END.finditer(question)]
    verbs = {stem(v) for v in found if v not in _ANY_PARTY}
    return frozenset(verbs | _ENDING if verbs & _ENDING else verbs)


def the_other_party_acts(sentence: str, question: str) -> bool:
    """Whether `sentence` has the organisation ("we") do what the asker of `question` would
    do ("I"/"we" asking), and never "you": it is about the other party's act."""
    verbs = _asker_verbs(question)
    said = sentence.lower()
    if not verbs or "we " not in said:
        return False
    for verb in verbs:
        we_do, you_do = _acts(verb)
        if we_do.search(said) and not you_do.search(said):
            return True
    return False
