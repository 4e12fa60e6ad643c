"""The quote search's fast paths give the offsets the per-character map gives, and the
word test run before the search never turns a match away."""

from __future__ import annotations

import random
import sys

import pytest

from ragcite.models import QuoteStatus
from ragcite.text.words import words
from ragcite.verify.folded_search import find_normalized, fold_text, words_haystack
from ragcite.verify.normalize import (
    LOWERS_TO_TWO,
    _normalize_each_char,
    case_folded,
    has_other_ascii_space,
    normalize,
    regular_spaces,
)
from ragcite.verify.quotes import locate_quote

# One sentence in the typography a PDF or a web page leaves: each case changes one thing.
PLAIN = 'The "Secure Delete" tool - kept for 35 days... fine print, reviewed.'
TYPOGRAPHY = {
    "curly quotes": PLAIN.replace('"Secure', "\u201cSecure").replace('Delete"', "Delete\u201d"),
    "em dash": PLAIN.replace(" - ", " \u2014 "),
    "ellipsis": PLAIN.replace("...", "\u2026"),
    "ligature": PLAIN.replace("fine", "\ufb01ne"),
    "soft hyphen": PLAIN.replace("reviewed", "re\u00adviewed"),
    "zero-width space": PLAIN.replace("print", "pr\u200bint"),
    "nbsp": PLAIN.replace("35 days", "35\u00a0days"),
    "dotted capital I": "\u0130stanbul: " + PLAIN,
    "sharp s": "Stra\u00dfe: " + PLAIN,
    "line break": PLAIN.replace("kept for", "kept\nfor"),
    "hyphenated line break": PLAIN.replace("reviewed", "re-\nviewed"),
    "all of them": (
        "\u0130 \u201cSecure\u201d \u2014 \ufb01ne\u2026 kept\nfor 35\u00a0days"
        " re-\nviewed pr\u200bint"
    ),
}


def _reference(text: str, needle: str, join: bool) -> tuple[int, int] | None:
    mapped = _normalize_each_char(text, join_broken_words=join)
    at = mapped.text.find(needle)
    return None if at < 0 or not needle else mapped.original_span(at, at + len(needle))


@pytest.mark.parametrize("name", sorted(TYPOGRAPHY))
@pytest.mark.parametrize("join", [False, True])
def test_every_piece_of_the_text_maps_back_as_the_offset_map_does(name: str, join: bool) -> None:
    text = TYPOGRAPHY[name]
    haystack = _normalize_each_char(text, join_broken_words=join).text
    for start in range(len(haystack)):
        for end in range(start + 1, min(len(haystack), start + 12) + 1):
            needle = haystack[start:end].strip()
            if needle:
                expected = _reference(text, needle, join)
                assert find_normalized(text, needle, join_broken_words=join) == expected, needle


@pytest.mark.parametrize("name", sorted(TYPOGRAPHY))
def test_a_retyped_quote_is_found_where_it_lies(name: str) -> None:
    text = TYPOGRAPHY[name]
    match = locate_quote("KEPT  FOR 35 DAYS", text)
    assert match.status is QuoteStatus.NORMALIZED
    assert match.start is not None and match.end is not None
    assert normalize(text[match.start : match.end]) == "kept for 35 days"


def test_a_folded_character_maps_to_itself_and_its_neighbours_stay() -> None:
    text = "a\u2026b \ufb01ne re\u00adview"  # "a...b fine review" folded
    assert find_normalized(text, "...") == (1, 2)
    assert find_normalized(text, "b fi") == (2, 5)
    assert find_normalized(text, "fine") == (4, 7)
    assert find_normalized(text, "review") == (8, 15)
    assert find_normalized("Stra\u00dfe kept", "kept") == (7, 11)  # "ß" lowers to one
    assert find_normalized("\u0130stanbul kept", "kept") == (9, 13)  # "İ" to two
    assert find_normalized("\u0130stanbul kept", "\u0307s") == (0, 2)


def test_random_folding_texts_map_back_as_the_offset_map_does() -> None:
    rng = random.Random(17)
    alphabet = [*"ab Z.", "\u2026", "\ufb01", "\ufb03", "\u00ad", "\u200b", "\u00df", "\u0130"]
    alphabet += ["\u2019", "\u00a0", "\u2014", "\u1e9e", "\u1fc6"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 24)))
        haystack = _normalize_each_char(text, join_broken_words=False).text
        start = rng.randrange(len(haystack) or 1)
        needle = haystack[start : start + rng.randint(1, 8)].strip()
        assert find_normalized(text, needle) == _reference(text, needle, False), (text, needle)


def test_the_words_of_an_ascii_text_are_looked_up_in_its_search_form() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        text = "".join(rng.choice("aB9 `'.-K\t") for _ in range(rng.randint(0, 30)))
        quote = "".join(rng.choice("ab9 `'K") for _ in range(rng.randint(1, 8)))
        haystack = words_haystack(fold_text(text))
        assert all(w in haystack for w in words(quote)) == all(
            w in case_folded(text) for w in words(quote)
        ), (text, quote)


def test_case_folding_what_a_match_lowered_gives_what_case_folding_gives() -> None:
    # The word test may run before the search: a character a normalised match lowers
    # instead of case-folding ("İ", "ß") still case-folds to the same words. And one
    # character alone becomes two (`resized_chars` counts on it).
    grows = []
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        folded = char.casefold()
        matched = folded if len(folded) == 1 else char.lower()
        assert matched.casefold() == folded, hex(code)
        if len(matched) != 1:
            grows.append(char)
    assert grows == [LOWERS_TO_TWO]


def test_whitespace_other_than_the_space_is_told_apart_from_it() -> None:
    assert not any(chr(code).isspace() for code in range(0x3001, sys.maxunicode + 1))
    for code in range(0x3001):  # every whitespace character, and more
        char = chr(code)
        other = char.isspace() and char != " "
        if code < 128:
            assert has_other_ascii_space(f"a{char}b") == other, code
        assert regular_spaces(f"a{char}b") == (not other), code
        assert regular_spaces(f"\u00e9{char}b") == (not other), code  # not ASCII


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("Kept for 35 days.\n\nBackups  are\tkept  longer.", "kept for 35 days"),  # lines after
        ("Kept for\n35 days. Kept for 35 days.", "kept for 35 days"),  # only collapsed first
        ("Kept  for 35 days, kept for 35 days.", "kept for 35 days"),
        ("\n  Kept for 35 days.\n", "kept for 35 days"),  # stripped alone
        ("Fee \u2026 kept for 35 days.\n\nMore  text.", "kept for 35 days"),  # folded to three
    ],
)
def test_a_match_before_irregular_spacing_is_the_first_in_the_collapsed_text(
    text: str, needle: str
) -> None:
    expected = _reference(text, needle, False)
    assert expected is not None
    assert find_normalized(text, needle) == expected
