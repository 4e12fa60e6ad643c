"""Find fact-bearing sentences of an answer that belong to no cited claim.

A sentence belongs to a claim when one contains the other after normalisation, or
when most of its content words are the claim's. It bears a fact when it states
something checkable: a number or date, a name, an obligation, or simply a
statement of some length that is not framing ("Here is what I found:") or courtesy
("Please contact HR if you have questions.").
"""

from __future__ import annotations

import re

from ragcite.text.sentences import split_sentences
from ragcite.text.words import WORD, content_words
from ragcite.verify.markers import strip_citation_markers
from ragcite.verify.normalize import normalize

_OBLIGATION = re.compile(
    r"\b(must|shall|required|requires|may not|not allowed|prohibited|entitled|eligible|"
    r"mandatory|forbidden|always|never)\b",
    re.IGNORECASE,
)
_FRAMING = re.compile(
    r"^(here('s| is| are)|based on|according to (the|these|our) (documents|sources)|in summary|"
    r"to summari[sz]e|overall|i (could not|couldn't|can't|cannot|did not|didn't)|"
    r"let me|sure|the (documents|sources) (say|state|show|do not (say|state|mention))|"
    # courtesy: advice to the reader, not a statement about the documents
    r"please|feel free|i hope|hope (this|that) helps|if you (have|need) (any )?(further |more )?"
    r"(questions|help))\b",
    re.IGNORECASE,
)
_BELONGS_OVERLAP = 0.7


def unattributed_sentences(answer_text: str, claim_texts: list[str]) -> list[str]:
    """The fact-bearing sentences of `answer_text` that no claim covers, in order
    (citation markers such as "[2]" removed from both first)."""
    answer_text = strip_citation_markers(answer_text)
    claim_texts = [strip_citation_markers(c) for c in claim_texts]
    claims = [(normalize(c), _content_words(c)) for c in claim_texts if c.strip()]
    found = []
    for start, end in split_sentences(answer_text):
        sentence = answer_text[start:end]
        if is_fact_bearing(sentence) and not _belongs(sentence, claims):
            found.append(sentence)
    return found


def is_fact_bearing(sentence: str) -> bool:
    words = WORD.findall(sentence)  # case kept: a capital marks a name
    if len(words) < 4 or sentence.rstrip().endswith(":") or _FRAMING.match(sentence.strip()):
        return False
    has_number = any(ch.isdigit() for ch in sentence)
    has_name = any(w[0].isupper() for w in words[1:])
    return has_number or has_name or bool(_OBLIGATION.search(sentence)) or len(words) >= 6


def _belongs(sentence: str, claims: list[tuple[str, set[str]]]) -> bool:
    norm = normalize(sentence).rstrip(".!?")
    words = _content_words(sentence)
    for claim_norm, claim_words in claims:
        if norm in claim_norm or claim_norm.rstrip(".!?") in norm:
            return True
        if words and len(words & claim_words) / len(words) >= _BELONGS_OVERLAP:
            return True
    return False


def _content_words(text: str) -> set[str]:
    return set(content_words(text))
