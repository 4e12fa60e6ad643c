"""A question as a safe FTS5 keyword query.

Quotes, NEAR, *, -, column filters and the like are never interpreted: each word is
quoted and the words are OR-ed, so BM25 ranks chunks by how many of them match.
"""

from __future__ import annotations

import re

from ragcite.text.words import STOPWORDS

_WORD = re.compile(r"\w+", re.UNICODE)


def fts_query(text: str) -> str:
    """A safe FTS5 query: the question's words, quoted, OR-ed (BM25 ranks by how many match)."""
    words = [w.lower() for w in _WORD.findall(text)]
    kept = list(dict.fromkeys(w for w in words if w not in STOPWORDS)) or list(dict.fromkeys(words))
    return " OR ".join(f'"{w}"' for w in kept)
