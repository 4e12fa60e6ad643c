"""The sub-questions of a compound question: "How long do we keep PII, and are backups
encrypted?" asks two things, and a chunk that answers either one is relevant.

Used by the extractive generator (one best sentence per part) and by reranking (each
chunk is scored against the whole question and each part, and keeps its best score).
"""

from __future__ import annotations

import re

from ragcite.text.words import QUESTION_STOPWORDS, words

# Where a compound question splits: "…, and does …", "…; what …", "…? How …".
_PART_BREAK = re.compile(
    r"\s*(?:[;?]|,\s*(?:and|or|but)\b|\band\s+(?=(?:how|what|when|where|who|which|why|"
    r"whether|does|do|did|is|are|was|were|can|could|should|will|would)\b))\s*",
    re.IGNORECASE,
)


def question_parts(query: str) -> list[str]:
    """The sub-questions of a compound question, or the question alone.

    >>> question_parts("How long do we keep PII, and does the EU differ from the US?")
    ['How long do we keep PII', 'does the EU differ from the US']
    """
    parts = [p.strip(" ,.?!") for p in _PART_BREAK.split(query)]
    parts = [p for p in parts if any(w not in QUESTION_STOPWORDS for w in words(p))]
    return parts or [query]
