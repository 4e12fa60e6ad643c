"""Text normalisation for quote matching, with a map back to the original offsets.

Both sides of a quote check are normalised the same way: curly quotes and
primes folded to straight ones, dashes to '-', the ellipsis character to '...',
ligatures spelled out ("ﬁ" to "fi"), soft hyphens dropped, every run of whitespace to
one space, and case folded. On request a word hyphenated across a line break is joined
("reten-\ntion" to "retention"), as PDF text often breaks words. The offset map lets the
gate record where in the *original* chunk a normalised match lies; the quote check's
search itself (`ragcite.verify.folded_search`) builds it only where it must.
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
    mapped = None if join_broken_words and has_broken_words(text) else origin_map(text)
    if mapped is None:
        return _normalize_each_char(text, join_broken_words=join_broken_words)
    lowered, origin = mapped
    return NormalizedText(" ".join(lowered.split()), tuple(origin.tolist()))


def origin_map(text: str) -> tuple[str, np.ndarray] | None:
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
    origin = collapsed_origin(lowered)
    resizing = list(_RESIZING_CHARS.finditer(text))
    if resizing:  # where each original character went in `folded`
        sizes = np.ones(len(text), dtype=np.int64)
        for match in resizing:
            sizes[match.start()] = len(_FOLD_CHARS.get(match.group(), "..."))
        origin = np.repeat(np.arange(len(text)), sizes)[origin]
    return lowered, origin


def collapsed_origin(text: str) -> np.ndarray:
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
    # `fold_lowered(text, ...)[0]`, its two commonest cases inline.
    if text.isascii() and ("\n" not in text or not join_broken_words):
        lowered = (text.replace("`", "'") if "`" in text else text).lower()
    elif join_broken_words:
        lowered = fold_lowered(text, join_broken_words=True)[0]
    else:
        lowered = folded_forms(text)[0]
    # A quote is mostly spaced regularly already: then collapsing whitespace keeps it as is.
    return lowered if regular_spaces(lowered) else " ".join(lowered.split())


def has_broken_words(text: str) -> bool:
    """True when joining words broken across lines would change `text`."""
    return "\n" in text and BROKEN_WORD.search(text) is not None


# Whitespace beyond ASCII (none lies past U+3000).
_NON_ASCII_SPACES = tuple(chr(c) for c in range(0x80, 0x3001) if chr(c).isspace())
_FOLD_CHARS: dict[str, str] = {chr(k): v or "" for k, v in _FOLD.items()}
_FOLDED_CHARS = re.compile("[" + "".join(re.escape(c) for c in _FOLD_CHARS) + "]")
# The backtick (ASCII: it must be replaced before a text that is ASCII stops the scan),
# then the commonest (in the benchmark passages: dashes, curly quotes, the no-break
# space), so that a text where they were all that was not ASCII stops early.
_FIRST_FOLDS = "`\u2013\u2014\u2019\u201c\u201d\u00a0\u2018\u2212"
_FOLD_ITEMS = tuple(
    sorted(
        _FOLD_CHARS.items(),
        key=lambda item: (item[0] not in _FIRST_FOLDS, _FIRST_FOLDS.find(item[0])),
    )
)
_RESIZING_CHARS = re.compile("[" + "".join(re.escape(c) for c in sorted(_RESIZING)) + "]")
# Folded, every character case-folds or lowers to one but this ("i" and a dot above).
LOWERS_TO_TWO = "\u0130"
_RESIZED_SIZES = {c: len(_FOLD_CHARS.get(c, "...")) for c in _RESIZING} | {LOWERS_TO_TWO: 2}
_RESIZED_ITEMS = tuple(sorted(_RESIZED_SIZES.items()))


def _fold_char(match: re.Match[str]) -> str:
    return _FOLD_CHARS[match.group()]


def _replace_folding(
    text: str, items: tuple[tuple[str, str], ...] = _FOLD_ITEMS
) -> tuple[str, bool]:
    """`text` with each character that folds (of `items`) replaced (the ellipsis by "...");
    True when each replaced character became exactly one. A scan per folding character is
    cheaper than a regular expression's callback per match."""
    resized = False
    for char, folded in items:
        if char in text:
            text = text.replace(char, folded)
            resized = resized or len(folded) != 1
            if text.isascii():  # what folded was all that was not ASCII: nothing else folds
                return text, not resized
    if "\u2026" in text:
        text, resized = text.replace("\u2026", "..."), True
    return text, not resized


@lru_cache(maxsize=128)  # the gate checks several quotes against one chunk
def folded_forms(text: str) -> tuple[str, str, bool]:
    """For non-ASCII `text`, its folding characters replaced and then: lowered (as
    `fold_lowered`), case-folded (as `case_folded`), and whether each character of `text`
    became exactly one."""
    folded, in_place = _replace_folding(text, _COMMON_FOLDS)  # stops once ASCII
    if folded.isascii():
        case = folded.lower()
    else:
        raw = folded.encode("latin-1", "ignore")
        if len(raw) == len(folded) and not any(map(raw.__contains__, _LATIN1_UNFOLDABLE)):
            # Latin-1, so are its other folding characters: folded with the case at once.
            case = raw.translate(_LATIN1_FOLD_CASEFOLD, b"\xad").decode("latin-1")
            return case, case, in_place and len(case) == len(folded)
        rest, rest_in_place = _replace_folding(folded, _OTHER_FOLDS)
        # Unchanged, it is still not Latin-1 (or holds "µ" or "ß"): not tested again.
        case = folded.casefold() if rest is folded else _casefold(rest)
        folded, in_place = rest, in_place and rest_in_place
    # As in `_normalize_each_char`: lower() where casefold grows ("ß"; "İ" lowers to two).
    lowered = case if len(case) == len(folded) else _lower_growing(folded)
    # No character case-folds or lowers to none: the same length means one for one.
    return lowered, case, in_place and len(lowered) == len(text)


def _casefold(text: str) -> str:
    """`text.casefold()`; a text of Latin-1 characters that case-fold to one Latin-1
    character each (all but "µ" and "ß") folded by one bytes.translate, not character by
    character through the Unicode tables (about 4 times faster on 800 characters)."""
    if text.isascii():
        return text.lower()
    raw = text.encode("latin-1", "ignore")
    if len(raw) != len(text) or any(map(raw.__contains__, _LATIN1_UNFOLDABLE)):
        return text.casefold()
    return raw.translate(_LATIN1_CASEFOLD).decode("latin-1")


def _latin1_casefold(code: int) -> int | None:
    """The Latin-1 code point `chr(code)` case-folds to, if it folds to one."""
    folded = chr(code).casefold()
    return ord(folded) if len(folded) == 1 and ord(folded) < _LATIN1_END else None


_LATIN1_END = 256
_LATIN1_UNFOLDABLE = [c for c in range(_LATIN1_END) if _latin1_casefold(c) is None]
_LATIN1_CASEFOLD = bytes(_latin1_casefold(c) or c for c in range(_LATIN1_END))
# Each Latin-1 character folded (to one character; the soft hyphen is deleted), then
# case-folded; the commonest folding characters first, then the others (`folded_forms`).
_LATIN1_FOLD_CASEFOLD = bytes(
    _LATIN1_CASEFOLD[ord(_FOLD_CHARS.get(chr(c), "") or chr(c))] for c in range(_LATIN1_END)
)
_COMMON_FOLDS, _OTHER_FOLDS = _FOLD_ITEMS[: len(_FIRST_FOLDS)], _FOLD_ITEMS[len(_FIRST_FOLDS) :]


def clear_caches() -> None:
    """Forget the folded texts kept per chunk (benchmarks measure cold checks)."""
    folded_forms.cache_clear()


def case_folded(text: str) -> str:
    """`text` with the characters that fold replaced (or deleted) and case-folded, no
    character lowered instead: each word of a quote (`words`) that a normalised match of it
    in `text` holds is a substring of this (with no word broken across lines).

    >>> case_folded("Stra\u00dfe \ufb01ne re\u00adview")
    'strasse fine review'
    """
    return text.lower() if text.isascii() else folded_forms(text)[1]


def fold_lowered(text: str, *, join_broken_words: bool) -> tuple[str, bool]:
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
    lowered, _, in_place = folded_forms(text)
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


def regular_spaces(text: str) -> bool:
    """True when collapsing whitespace leaves `text` as it is: one space between words."""
    if text.startswith(" ") or text.endswith(" ") or "  " in text:
        return False
    if text.isascii():
        return not has_other_ascii_space(text)
    # Every whitespace character but the space is unprintable (a test holds it): one pass
    # over a text that prints is cheaper than a scan for each of 28 such characters.
    return text.isprintable() or (
        not has_other_ascii_space(text) and not _has_non_ascii_space(text)
    )


def regular_spaces_before(text: str, end: int) -> bool:
    """`regular_spaces(text[:stop])` for a `text` spaced regularly from `end` to `stop`
    with no whitespace at either end of that stretch (a normalised needle found at `end`):
    the text before it alone is tested, where it may end on one space.

    >>> regular_spaces_before("kept  for 3 years", 10), regular_spaces_before("a  b c", 5)
    (False, False)
    >>> regular_spaces_before("kept for 3 years", 9), regular_spaces_before(" b", 1)
    (True, False)
    """
    head = text[:end]  # `regular_spaces` but for its end, where one space may be
    if head.startswith(" ") or "  " in head:
        return False
    if head.isascii():
        return not has_other_ascii_space(head)
    return head.isprintable() or (
        not has_other_ascii_space(head) and not _has_non_ascii_space(head)
    )


def has_other_ascii_space(text: str) -> bool:
    """True when `text` holds an ASCII whitespace character other than the space. Spelled
    out: each test is one memchr in C, together a third of a loop over them and a fifth of
    `str.isprintable`."""
    return (
        "\t" in text
        or "\n" in text
        or "\r" in text
        or "\x0b" in text
        or "\x0c" in text
        or "\x1c" in text
        or "\x1d" in text
        or "\x1e" in text
        or "\x1f" in text
    )


def _has_non_ascii_space(text: str) -> bool:
    """True when `text` holds whitespace beyond ASCII: a scan in C per such character, all
    19 together cheaper than one `str.isprintable` or regular expression pass (and this
    loop half the cost of `any()` over a generator)."""
    for space in _NON_ASCII_SPACES:  # noqa: SIM110
        if space in text:
            return True
    return False


def resized_chars(text: str) -> list[tuple[int, int]]:
    """Where `text` has a character that folds or lowers to other than one ("\u2026" to
    "...", "\ufb01" to "fi", a soft hyphen to nothing, "\u0130" to "i\u0307"), each with the
    length it becomes, in the order they stand. A `str.find` per such character, eleven scans
    in C, costs a tenth of a regular expression's pass over text that is not Latin-1."""
    found = []
    for char, size in _RESIZED_ITEMS:
        at = text.find(char)
        while at >= 0:
            found.append((at, size))
            at = text.find(char, at + 1)
    found.sort()
    return found
