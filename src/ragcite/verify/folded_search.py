"""Find a normalised quote in a text folded once, with offsets in the original text.

`find_normalized(text, needle)` answers what `normalize_with_map(text)` would, mapped back
to `text`, without building that map unless it must: the text is folded and case-folded
once (`fold_text`), searched as it stands when its whitespace is already regular, and only
characters that fold to other than one ("\u2026", "\ufb01", a soft hyphen, "\u0130") move offsets.
The quote check folds a chunk once for its searches and its word test (`words_haystack`).

>>> find_normalized("Kept  for\n3 Years.", "for 3 years")
(6, 17)
"""

from __future__ import annotations

from typing import NamedTuple

from ragcite.verify.normalize import (
    case_folded,
    collapsed_origin,
    fold_lowered,
    folded_forms,
    has_broken_words,
    normalize_with_map,
    origin_map,
    regular_spaces,
    resized_chars,
)


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
    folded = fold_text(text, join_broken_words=join_broken_words)
    return find_folded(folded, needle, join_broken_words=join_broken_words)


class FoldedText(NamedTuple):
    """A text folded and case-folded with its whitespace kept (`fold_text`), for searches."""

    text: str  # as given
    lowered: str
    in_place: bool  # each character of `text` is one in `lowered`: offsets carry over


def fold_text(text: str, *, join_broken_words: bool = False) -> FoldedText:
    """`text` folded once, for `find_folded` (and, unjoined, `words_haystack`)."""
    # Built as a plain tuple of its fields: the class's own constructor is Python code.
    if text.isascii() and "\n" not in text:  # the common case, without a call
        lowered = (text.replace("`", "'") if "`" in text else text).lower()
        return tuple.__new__(FoldedText, (text, lowered, True))
    if not join_broken_words and not text.isascii():  # the next commonest, as `fold_lowered`
        lowered, _, in_place = folded_forms(text)
        return tuple.__new__(FoldedText, (text, lowered, in_place))
    return tuple.__new__(
        FoldedText, (text, *fold_lowered(text, join_broken_words=join_broken_words))
    )


def find_folded(
    folded: FoldedText, needle: str, *, join_broken_words: bool = False, at: int | None = None
) -> tuple[int, int] | None:
    """`find_normalized` on a text already folded (with the same `join_broken_words`);
    `at`: `folded.lowered.find(needle)` where the caller has searched already."""
    lowered = folded.lowered
    if not needle:
        return None
    if at is None:
        at = lowered.find(needle)
    if not needle[0].isspace() and not needle[-1].isspace():
        # Spaced regularly up to the end of this match, the text normalises to itself there:
        # its collapsed form holds no earlier match. A chunk's later lines do not matter.
        if at >= 0 and regular_spaces(lowered[: at + len(needle)]):
            span = _original_span(folded, at, at + len(needle), join_broken_words)
            if span is not None:
                return span
        stripped = _strip_regular(lowered)
        if stripped is not None:  # normalised, the text is `core`: a miss there is a miss
            lead, core = stripped
            at_core = at if core is lowered else core.find(needle)
            if at_core < 0:
                return None
            start = lead + at_core
            span = _original_span(folded, start, start + len(needle), join_broken_words)
            if span is not None:
                return span
    # Each run of the needle between spaces lies inside one word of the text.
    if at < 0 and max(needle.split(" "), key=len) not in lowered:
        return None
    return _find_collapsed(folded, needle, join_broken_words=join_broken_words)


def _strip_regular(lowered: str) -> tuple[int, str] | None:
    """(lead, core) when `lowered` normalises to `core` by stripping alone, `lead` characters
    off its start; None when whitespace inside it must be collapsed."""
    lead = 0
    if lowered[:1].isspace() or lowered[-1:].isspace():  # often only a trailing newline
        lead = len(lowered) - len(lowered.lstrip())
    core = lowered.strip() if lead or lowered[-1:].isspace() else lowered
    return (lead, core) if regular_spaces(core) else None


def _original_span(
    folded: FoldedText, start: int, end: int, join_broken_words: bool
) -> tuple[int, int] | None:
    """Where [start, end) of `folded.lowered` lies in the original text, when characters
    moved only by folding to other than one; None when words were joined across lines."""
    text, lowered, in_place = folded
    if in_place:
        return start, end
    resized = None if join_broken_words and has_broken_words(text) else _resized(text, lowered)
    if resized is None:
        return None
    return _original_index(resized, start), _original_index(resized, end - 1) + 1


def _resized(text: str, lowered: str) -> list[tuple[int, int]] | None:
    """Where `text` (unjoined) has a character folded and lowered to other than one ("…",
    "ﬁ", a soft hyphen, "İ"), with the length it became; None when `lowered` is longer or
    shorter than those make it (never, a test holds): then offsets need the whole map."""
    sizes = resized_chars(text)
    grown = len(lowered) - len(text) - sum(size - 1 for _, size in sizes)
    return sizes if grown == 0 else None


def _original_index(resized: list[tuple[int, int]], at: int) -> int:
    """The index in the text of folded character `at`, with `resized` from `_resized`."""
    shift = 0  # how far folded characters have moved from their originals so far
    for index, size in resized:
        if at < index + shift:
            break
        if at < index + shift + size:  # one of the characters this one folded to
            return index
        shift += size - 1
    return at - shift


def _find_collapsed(
    folded: FoldedText, needle: str, *, join_broken_words: bool
) -> tuple[int, int] | None:
    """`find_folded` where whitespace must be collapsed or offsets mapped back."""
    text, lowered, in_place = folded
    haystack = " ".join(lowered.split())
    at = haystack.find(needle)
    if at < 0:
        return None
    mapped = None
    if not in_place and not (join_broken_words and has_broken_words(text)):
        mapped = origin_map(text)
    if mapped is not None:  # only the two ends are looked up, no whole map is built
        return int(mapped[1][at]), int(mapped[1][at + len(needle) - 1]) + 1
    if not in_place:
        return normalize_with_map(text, join_broken_words=join_broken_words).original_span(
            at, at + len(needle)
        )
    origin = collapsed_origin(lowered)
    return int(origin[at]), int(origin[at + len(needle) - 1]) + 1


def words_haystack(folded: FoldedText) -> str:
    """A text with the same runs of letters and digits as `case_folded(folded.text)`, for
    looking words up in (`folded` unjoined): an ASCII text's `lowered`, which differs only
    in a backtick made an apostrophe, neither of them part of a word."""
    return folded.lowered if folded.text.isascii() else case_folded(folded.text)
