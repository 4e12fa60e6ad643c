"""A question as safe keyword-search words, and as an FTS5 query.

Quotes, NEAR, *, -, column filters and the like are never interpreted: each word is
quoted and the words are OR-ed, so BM25 ranks chunks by how many of them match. The
PostgreSQL store searches the same words (`keyword_words`), each as its own tsquery.

In a large corpus the embedded store leaves out the question's common words
(`telling_words`): those held by more than `COMMON_SHARE` of the chunks, and by more
than `COMMON_FLOOR` chunks, while a rarer word remains. A word in 0.5% of the chunks
weighs about half what a word in a handful does in BM25, and scoring it means ranking
every chunk that holds it.
"""

from __future__ import annotations

from collections.abc import Callable

from ragcite.text.stems import irregular_forms
from ragcite.text.words import STOPWORDS, WORD

COMMON_SHARE = 0.005
"""A word held by more than this share of the chunks is common..."""
COMMON_FLOOR = 1000
"""...when more than this many chunks hold it (a small corpus searches every word)."""


def keyword_words(text: str) -> list[str]:
    """The question's distinct words, lower-cased, stopwords dropped unless nothing else is left.

    >>> keyword_words("What is the NEAR operator? near!")
    ['near', 'operator']
    """
    # lower(), not casefold(): FTS5's unicode61 tokenizer lower-cases and nothing more.
    words = [w.lower() for w in WORD.findall(text)]
    return list(dict.fromkeys(w for w in words if w not in STOPWORDS)) or list(dict.fromkeys(words))


def with_other_forms(words: list[str], in_corpus: Callable[[str], bool]) -> list[str]:
    """`words`, and for each irregular one that no chunk holds, its other forms, which the
    stores' stemmers cannot reach: "lose" finds "lost", "paid" finds "pay". A form is added
    only for a word the corpus lacks, so a word the documents use is not diluted by its
    other forms ("keep" in a retention schedule that also says "kept").

    >>> with_other_forms(["lose", "laptop"], lambda word: word != "lose")
    ['lose', 'laptop', 'lost']
    >>> with_other_forms(["kept", "invoices"], lambda word: True)
    ['kept', 'invoices']
    """
    forms: list[str] = []
    for word in words:
        other = irregular_forms(word)
        if other and not in_corpus(word):
            forms += [form for form in other if form not in STOPWORDS]
    return list(dict.fromkeys([*words, *forms]))


def fts_match(words: list[str]) -> str:
    """A safe FTS5 query: the words, quoted, OR-ed (BM25 ranks by how many match)."""
    return " OR ".join(f'"{w}"' for w in words)


def fts_query(text: str) -> str:
    """A safe FTS5 query: the question's words, quoted, OR-ed (BM25 ranks by how many match)."""
    return fts_match(keyword_words(text))


def common_cutoff(chunks: int) -> int:
    """How many chunks may hold a word before it counts as common in a corpus of `chunks`."""
    return max(COMMON_FLOOR, int(COMMON_SHARE * chunks))


def telling_words(words: list[str], holding: dict[str, int], cutoff: int) -> list[str]:
    """The words held by at most `cutoff` chunks, or, when every word is common, the
    rarest one; words no chunk holds are dropped (they match nothing).

    >>> holding = {"film": 9000, "released": 7000, "kubrick": 12}
    >>> telling_words(["film", "released", "kubrick"], holding, 5000)
    ['kubrick']
    >>> telling_words(["film", "released"], {"film": 9000, "released": 7000}, 5000)
    ['released']
    """
    present = [w for w in words if holding.get(w, 0) > 0]
    if not present:
        return words[:1]
    rare = [w for w in present if holding[w] <= cutoff]
    return rare or [min(present, key=lambda w: holding[w])]
