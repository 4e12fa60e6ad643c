"""Is a statement negated? Polarity as policy and legal text writes it.

A statement is negated when it holds an odd number of negators ("not", "never", "no",
"-n't", "without") and negative predicates ("prohibited", "forbidden"), so "is not
allowed" and "is prohibited" agree, and "is not prohibited" is allowed again. Bounds and
emphasis that merely contain a negator are not negation: "no later than 30 days" is
"within 30 days", "not less than 12" is "at least 12", "not only managers" is "managers
and others", "without delay" is "immediately". Exceptions ("except", "unless") qualify a
statement; they do not flip it.

Evidence sentences often join clauses ("backups are encrypted; unencrypted backups are not
permitted"): the clause that best covers the claim's words decides.

>>> negated("Claims must be submitted no later than 30 days after purchase.")
False
>>> negated("Smoking is not allowed on the premises."), negated("Smoking is prohibited.")
(True, True)
"""

from __future__ import annotations

import re

from ragcite.text.stems import stem
from ragcite.text.words import tokens
from ragcite.verify.support.text import content_words

_NEGATORS = frozenset(
    "not no never none nobody nothing neither cannot without lacks lack lacking fails "
    "failed".split()
)
_NEGATIVE_PREDICATES = frozenset(
    "prohibit prohibits prohibited forbid forbids forbidden ban bans banned disallowed "
    "ineligible".split()
)
# Words that state permission or its opposite: an opposite claim cannot share them.
_POLARITY_STEMS = frozenset(
    stem(word)
    for word in [*_NEGATIVE_PREDICATES, "allow", "allowed", "permit", "permitted", "eligible"]
)
# Phrases that contain a negator but state a bound, an emphasis or a manner.
_IDIOMS = re.compile(
    r"\b(?:no|not)\s+(?:later|earlier|sooner|more|less|fewer|longer|shorter|greater|"
    r"higher|lower|older|younger)\s+than\b"
    r"|\bnot\s+(?:to\s+)?exceed(?:s|ed|ing)?\b|\bnot\s+only\b|\bwithout\s+delay\b"
    r"|\bno\s+matter\b|\bnothing\s+but\b",
    re.IGNORECASE,
)
# A bound, negated or not: "must not exceed" (at most) and "must exceed" (more than) are
# opposite bounds, as are "no later than" and "later than", though neither is a negation.
_BOUND = re.compile(
    r"\b(?:(no|not)\s+(?:to\s+)?)?(exceed|(?:later|earlier|sooner|more|less|fewer|longer|"
    r"shorter|greater|higher|lower|older|younger)\s+than)",
    re.IGNORECASE,
)
# A frame that only sets the truth of what follows: "it is not true that X" is X, negated.
_TRUTH_FRAME = re.compile(
    r"\b(?:it\s+is\s+|it's\s+)?(?:not\s+|never\s+)?(?:true|the\s+case|correct|false)\s+that\b",
    re.IGNORECASE,
)
# Clause boundaries inside one sentence.
_CLAUSE = re.compile(
    r"\s*[;:]\s*|\s+[—–]\s+|\s+-\s+"
    r"|,\s*(?=(?:but|and|while|whereas|although|though|yet|so)\b)"
    r"|\s+(?=but\b)",
    re.IGNORECASE,
)


def negated(text: str) -> bool:
    """True when `text` says its statement does not hold (an odd count of negations)."""
    count = 0
    for token in tokens(_IDIOMS.sub(" ", text).lower()):
        if token in _NEGATORS or token in _NEGATIVE_PREDICATES or token.endswith(("n't", "n’t")):
            count += 1
    return count % 2 == 1


def clauses(sentence: str) -> list[str]:
    """The clauses of one sentence, split at semicolons, dashes and ", but"/", and"…"""
    return [part for part in _CLAUSE.split(sentence) if part and part.strip()]


def best_clause(sentence: str, claim: str) -> str:
    """The clause of `sentence` holding most of the claim's content words (the first on a
    tie); the whole sentence when it has one clause."""
    parts = clauses(sentence)
    if len(parts) <= 1:
        return sentence
    same = [part for part in parts if part.strip().lower() == claim.strip().lower()]
    if same:
        return same[0]  # a cell such as "No" in a table row aligns with itself, not the label
    claim_words = set(content_words(claim))
    return max(parts, key=lambda part: len(claim_words & set(content_words(part))))


def opposite_polarity(claim: str, sentence: str) -> tuple[str, str] | None:
    """A clause of the claim and the clause of `sentence` it aligns with, when one is
    negated and the other not; None when every clause of the claim agrees."""
    for claim_clause in clauses(claim) or [claim]:
        evidence_clause = best_clause(sentence, claim_clause)
        if negated(claim_clause) != negated(evidence_clause) or _bounds_disagree(
            claim_clause, evidence_clause
        ):
            return claim_clause, evidence_clause
    return None


def _bounds(text: str) -> dict[str, set[bool]]:
    found: dict[str, set[bool]] = {}
    for match in _BOUND.finditer(text):
        found.setdefault(" ".join(match.group(2).lower().split()), set()).add(bool(match.group(1)))
    return found


def _bounds_disagree(claim: str, evidence: str) -> bool:
    """The same bound, negated on one side only ("must exceed" against "must not exceed")."""
    in_evidence = _bounds(evidence)
    return any(
        key in in_evidence and not negations & in_evidence[key]
        for key, negations in _bounds(claim).items()
    )


def coverage_beside_polarity(claim: str, clause: str) -> float:
    """The share of the claim's content words in `clause`, words of permission and
    prohibition aside: "Smoking is allowed on the premises" against "Smoking is prohibited
    on the premises" is fully aligned, only the polarity differs; so is "It is not true that
    smoking is allowed", a truth frame aside."""
    claim_words = set(content_words(_TRUTH_FRAME.sub(" ", claim))) - _POLARITY_STEMS
    if not claim_words:
        return 0.0
    return len(claim_words & set(content_words(clause))) / len(claim_words)
