"""Is a name from the claim in the evidence? As written, by its stems, as an acronym.

"CFO" is found in "the Chief Financial Officer approves" and "General Data Protection
Regulation" in "the GDPR applies"; "Wi-Fi" in "WiFi". Initials count only over
capitalised words, so "customers earn only" is no "CEO".

>>> entity_found("CFO", "Approved by the Chief Financial Officer.", set())
True
"""

from __future__ import annotations

import re

from ragcite.text.stems import stem
from ragcite.text.words import tokens

_CONNECTORS = frozenset(["of", "and", "for", "the", "on", "in", "to", "&"])
_ACRONYM = re.compile(r"[A-Z]{2,6}")


def _squashed(text: str) -> str:
    return re.sub(r"[\s-]+", "", text.lower())


def _initials(name: str) -> str:
    """GDPR for "General Data Protection Regulation": connecting words are skipped."""
    return "".join(w[0] for w in name.split() if w.lower() not in _CONNECTORS).upper()


def _expands(acronym: str, evidence: str) -> bool:
    """True when `evidence` writes `acronym` out as capitalised words ("CFO" and "Chief
    Financial Officer"); connecting words in between are skipped."""
    written = tokens(evidence)
    for i, token in enumerate(written):
        if token[0] != acronym[0]:
            continue
        letters = ""
        for word in written[i:]:
            if letters and word.lower() in _CONNECTORS:
                continue
            if not word[0].isupper():
                break
            letters += word[0]
            if len(letters) == len(acronym):
                break
        if letters == acronym:
            return True
    return False


def entity_found(entity: str, evidence: str, evidence_stems: set[str]) -> bool:
    """True when `evidence` holds `entity`; `evidence_stems` are the stems of its words."""
    if entity.lower() in evidence.lower():
        return True
    if "-" in entity and _squashed(entity) in _squashed(evidence):  # "Wi-Fi", "WiFi"
        return True
    stems = [stem(t) for t in tokens(entity)]
    if stems and all(t in evidence_stems for t in stems):
        return True
    bare = entity.rstrip("s")
    if _ACRONYM.fullmatch(bare):
        return _expands(bare, evidence)
    initials = _initials(entity)
    return len(initials) >= 2 and " " in entity and initials in set(tokens(evidence))
