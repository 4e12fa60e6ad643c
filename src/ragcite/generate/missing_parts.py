"""Saying which part of a compound question the documents do not answer.

"How long are receipts kept, and how much are meals reimbursed?" over documents that only
give the receipt rule is answered for its first part and says of the second:

    >>> not_in_documents(["how much are meals reimbursed"])
    ['The documents do not say how much meals are reimbursed.']
    >>> not_in_documents(["does the EU differ from the US"])
    ['The documents do not say whether the EU differs from the US.']
"""

from __future__ import annotations

import re

from ragcite.generate.focus import question_proper
from ragcite.generate.joining import Candidate, rank
from ragcite.text.contacts import CONTACT_WORDS, asked_contact, gives_contact
from ragcite.text.prices import PRICE_STEMS, asks_price, states_price
from ragcite.text.words import content_stems

_WH = r"how\s+(?:long|much|many|often|far|soon)|how|what|when|where|who|whom|whose|which|why"
# "how much are meals reimbursed" -> wh "how much", auxiliary "are", rest "meals reimbursed".
_WH_QUESTION = re.compile(
    rf"^(?P<wh>(?:{_WH})(?:\s+\w+)??)\s+(?P<aux>is|are|was|were|do|does|did|can|may|must|"
    r"should|will|would|could|has|have)\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
_YES_NO = re.compile(
    r"^(?P<aux>is|are|was|were|do|does|did|can|may|must|should|will|would|could|has|have)\s+"
    r"(?P<rest>.+)$",
    re.IGNORECASE,
)
_BE = frozenset({"is", "are", "was", "were"})
_DETERMINERS = frozenset({"the", "a", "an", "our", "its", "their", "your", "my", "this", "that"})


def _subject_end(words: list[str]) -> int:
    """Where the subject ends, roughly: a determiner and one noun, or one word."""
    return 2 if len(words) > 2 and words[0].lower() in _DETERMINERS else 1


def _statement_order(rest: str, aux: str) -> str:
    """The words of an inverted question in statement order: "meals reimbursed" with "are"
    -> "meals are reimbursed"; "the EU differ" with "does" -> "the EU differs"."""
    words = rest.split()
    aux = aux.lower()
    if len(words) < 2:
        return f"{rest} {aux}" if aux in _BE else rest
    if aux in _BE:
        if words[-1].lower().endswith(("ed", "en", "wn")):  # passive: "are reimbursed"
            return " ".join([*words[:-1], aux, words[-1]])
        return f"{rest} {aux}"
    if aux in ("do", "did"):
        return rest
    at = _subject_end(words)
    if aux == "does":
        verb = words[at]
        verb += "es" if verb.endswith(("s", "sh", "ch", "x", "o")) else "s"
        return " ".join([*words[:at], verb, *words[at + 1 :]])
    lowered = [w.lower() for w in words]
    at = lowered.index("be") if "be" in lowered else at
    return " ".join([*words[:at], aux, *words[at:]])


def not_in_documents(parts: list[str]) -> list[str]:
    """A sentence for each unanswered part: "The documents do not say whether …"."""
    return [f"The documents do not say {_indirect(part)}." for part in parts]


def _indirect(part: str) -> str:
    """A question as an indirect one: "how much are meals reimbursed" -> "how much meals are
    reimbursed"; "does the EU differ" -> "whether the EU differs"."""
    text = " ".join(part.strip(" ?.!,").split())
    if not text:
        return "this"
    wh = _WH_QUESTION.match(text)
    if wh:
        return f"{wh['wh'].lower()} {_statement_order(wh['rest'], wh['aux'])}"
    yes_no = _YES_NO.match(text)
    if yes_no:
        return f"whether {_statement_order(yes_no['rest'], yes_no['aux'])}"
    return text[0].lower() + text[1:]


def gives_what_is_asked(question: str, sentence: str) -> bool:
    """Whether `sentence` gives the price or the contact `question` asks for (True when it
    asks for neither).

    >>> gives_what_is_asked("how much does it cost", "Monitors are replaced every 5 years.")
    False
    """
    asked = question_proper(question)
    if asks_price(asked) and not states_price(sentence):
        return False
    contact = asked_contact(asked)
    return contact is None or gives_contact(contact, sentence)


# A part naming nothing but the price or contact it asks for ("… what happens and what's the
# cost?"): its answer is in the sentences just after or before the previous part's answer
# ("If a skip is overloaded our driver cannot legally carry it. … If we have to leave and
# come back, a return visit charge of £60 applies.").
_ONLY_ASKING = PRICE_STEMS | CONTACT_WORDS | content_stems("happen")
_BESIDE = 3


def beside_the_last_answer(
    part: str, chosen: list[Candidate], candidates: list[Candidate], floor: float
) -> Candidate | None:
    """For a part that names nothing but the price or contact it asks for, the best
    sentence within `_BESIDE` of the previous part's answer in its passage that gives it and
    scores `floor` or more; None otherwise."""
    asked = question_proper(part)
    if not chosen or content_stems(asked) - _ONLY_ASKING:
        return None
    if not asks_price(asked) and asked_contact(asked) is None:
        return None
    last = chosen[-1]
    beside = [
        c
        for c in candidates
        if c.chunk_rank == last.chunk_rank
        and 0 < abs(c.position - last.position) <= _BESIDE
        and c.score >= floor
        and gives_what_is_asked(part, c.text)
    ]
    return max(beside, key=rank) if beside else None
