"""A question word that is a typo of a passage word ("anual" for "annual"), and the question
retrieved again with the passages' spelling ("what if we miss the balence payment?": the
keyword lookup finds no "balence", and the passages write "balance").

A word counts as a typo when MiniLM's vocabulary (about 20,000 whole English words, shipped
with its tokenizer) does not know it and one edit — a letter added, dropped or changed, or two
neighbours swapped — turns it into a word of the passage. A real word one edit from another
("prize" for "price") is never read as a typo: the subject check must still notice a question
that changed a word. A name the question capitalises is a typo of a passage's name only when
both are seven letters or more and neither is a vocabulary word ("Hatmanis" for "Hartmanis"):
a short name one letter from another ("Jon", "Joan") may be someone else.

Rewriting the question for retrieval (`correct_typos`) is more careful than reading it past
a typo: the word must not be a form of a vocabulary word either ("invoices"), the passages
must not write it, and their most frequent one-edit word must differ from it inside the word,
neither at its first letter nor its last (`_slip_of`).

    >>> typo_of("anual", {"annual", "leave"})
    True
    >>> typo_of("prize", {"price"})
    False
    >>> correct_typos("what if we miss the balence payment?", ["The balance is due in May."])
    'what if we miss the balance payment?'
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources

from ragcite.embed.static import TOKENIZER_FILE
from ragcite.text.stems import stem
from ragcite.text.words import UNAPOSTROPHISED

MIN_LETTERS = 4
MIN_NAME_LETTERS = 7


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """The whole words of the shipped MiniLM tokenizer's vocabulary (lower case)."""
    raw = resources.files("ragcite.embed").joinpath(TOKENIZER_FILE).read_text(encoding="utf-8")
    return frozenset(w for w in json.loads(raw)["model"]["vocab"] if w.isalpha())


@lru_cache(maxsize=1)
def _vocabulary_stems() -> frozenset[str]:
    """The stems of the vocabulary's words: a question word with one of them is a form of a
    known word ("invoices", "recharged"), not a typo."""
    return frozenset(stem(w) for w in vocabulary())


def one_edit_apart(a: str, b: str) -> bool:
    """Whether `b` is `a` with one letter added, dropped or changed, or two neighbours
    swapped (not equal to it)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    start = 0
    while start < len(a) and a[start] == b[start]:
        start += 1
    if len(a) < len(b):  # one letter added to a
        return a[start:] == b[start + 1 :]
    if a[start + 1 :] == b[start + 1 :]:  # one letter changed
        return True
    return (  # two neighbours swapped
        start + 1 < len(a)
        and a[start] == b[start + 1]
        and a[start + 1] == b[start]
        and a[start + 2 :] == b[start + 2 :]
    )


def typo_of(word: str, words: Iterable[str]) -> bool:
    """Whether `word` (lower case) is a misspelling of one of `words`."""
    if len(word) < MIN_LETTERS or not word.isalpha() or word in vocabulary():
        return False
    return any(one_edit_apart(word, other) for other in words)


def name_typo_of(name: str, words: Iterable[str]) -> bool:
    """Whether `name` (a capitalised question word, lower-cased) misspells a name among
    `words`: both seven letters or more, neither in the vocabulary, one edit apart."""
    known = vocabulary()
    if len(name) < MIN_NAME_LETTERS or not name.isalpha() or name in known:
        return False
    return any(
        len(other) >= MIN_NAME_LETTERS and other not in known and one_edit_apart(name, other)
        for other in words
    )


_LOWER_WORD = re.compile(r"\b[a-z]+\b")
_WORD = re.compile(r"\b[A-Za-z]+\b")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def correct_typos(question: str, passages: Sequence[str]) -> str:
    """`question` with each word it misspells in lower case (`typo_of`) written as the
    passages write it, when they do not use it and one word of theirs, the most frequent, is
    a slip of it (`_slip_of`); unchanged otherwise."""
    known, known_stems = vocabulary(), _vocabulary_stems()
    asked = {
        w
        for w in _LOWER_WORD.findall(question)
        if len(w) >= MIN_LETTERS
        and w not in known
        and w not in UNAPOSTROPHISED
        and stem(w) not in known_stems  # "invoices": a form of a word it knows
    }
    if not asked:
        return question
    counts = [_word_counts(passage) for passage in passages]
    used = set().union(*counts)
    fixes: dict[str, str] = {}
    for word in sorted(asked - used):
        near = Counter({w: sum(c[w] for c in counts) for w in _one_edit(word) & used})
        ranked = near.most_common(2)
        alone = ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1])  # no tie
        if alone and _slip_of(word, ranked[0][0]):
            fixes[word] = ranked[0][0]
    if not fixes:
        return question
    return _LOWER_WORD.sub(lambda m: fixes.get(m.group(0), m.group(0)), question)


@lru_cache(maxsize=4096)
def _word_counts(passage: str) -> Counter[str]:
    """How often a passage writes each word, in lower case (read once per passage)."""
    return Counter(w.lower() for w in _WORD.findall(passage))


def _one_edit(word: str) -> set[str]:
    """The words one edit after `word`'s first letter makes: a letter added, dropped or
    changed, or two neighbours swapped."""
    out: set[str] = set()
    for i in range(1, len(word) + 1):
        head, tail = word[:i], word[i:]
        out.update(head + c + tail for c in _LETTERS)
        if tail:
            out.add(head + tail[1:])
            out.update(head + c + tail[1:] for c in _LETTERS)
        if len(tail) > 1:
            out.add(head + tail[1] + tail[0] + tail[2:])
    out.discard(word)
    return out


def _slip_of(word: str, other: str) -> bool:
    """Whether `other` is `word` with one slip of the keys inside it ("balence": "balance",
    "accomodation": "accommodation"): one edit, neither at the first letter ("rata" is not
    "data") nor at the last, where a word's other forms differ ("cheque": "cheques",
    "approves": "approved", "plagiarise": "plagiarism")."""
    if not one_edit_apart(word, other) or word[0] != other[0]:
        return False
    start = next((i for i, (a, b) in enumerate(zip(word, other, strict=False)) if a != b), None)
    return start is not None and start < min(len(word), len(other)) - 1
