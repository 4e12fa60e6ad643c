"""Text normalisation for quote matching, with a map back to the original offsets.

Both sides of a quote check are normalised the same way: curly quotes and
primes folded to straight ones, dashes to '-', the ellipsis character to '...',
ligatures spelled out ("ﬁ" to "fi"), soft hyphens dropped, every run of whitespace to
one space, and case folded. On request a word hyphenated across a line break is joined
("reten-\ntion" to "retention"), as PDF text often breaks words. The offset map lets the
gate record where in the *original* chunk a normalised match lies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ragcite.text.print_marks import BROKEN_WORD, LIGATURES_AND_SOFT_HYPHENS

_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u202f": " ",
        "\u2009": " ",
        "\u200b": "",
    }
    | LIGATURES_AND_SOFT_HYPHENS
)


@dataclass(frozen=True)
class NormalizedText:
    """`text` normalised; `origin[i]` is the index in the original of normalised char i."""

    text: str
    origin: tuple[int, ...]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The original [start, end) covering normalised [start, end)."""
        return self.origin[start], self.origin[end - 1] + 1


# Characters whose folded form is not exactly one character: the fast path avoids them.
_RESIZING = frozenset(
    [
        key if isinstance(key, str) else chr(key)
        for key, value in _FOLD.items()
        if len(value or "") != 1
    ]
    + ["\u2026"]
)
_WHITESPACE = np.array([c for c in range(0x3001) if chr(c).isspace()], dtype=np.uint32)


def normalize_with_map(text: str, *, join_broken_words: bool = False) -> NormalizedText:
    if _RESIZING.isdisjoint(text) and not (join_broken_words and BROKEN_WORD.search(text)):
        folded = text.translate(_FOLD)
        lowered = folded.casefold()
        if len(lowered) == len(folded):  # every character folds to exactly one
            return _collapse_spaces(lowered)
    return _normalize_each_char(text, join_broken_words=join_broken_words)


def _collapse_spaces(text: str) -> NormalizedText:
    """`text` (already folded, one character per original one) with each run of whitespace
    made one space; a space maps to the character after it, as in `_normalize_each_char`."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    kept = np.flatnonzero(~np.isin(codes, _WHITESPACE))
    # Each run of kept characters after the first is preceded by one space.
    run_start = np.ones(len(kept), dtype=bool)
    run_start[1:] = np.diff(kept) > 1
    run_start[:1] = False
    origin = np.repeat(kept, 1 + run_start.astype(np.int64))
    return NormalizedText(" ".join(text.split()), tuple(origin.tolist()))


def _normalize_each_char(text: str, *, join_broken_words: bool) -> NormalizedText:
    chars: list[str] = []
    origin: list[int] = []
    pending_space = False
    skip = (
        {i for m in BROKEN_WORD.finditer(text) for i in range(m.start(), m.end())}
        if join_broken_words
        else set()
    )
    for index, raw in enumerate(text):
        if index in skip:
            continue
        folded = raw.translate(_FOLD)
        if folded == "\u2026":
            folded = "..."
        for ch in folded:
            if ch.isspace():
                pending_space = bool(chars)
                continue
            if pending_space:
                chars.append(" ")
                origin.append(index)
                pending_space = False
            chars.append(ch.casefold() if len(ch.casefold()) == 1 else ch.lower())
            origin.append(index)
    return NormalizedText("".join(chars), tuple(origin))


def normalize(text: str, *, join_broken_words: bool = False) -> str:
    """The normalised form of `text` (see the module docstring), without the offset map."""
    if _RESIZING.isdisjoint(text) and not (join_broken_words and BROKEN_WORD.search(text)):
        lowered = text.translate(_FOLD).casefold()
        if len(lowered) == len(text):
            return " ".join(lowered.split())
    return normalize_with_map(text, join_broken_words=join_broken_words).text
