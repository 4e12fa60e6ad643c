"""A rule about a table row's subject answers a may-I question before the row itself.

"We've got 2 cocker spaniels, can they come with us on Kingfisher?" names the row
"Kingfisher — Berths: 2; Length: 45 ft; Low season: £845; …", whose label fit
(`fits.row_fit`) would bring it first, though none of its cells says anything the question
asks. The sentence "Dogs are not allowed on Kingfisher." names the same boat and states the
rule. Such a row loses its label fit (`rules_over_rows`); a row one of whose headers or cells
holds another word of the question ("Dogs allowed?: No") keeps it.

    >>> from ragcite.generate.joining import Candidate
    >>> row = Candidate(0, 1, 0, "Kingfisher — Berths: 2; Length: 45 ft", "", "c1", 0.34, 2, 0.1)
    >>> rule = Candidate(1, 2, 0, "Dogs are not allowed on Kingfisher.", "", "c2", 0.43, 0, 0.1)
    >>> [c.fit for c in rules_over_rows("can our dogs come on Kingfisher?", [row, rule])]
    [0, 0]
"""

from __future__ import annotations

import re
from dataclasses import replace

from ragcite.generate.focus import focus_match, question_focus
from ragcite.generate.joining import Candidate
from ragcite.text.table_rows import LABEL_SEPARATOR, is_table_row
from ragcite.text.words import content_stems


def rules_over_rows(question: str, candidates: list[Candidate]) -> list[Candidate]:
    """`candidates`, a row named by its label alone losing its fit for a may-I question when
    a sentence among them names the row's label and states a rule (`focus_match`)."""
    rows = [c for c in candidates if c.fit and is_table_row(c.text)]
    if not rows or question_focus(question) != "permission":
        return candidates
    rules = [
        c.text.lower()
        for c in candidates
        if not is_table_row(c.text) and focus_match("permission", c.text) == 1.0
    ]
    if not rules:
        return candidates
    bare = {
        id(row)
        for row in rows
        if _says_nothing_asked(row.text, question) and _named_in(row.text, rules)
    }
    return [replace(c, fit=0) if id(c) in bare else c for c in candidates]


def _says_nothing_asked(row: str, question: str) -> bool:
    """Whether none of the question's words past the row's label is in its headers or cells
    (numbers aside: "2 cocker spaniels" is not "Berths: 2")."""
    label, _, cells = row.partition(LABEL_SEPARATOR)
    asked = content_stems(question) - content_stems(label)
    return not any(s.isalpha() and len(s) > 1 for s in asked & content_stems(cells))


def _named_in(row: str, sentences: list[str]) -> bool:
    """Whether one of the (lower-cased) sentences names the row's label as words."""
    label = " ".join(row.partition(LABEL_SEPARATOR)[0].lower().split())
    if len(label) < 2:
        return False
    said = re.compile(rf"(?<!\w){re.escape(label)}(?!\w)")
    return any(said.search(s) for s in sentences)
