"""The support layers' view of text: sentences, content words with canonical numbers,
names. Words, numbers and stems come from `ragcite.text` (the one tokenizer).

>>> content_words("The stores were closing at 9 p.m. on Sundays")
['store', 'clos', '9', 'pm', 'sunday']
"""

from __future__ import annotations

import re

from ragcite.text.sentences import split_sentences as _spans
from ragcite.text.stems import stem
from ragcite.text.words import STOPWORDS, tokens
from ragcite.verify.support.quantities import NUMBER_WORDS, canonical_number, digit_values


def split_sentences(text: str) -> list[str]:
    """Sentences of `text` (the ingest splitter's spans), stripped, blanks dropped."""
    return [text[a:b].strip() for a, b in _spans(text) if text[a:b].strip()]


# Negation and exception words: never content words (polarity itself is judged in
# `polarity.py`).
NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nobody",
        "nothing",
        "neither",
        "nor",
        "cannot",
        "can't",
        "won't",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "hasn't",
        "haven't",
        "hadn't",
        "shouldn't",
        "wouldn't",
        "couldn't",
        "mustn't",
        "without",
        "except",
        "unless",
        "lacks",
        "lack",
        "lacking",
        "fails",
        "failed",
    ]
)


def content_words(text: str) -> list[str]:
    """Stemmed, lower-cased tokens with stopwords removed; numbers kept in canonical form."""
    out: list[str] = []
    for token in tokens(text):
        lower = token.lower().replace("’", "'")
        if lower in STOPWORDS or lower in NEGATIONS:
            continue
        if token[0].isdigit() or token[0] == "$":
            out.extend(canonical_number(v) for v in digit_values(token))
            continue
        out.append(stem(lower))
    return out


_ENTITY = re.compile(
    r"\b(?:[A-Z]\.){2,}|\b[A-Z][\w'’&-]*(?:\s+(?:of\s+|the\s+|de\s+|van\s+|von\s+)?[A-Z][\w'’&-]*)*"
)


def named_entities(text: str) -> list[str]:
    """Capitalised word runs, leading stopwords dropped ("The Beatles" -> "Beatles").

    A single capitalised word that starts a sentence is skipped: it is usually an ordinary
    word ("Employees may ..."), and a false name would read as a conflict.
    """
    out: list[str] = []
    for match in _ENTITY.finditer(text):
        parts = match.group(0).strip(" .'’-").split()
        sentence_start = (
            not text[: match.start()].strip() or text[: match.start()].rstrip()[-1] in ".!?:;\n"
        )
        while parts and (parts[0].lower() in STOPWORDS or parts[0].lower() in NEGATIONS):
            parts, sentence_start = parts[1:], False
        if sentence_start and len(parts) == 1:
            continue
        entity = " ".join(parts)
        if len(entity) > 1 and entity.lower() not in NUMBER_WORDS:
            out.append(entity)
    return out
