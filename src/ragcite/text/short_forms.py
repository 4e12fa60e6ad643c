"""Shortened words a question uses and its passages write in full.

Users write "prod access", "a sev 2", "admin rights", "the docs"; an access procedure says
"production access", an incident procedure "Severity 2". Neither lookup knows the short
word, and the subject check reads it as a topic the documents never mention. A question
word that is a common shortening (`SHORT_FORMS`) and that none of the passages uses is
read as its full form when one of the passages uses that (case ignored, plural kept):
only the passages given are read, so an expansion is always the documents' own word.
`spell_out` does this, `ragcite.text.acronyms`'s expansion ("PO": "purchase order") and
`ragcite.text.plain_verbs`'s and `ragcite.text.plain_words`'s rewordings ("come back":
"return", "per head": "per person") together: it is what
retrieval, the generator and the subject check read.

    >>> expand_short_forms("How fast is a sev 2 handled?", ["Severity 2: one system degraded."])
    'How fast is a severity 2 handled?'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcite.text.acronyms import expand_acronyms
from ragcite.text.clock_words import clock_digits
from ragcite.text.plain_verbs import formal_verbs
from ragcite.text.plain_words import formal_words

# Shortenings common in workplace questions, each with the full forms it may stand for
# (the first that the passages use is read). Plurals are derived ("docs": "documents").
SHORT_FORMS: dict[str, tuple[str, ...]] = {
    "admin": ("administrator", "administration", "administrative"),
    "app": ("application",),
    "appt": ("appointment",),
    "approx": ("approximately",),
    "auth": ("authentication", "authorisation", "authorization"),
    "biz": ("business",),
    "comms": ("communications",),
    "config": ("configuration",),
    "corp": ("corporate", "corporation"),
    "dept": ("department",),
    "dev": ("development", "developer"),
    "doc": ("document", "documentation"),
    "eng": ("engineering", "engineer"),
    "env": ("environment",),
    "exec": ("executive",),
    "info": ("information",),
    "jab": ("vaccination", "vaccine", "injection"),
    "intl": ("international",),
    "mgmt": ("management",),
    "mgr": ("manager",),
    "min": ("minute", "minimum"),
    "hr": ("hour",),
    "mat": ("maternity",),
    "max": ("maximum",),
    "msg": ("message",),
    "ops": ("operations",),
    "org": ("organisation", "organization"),
    "pat": ("paternity",),
    "perf": ("performance",),
    "prod": ("production",),
    "prom": ("promenade",),
    "qty": ("quantity",),
    "ref": ("reference",),
    "reimb": ("reimbursement",),
    "repo": ("repository",),
    "rep": ("representative",),
    "req": ("request", "requirement"),
    "sev": ("severity",),
    "spec": ("specification",),
    "stats": ("statistics",),
    "sub": ("subscription",),
    "sys": ("system",),
    "temp": ("temporary",),
    "uni": ("university",),
    "veg": ("vegetables", "vegetable"),
    "yr": ("year",),
    "hol": ("holiday",),
    "wk": ("week",),
}
_WORD = re.compile(r"\b[A-Za-z]+\b")


def spell_out(question: str, passages: Sequence[str]) -> str:
    """`question` with its acronyms, shortened words and everyday verbs in the passages' own
    words (unchanged when the passages write none of them their way), and its clock times
    said in words ("half 3") in digits."""
    spelled = expand_short_forms(expand_acronyms(clock_digits(question), passages), passages)
    return formal_words(formal_verbs(spelled, passages), passages)


def expand_short_forms(question: str, passages: Sequence[str]) -> str:
    """`question` with each shortened word that the passages never use but write in full
    replaced by that full form, in lower case (the question unchanged when there is none).
    A word in capitals is an acronym ("HR", "DOC"), not a shortening."""
    asked = {m.group(0).lower() for m in _WORD.finditer(question) if not m.group(0).isupper()}
    candidates = {w for w in asked if _full_forms(w)}
    if not candidates:
        return question
    used = {w.lower() for passage in passages for w in _WORD.findall(passage)}
    expansions: dict[str, str] = {}
    for word in sorted(candidates - used):
        full = next((f for f in _full_forms(word) if f in used), None)
        if full is not None:
            expansions[word] = full
    if not expansions:
        return question

    def replace(match: re.Match[str]) -> str:
        word = match.group(0)
        return word if word.isupper() else expansions.get(word.lower(), word)

    return _WORD.sub(replace, question)


def _full_forms(word: str) -> tuple[str, ...]:
    """The full forms `word` may stand for, plurals for a plural ("docs": "documents")."""
    if word in SHORT_FORMS:
        return SHORT_FORMS[word]
    if word.endswith("s") and word[:-1] in SHORT_FORMS:
        return tuple(f"{full}s" for full in SHORT_FORMS[word[:-1]])
    return ()
