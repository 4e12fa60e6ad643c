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


def normalize_with_map(text: str, *, join_broken_words: bool = False) -> NormalizedText:
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


def normalize(text: str) -> str:
    """The normalised form of `text` (see the module docstring)."""
    return normalize_with_map(text).text
