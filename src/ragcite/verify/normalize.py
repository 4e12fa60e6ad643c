"""Text normalisation for quote matching, with a map back to the original offsets.

Both sides of a quote check are normalised the same way: curly quotes and
primes folded to straight ones, dashes to '-', the ellipsis character to '...',
ligatures spelled out ("ﬁ" to "fi"), soft hyphens dropped, every run of whitespace to
one space, and case folded. On request a word hyphenated across a line break is joined
("reten-\ntion" to "retention"), as PDF text often breaks words. The offset map lets the
gate record where in the *original* chunk a normalised match lies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

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
# Whether each code point is whitespace; every code point past the table is not.
_IS_SPACE = np.array([chr(c).isspace() for c in range(0x3002)], dtype=bool)


def normalize_with_map(text: str, *, join_broken_words: bool = False) -> NormalizedText:
    mapped = None if join_broken_words and has_broken_words(text) else _origin_map(text)
    if mapped is None:
        return _normalize_each_char(text, join_broken_words=join_broken_words)
    lowered, origin = mapped
    return NormalizedText(" ".join(lowered.split()), tuple(origin.tolist()))


def _origin_map(text: str) -> tuple[str, np.ndarray] | None:
    """`text` folded and lowered (whitespace kept) and, for each character of it with
    whitespace collapsed, its index in `text`; None where a character lowers to two."""
    folded = _FOLDED_CHARS.sub(_fold_char, text)
    if "\u2026" in folded:
        folded = folded.replace("\u2026", "...")
    lowered = folded.casefold()
    if len(lowered) != len(folded):  # some character case-folds to more than one: lower it
        lowered = _lower_growing(folded)
        if len(lowered) != len(folded):  # and it lowers to two ("İ")
            return None
    origin = _collapsed_origin(lowered)
    resizing = list(_RESIZING_CHARS.finditer(text))
    if resizing:  # where each original character went in `folded`
        sizes = np.ones(len(text), dtype=np.int64)
        for match in resizing:
            sizes[match.start()] = len(_FOLD_CHARS.get(match.group(), "..."))
        origin = np.repeat(np.arange(len(text)), sizes)[origin]
    return lowered, origin


def _collapsed_origin(text: str) -> np.ndarray:
    """For `text` with each run of whitespace made one space, the index in `text` of each
    character; a space maps to the character after it, as in `_normalize_each_char`."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    kept = np.flatnonzero(~_IS_SPACE[np.minimum(codes, len(_IS_SPACE) - 1)])
    # Each run of kept characters after the first is preceded by one space.
    run_start = np.ones(len(kept), dtype=bool)
    run_start[1:] = np.diff(kept) > 1
    run_start[:1] = False
    return np.repeat(kept, 1 + run_start.astype(np.int64))


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
            lowered = ch.casefold() if len(ch.casefold()) == 1 else ch.lower()
            chars.append(lowered)
            origin.extend([index] * len(lowered))  # "İ" lowers to two characters
    return NormalizedText("".join(chars), tuple(origin))


def normalize(text: str, *, join_broken_words: bool = False) -> str:
    """The normalised form of `text` (see the module docstring), without the offset map."""
    return " ".join(_fold(text, join_broken_words=join_broken_words)[0].split())


def has_broken_words(text: str) -> bool:
    """True when joining words broken across lines would change `text`."""
    return "\n" in text and BROKEN_WORD.search(text) is not None


def find_normalized(
    text: str, needle: str, *, join_broken_words: bool = False
) -> tuple[int, int] | None:
    """The original span of the first `needle` (already normalised) in normalised `text`.

    The same answer as `normalize_with_map(text).text.find(needle)` mapped back through
    `original_span`; the offset map is built only for a hit in a text where some
    character does not fold to exactly one.

    >>> find_normalized("Kept  for\n3 Years.", "for 3 years")
    (6, 17)
    """
    lowered, in_place = _fold(text, join_broken_words=join_broken_words)
    if not needle:
        return None
    at = lowered.find(needle)
    # Each run of the needle between spaces lies inside one word of the text.
    if at < 0 and max(needle.split(" "), key=len) not in lowered:
        return None
    edges_kept = not needle[0].isspace() and not needle[-1].isspace()
    lead = 0
    if lowered[:1].isspace() or lowered[-1:].isspace():  # often only a trailing newline
        lead = len(lowered) - len(lowered.lstrip())
    core = lowered.strip() if lead or lowered[-1:].isspace() else lowered
    if in_place and edges_kept and _regular_spaces(core):  # normalised, it is `core`
        at = at if core is lowered else core.find(needle)
        return None if at < 0 else (lead + at, lead + at + len(needle))
    haystack = " ".join(lowered.split())
    at = haystack.find(needle)
    if at < 0:
        return None
    mapped = None
    if not in_place and not (join_broken_words and has_broken_words(text)):
        mapped = _origin_map(text)
    if mapped is not None:  # only the two ends are looked up, no whole map is built
        return int(mapped[1][at]), int(mapped[1][at + len(needle) - 1]) + 1
    if not in_place:
        return normalize_with_map(text, join_broken_words=join_broken_words).original_span(
            at, at + len(needle)
        )
    origin = _collapsed_origin(lowered)
    return int(origin[at]), int(origin[at + len(needle) - 1]) + 1


# Whitespace other than the plain space, spelled out (a plain character set is the fastest).
_OTHER_SPACE = re.compile(
    "[" + "".join(re.escape(chr(c)) for c in range(0x3001) if chr(c).isspace() and c != 32) + "]"
)
_ASCII_OTHER_SPACES = tuple(chr(c) for c in range(128) if chr(c).isspace() and c != 32)
_FOLD_CHARS: dict[str, str] = {chr(k): v or "" for k, v in _FOLD.items()}
_FOLDED_CHARS = re.compile("[" + "".join(re.escape(c) for c in _FOLD_CHARS) + "]")
_FOLD_ITEMS = tuple(_FOLD_CHARS.items())
_RESIZING_CHARS = re.compile("[" + "".join(re.escape(c) for c in sorted(_RESIZING)) + "]")


def _fold_char(match: re.Match[str]) -> str:
    return _FOLD_CHARS[match.group()]


def _replace_folding(text: str) -> tuple[str, bool]:
    """`text` with each character that folds replaced (the ellipsis by "..."); True when
    each replaced character became exactly one. A scan per folding character is cheaper
    than a regular expression's callback per match."""
    resized = False
    for char, folded in _FOLD_ITEMS:
        if char in text:
            text = text.replace(char, folded)
            resized = resized or len(folded) != 1
    if "\u2026" in text:
        text, resized = text.replace("\u2026", "..."), True
    return text, not resized


@lru_cache(maxsize=128)  # the gate checks several quotes against one chunk
def _fold_plain(text: str) -> tuple[str, str, bool]:
    """For non-ASCII `text`: its folding characters replaced, that case-folded, and whether
    each character of `text` is one in the case-folded form."""
    folded, in_place = _replace_folding(text)
    cased = folded.casefold()
    return folded, cased, in_place and len(cased) == len(text)


def clear_caches() -> None:
    """Forget the folded texts kept per chunk (benchmarks measure cold checks)."""
    _fold_plain.cache_clear()


def case_folded(text: str) -> str:
    """`text` with the characters that fold replaced (or deleted) and case-folded, no
    character lowered instead: each word of a quote (`words`) that a normalised match of it
    in `text` holds is a substring of this (with no word broken across lines).

    >>> case_folded("Stra\u00dfe \ufb01ne re\u00adview")
    'strasse fine review'
    """
    return text.lower() if text.isascii() else _fold_plain(text)[1]


def _fold(text: str, *, join_broken_words: bool) -> tuple[str, bool]:
    """`text` folded and case-folded, whitespace kept; True when each character of `text`
    became exactly one (so offsets in the result are offsets in `text`)."""
    if text.isascii() and not (join_broken_words and has_broken_words(text)):
        # The one ASCII character that folds is the backtick.
        return (text.replace("`", "'") if "`" in text else text).lower(), True
    if join_broken_words and has_broken_words(text):
        folded = _replace_folding(BROKEN_WORD.sub("", text))[0]
        lowered = folded.casefold()
        if len(lowered) != len(folded):  # as in `_normalize_each_char`
            lowered = _lower_growing(folded)
        return lowered, False
    folded, lowered, in_place = _fold_plain(text)
    if len(lowered) != len(folded):  # as in `_normalize_each_char`: lower() where casefold grows
        return _lower_growing(folded), False
    return lowered, in_place


def _lower_growing(text: str) -> str:
    """`text` case-folded, except that a character whose case-folded form is longer is
    lowered instead (one pass per stretch between such characters, not per character)."""
    pieces: list[str] = []
    last = 0
    for match in _growing_chars().finditer(text):
        pieces += [text[last : match.start()].casefold(), match.group().lower()]
        last = match.end()
    pieces.append(text[last:].casefold())
    return "".join(pieces)


_BMP_END = 0x10000


@cache
def _growing_chars() -> re.Pattern[str]:
    """The characters whose case-folded form is longer than one ("ß", "ŉ", "ﬀ"): all in the
    Basic Multilingual Plane (a test holds that for the Unicode data Python ships)."""
    grows = [chr(c) for c in range(_BMP_END) if len(chr(c).casefold()) > 1]
    return re.compile("[" + "".join(re.escape(c) for c in grows) + "]")


def _regular_spaces(text: str) -> bool:
    """True when collapsing whitespace leaves `text` as it is: one space between words."""
    return (
        not text.startswith(" ")
        and not text.endswith(" ")
        and "  " not in text
        and (
            text.isprintable()  # one pass: every whitespace character but " " is unprintable
            or (
                not any(space in text for space in _ASCII_OTHER_SPACES)  # each a fast C scan
                if text.isascii()
                else _OTHER_SPACE.search(text) is None
            )
        )
    )
