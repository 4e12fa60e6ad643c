"""A question as safe keyword-search words, and as an FTS5 query.

Quotes, NEAR, *, -, column filters and the like are never interpreted: each word is
quoted and the words are OR-ed, so BM25 ranks chunks by how many of them match. The
PostgreSQL store searches the same words (`keyword_words`), each as its own tsquery.
"""

from __future__ import annotations

from ragcite.text.words import STOPWORDS, WORD


def keyword_words(text: str) -> list[str]:
    """The question's distinct words, lower-cased, stopwords dropped unless nothing else is left.

    >>> keyword_words("What is the NEAR operator? near!")
    ['near', 'operator']
    """
    # lower(), not casefold(): FTS5's unicode61 tokenizer lower-cases and nothing more.
    words = [w.lower() for w in WORD.findall(text)]
    return list(dict.fromkeys(w for w in words if w not in STOPWORDS)) or list(dict.fromkeys(words))


def fts_query(text: str) -> str:
    """A safe FTS5 query: the question's words, quoted, OR-ed (BM25 ranks by how many match)."""
    return " OR ".join(f'"{w}"' for w in keyword_words(text))
