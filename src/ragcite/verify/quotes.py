"""Find a claimed quote in its source chunk: strict on words, lenient on typography.

    >>> locate_quote("customer records are kept for 3 years", chunk_text)
    QuoteMatch(status=<QuoteStatus.NORMALIZED: 'normalized'>, start=120, end=158)

Statuses, strongest first:
- exact: the quote is a substring of the chunk as it stands;
- normalized: found after folding whitespace, quote marks, dashes, ligatures and case,
  or after joining a word the source hyphenates across a line break;
- fuzzy: the quote's words appear in the chunk in the same order with only punctuation
  between them differing, or an elided quote ("A ... B") whose every part is found in order;
  a citation marker inside the quote ("... 35 days [2]") is ignored, at best "normalized";
- not_found: anything else. A paraphrase is not a quote.
"""

from __future__ import annotations

import re
import string
from typing import NamedTuple

from ragcite.models import QuoteStatus
from ragcite.text.words import WORD, has_words, word_spans, words
from ragcite.verify.folded_search import (
    FoldedText,
    find_folded,
    find_normalized,
    fold_text,
    words_haystack,
)
from ragcite.verify.markers import may_hold_marker, strip_citation_markers
from ragcite.verify.normalize import (
    case_folded,
    has_broken_words,
    has_other_ascii_space,
    normalize,
    regular_spaces_before,
)

_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|\u2026|\[\.\.\.\]|\[…\])\s*")
_TRIM = " \t\n\"'“”‘’«»"
# An elided quote must still carry enough words in each part to be checkable.
_MIN_PART_WORDS = 2
# A quote that opens on one of these has words (`has_words`), without a regular expression.
_ASCII_LETTERS_AND_DIGITS = frozenset(string.ascii_letters + string.digits)
# A quote that ends on one of these (printable ASCII, neither whitespace nor in `_TRIM`)
# keeps its last character through `locate_quote`'s strips.
_KEPT_LAST = frozenset(chr(c) for c in range(0x21, 0x7F)) - frozenset(_TRIM)


_NOT_FOUND = QuoteStatus.NOT_FOUND


class QuoteMatch(NamedTuple):  # a tuple: built for every check, at a third of a dataclass's cost
    status: QuoteStatus
    start: int | None = None
    end: int | None = None

    @property
    def found(self) -> bool:
        return self.status is not _NOT_FOUND


NOT_FOUND = QuoteMatch(_NOT_FOUND)
# Enum members read once (here and above): a module constant is read 15 times faster.
_EXACT, _NORMALIZED, _FUZZY = QuoteStatus.EXACT, QuoteStatus.NORMALIZED, QuoteStatus.FUZZY


def _match(status: QuoteStatus, start: int, end: int) -> QuoteMatch:
    """A match from its fields, as `QuoteMatch(status, start, end)` builds it at about
    twice the cost (the class's generated `__new__` is Python code)."""
    return tuple.__new__(QuoteMatch, (status, start, end))


def locate_quote(quote: str, text: str) -> QuoteMatch:
    """Where `quote` lies in `text`, and how strictly it matched."""
    # A quote from a letter or digit to a character that none of the strips removes is
    # already stripped (and has words): the commonest, without three calls.
    if not quote or quote[0] not in _ASCII_LETTERS_AND_DIGITS or quote[-1] not in _KEPT_LAST:
        quote = quote.strip().strip(_TRIM).strip()
        if not quote or (quote[0] not in _ASCII_LETTERS_AND_DIGITS and not has_words(quote)):
            return NOT_FOUND
    at = text.find(quote)
    if at >= 0:
        return tuple.__new__(QuoteMatch, (_EXACT, at, at + len(quote)))  # as `_match`
    if quote.isascii() and text.isascii() and "\n" not in text:
        return _locate_ascii(quote, text)
    return _locate_inexact(quote, text)


def _surely_absent(quote: str, text: str) -> bool:
    """True when no check can find `quote` (see `_absent`)."""
    return not has_broken_words(text) and _absent(quote, case_folded(text))


def _absent(quote: str, folded: str, needle: str | None = None) -> bool:
    """True when a word of `quote` without its markers is missing from `folded`: then no
    check can find the quote. In a text with no word broken across lines, every match
    (normalized, fuzzy, without its markers) needs each such word somewhere in the
    case-folded text (`case_folded`, or `words_haystack`: the same words). `needle`:
    `normalize(quote)`, where the caller has it."""
    if needle is not None and quote.isascii() and not may_hold_marker(quote):
        return _ascii_word_missing(needle, folded)
    bare = strip_citation_markers(quote)
    if bare.isascii():  # its words all at once, in one pass (`words`)
        return not all(map(folded.__contains__, words(bare)))
    # Other words one at a time, up to the first missing: often the first or second.
    return any(m.group().casefold() not in folded for m in WORD.finditer(bare))


def _ascii_word_missing(needle: str, folded: str) -> bool:
    """True when a word of `needle` (an ASCII quote normalised: its words lowered, one
    space between its pieces) is not in `folded`. Three pieces, cut out where they lie,
    are tried first (all but 2 of 737 quotes from another passage miss a word in one of
    them), then every word. A piece found whole holds only words that are found; one of
    letters and digits alone is one word."""
    size = len(needle)
    for at in (size // 2, 2 * size // 3, size // 3):
        start = needle.rfind(" ", 0, at) + 1
        end = needle.find(" ", at)
        piece = needle[start:end] if end >= 0 else needle[start:]
        if piece not in folded and (
            piece.isalnum() or not all(map(folded.__contains__, words(piece)))
        ):
            return True
    return not all(map(folded.__contains__, words(needle)))


def _locate_inexact(quote: str, text: str) -> QuoteMatch:
    """Where `quote`, not in `text` as it stands, lies in it after folding (or as words)."""
    needle = _ascii_needle(quote) if quote.isascii() else normalize(quote)
    folded = fold_text(text)  # once, for the searches and for the words
    at = folded.lowered.find(needle)
    # As `find_folded`; the needle is spaced regularly: only the text before it is tested.
    if at >= 0 and folded.in_place and regular_spaces_before(folded.lowered, at):
        return tuple.__new__(QuoteMatch, (_NORMALIZED, at, at + len(needle)))  # as `_match`
    return _locate_folded(quote, text, needle, folded, at)


def _ascii_needle(quote: str) -> str:
    """`normalize(quote)` for a stripped ASCII quote (`locate_quote` strips it)."""
    needle = (quote.replace("`", "'") if "`" in quote else quote).lower()
    # Stripped, it has no whitespace at its ends; inside, two spaces in a row or other
    # whitespace (nine scans, together half the time of one `str.isprintable`) are made one.
    if "  " in needle or has_other_ascii_space(needle):
        return " ".join(needle.split())
    return needle


def _locate_ascii(quote: str, text: str) -> QuoteMatch:
    """`_locate_inexact` for an ASCII quote in ASCII text without line breaks, where
    folding is lowering (and a backtick made an apostrophe) and keeps every offset: its
    two commonest ends inline (`normalize`, `fold_text`, `find_folded`, `_absent`)."""
    needle = _ascii_needle(quote)
    lowered = (text.replace("`", "'") if "`" in text else text).lower()
    at = lowered.find(needle)
    if at >= 0:
        if regular_spaces_before(lowered, at):  # the needle is spaced regularly itself
            return tuple.__new__(QuoteMatch, (_NORMALIZED, at, at + len(needle)))  # `_match`
    # As `_absent` (no line break: no word broken across lines), without its calls.
    elif not may_hold_marker(quote) and _ascii_word_missing(needle, lowered):
        return NOT_FOUND
    folded = tuple.__new__(FoldedText, (text, lowered, True))  # as `fold_text` builds it
    return _locate_folded(quote, text, needle, folded, at)


def _locate_folded(quote: str, text: str, needle: str, folded: FoldedText, at: int) -> QuoteMatch:
    """`_locate_inexact` past a first search that found `needle` at `at` in `folded` (-1:
    not at all) where its whitespace, or folding, did not settle the offsets."""
    broken = has_broken_words(text)
    # Where even the plain search misses, a missing word (the cheaper test) is likelier
    # than a match: tested first, it spares the normalised search.
    words_first = not broken and at < 0
    if words_first and _absent(quote, words_haystack(folded), needle):
        return NOT_FOUND
    span = find_folded(folded, needle, at=at)
    if span is None and broken:  # the source may break a word ("reten-\ntion"), the quote not
        span = find_normalized(text, needle, join_broken_words=True)
    if span is not None:
        return _match(_NORMALIZED, *span)
    if not broken and not words_first and _absent(quote, words_haystack(folded), needle):
        return NOT_FOUND  # skips the word scan and the retry without markers
    match = _word_sequence_match(quote, text)
    bare = strip_citation_markers(quote)
    if match.found or bare == quote:
        return match
    # A citation marker the model put inside its quote ("… 35 days [2]") is not a word of
    # the source: found without it, the quote is at best normalized, never exact.
    match = locate_quote(bare, text)
    if match.status is _EXACT:
        return QuoteMatch(_NORMALIZED, match.start, match.end)
    return match


def _word_sequence_match(quote: str, text: str) -> QuoteMatch:
    elided = "..." in quote or "\u2026" in quote  # every elision holds one of these
    parts = [words(p) for p in (_ELLIPSIS.split(quote) if elided else [quote]) if has_words(p)]
    if len(parts) > 1 and any(len(p) < _MIN_PART_WORDS for p in parts):
        return NOT_FOUND
    folded = case_folded(text)
    if any(w not in folded for p in parts for w in p):  # cheap: a word is missing
        return NOT_FOUND
    text_words = word_spans(text)
    tokens = [w for w, _, _ in text_words]
    position = 0
    span_start: int | None = None
    span_end = 0
    for part_words in parts:
        hit = _find_run(tokens, part_words, position)
        if hit is None:
            return NOT_FOUND
        first, last = hit
        span_start = text_words[first][1] if span_start is None else span_start
        span_end = text_words[last][2]
        position = last + 1
    return QuoteMatch(_FUZZY, span_start, span_end)


def _find_run(tokens: list[str], words: list[str], start: int) -> tuple[int, int] | None:
    """The first run of `words` in `tokens` at or after `start`: (first, last) index."""
    n = len(words)
    at = start
    while True:
        try:  # list.index scans in C for the run's first word
            at = tokens.index(words[0], at, len(tokens) - n + 1)
        except ValueError:
            return None
        if tokens[at : at + n] == words:
            return at, at + n - 1
        at += 1
