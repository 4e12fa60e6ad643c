"""Shared text handling for the support layers: sentences, words, stems, names.

>>> content_words("The stores were closing at 9 p.m. on Sundays")
['store', 'clos', '9', 'pm', 'sunday']
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragcite.text.sentences import split_sentences as _spans
from ragcite.text.words import STOPWORDS
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

_WORD = re.compile(r"[A-Za-z][A-Za-z'’.-]*[A-Za-z]|[A-Za-z]|\$?\d[\d,]*(?:\.\d+)?%?[kKmMbB]?\b")
_SUFFIXES = (
    "ational",
    "ization",
    "ations",
    "ation",
    "ments",
    "ment",
    "ness",
    "ingly",
    "ings",
    "ing",
    "edly",
    "ies",
    "ied",
    "ers",
    "er",
    "ed",
    "es",
    "ly",
    "s",
)


# Irregular past forms and plurals the suffix rules cannot reach ("kept" / "keeps"),
# mapped to a base the rules then stem like its regular forms. Ambiguous ones stay out
# ("left", "saw", "rose", "fell", "lay", "ground").
_IRREGULAR = {
    form: base
    for base, forms in {
        "arise": "arose arisen",
        "become": "became",
        "begin": "began begun",
        "blow": "blew blown",
        "break": "broke broken",
        "bring": "brought",
        "build": "built",
        "buy": "bought",
        "catch": "caught",
        "child": "children",
        "choose": "chose chosen",
        "come": "came",
        "deal": "dealt",
        "draw": "drew drawn",
        "drink": "drank",
        "drive": "drove driven",
        "eat": "ate eaten",
        "feed": "fed",
        "feel": "felt",
        "fight": "fought",
        "find": "found",
        "flee": "fled",
        "fly": "flew flown",
        "foot": "feet",
        "forget": "forgot forgotten",
        "freeze": "froze frozen",
        "get": "got gotten",
        "give": "gave given",
        "go": "went gone",
        "grow": "grew grown",
        "hear": "heard",
        "hide": "hid hidden",
        "hold": "held",
        "keep": "kept",
        "know": "knew known",
        "lead": "led",
        "lend": "lent",
        "lose": "lost",
        "make": "made",
        "man": "men",
        "mean": "meant",
        "meet": "met",
        "pay": "paid",
        "rise": "risen",
        "run": "ran",
        "say": "said",
        "see": "seen",
        "seek": "sought",
        "sell": "sold",
        "send": "sent",
        "show": "shown",
        "sing": "sang sung",
        "sleep": "slept",
        "speak": "spoke spoken",
        "spend": "spent",
        "stand": "stood",
        "steal": "stole stolen",
        "stick": "stuck",
        "strike": "struck",
        "take": "took taken",
        "teach": "taught",
        "tell": "told",
        "think": "thought",
        "throw": "threw thrown",
        "understand": "understood",
        "wear": "wore worn",
        "win": "won",
        "withdraw": "withdrew withdrawn",
        "woman": "women",
        "write": "wrote written",
    }.items()
    for form in forms.split()
}


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A light suffix-stripping stem; good enough to match 'closing' with 'closed', and
    'kept' with 'keeps'."""
    w = word.lower().replace("’", "'").removesuffix("'s").strip("'.-").replace(".", "")
    w = _IRREGULAR.get(w, w)
    if w.isdigit() or len(w) <= 3:
        return w
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    # Final e's go too, so "store"/"stores", "remote"/"remotely", "employee(s)" agree.
    stripped = w.rstrip("e")
    return stripped if len(stripped) >= 3 else w


def words(text: str) -> list[str]:
    """Word and number tokens as written."""
    return _WORD.findall(text)


def content_words(text: str) -> list[str]:
    """Stemmed, lower-cased tokens with stopwords removed; numbers kept in canonical form."""
    out: list[str] = []
    for token in words(text):
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
