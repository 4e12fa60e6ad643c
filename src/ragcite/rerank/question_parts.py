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
    r"whether|does|do|did|is|are|was|were|can|could|should|will|would|"
    r"whats|hows|wheres|whos|whens)\b))\s*",  # "… and whats the minimum": typed in a hurry
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


# A part that asks: it opens on a question word or a verb put first (not "my dad is 88"
# before "and can't wheel his bin …", nor "I want to ask about an exception.").
ASKS = re.compile(
    r"\s*(?:how|what|when|where|which|who|whom|whose|why|whether|can|could|do|does|did|is|"
    r"are|was|were|will|would|should|shall|may|might|must|have|has|am|"
    r"whats|hows|wheres|whos|whens)\b",
    re.IGNORECASE,
)


def asking_parts(query: str) -> list[str]:
    """`question_parts` without a statement after the last question mark: the asker's aside
    ("Who is the Head of Reward? I want to ask about an exception."), which retrieval reads
    ("… for my lab? She weighs about 30kg.") but no answer has to meet.

    >>> asking_parts("Who is the Head of Reward? I want to ask about an exception.")
    ['Who is the Head of Reward']
    """
    parts = question_parts(query)
    if len(parts) > 1 and not query.rstrip().endswith("?") and not ASKS.match(parts[-1]):
        return parts[:-1]
    return parts
