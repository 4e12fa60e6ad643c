"""The fast path of quote normalisation gives exactly what the per-character one gives."""

from __future__ import annotations

import random

import pytest

from ragcite.verify.normalize import (
    _casefold,
    _lower_growing,
    _normalize_each_char,
    _replace_folding,
    folded_forms,
    normalize,
    normalize_with_map,
    regular_spaces,
    regular_spaces_before,
    resized_chars,
)

# Plain letters and spaces (the fast path) mixed with what folds, resizes or joins.
ALPHABET = [*"abcXYZ .,-\n\t", "\u00a0", "\u2019", "\u201c", "\u2014", "\u2026", "ß", "İ"]
ALPHABET += ["\ufb01", "\u00ad", "\u200b", "\u2009", "É", "  ", "-\n", "`", "\u2013"]


@pytest.mark.parametrize("join_broken_words", [False, True])
def test_fast_and_per_character_normalisation_agree(join_broken_words: bool) -> None:
    rng = random.Random(11)
    for _ in range(3000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40)))
        fast = normalize_with_map(text, join_broken_words=join_broken_words)
        slow = _normalize_each_char(text, join_broken_words=join_broken_words)
        assert fast == slow, repr(text)
        assert normalize(text, join_broken_words=join_broken_words) == slow.text, repr(text)


def test_plain_text_maps_each_character_back() -> None:
    normalized = normalize_with_map("  Kept   for\n3 Years. ")

    assert normalized.text == "kept for 3 years."
    assert normalized.original_span(0, 4) == (2, 6)
    assert normalized.original_span(9, 10) == (13, 14)


def test_latin1_text_case_folds_as_casefold_does() -> None:
    every = "".join(map(chr, range(256)))  # "µ" and "ß" among them: folded the long way
    assert _casefold(every) == every.casefold()
    rng = random.Random(3)
    alphabet = [*map(chr, range(32, 256)), "\u2013", "\u03a9", "\u1e9e", "\u0130"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        assert _casefold(text) == text.casefold(), repr(text)
    assert _casefold("\u00c9T\u00c9") == "\u00e9t\u00e9"


def test_unprintable_characters_that_are_not_whitespace_keep_spacing_regular() -> None:
    # A text that does not print is checked character by character for whitespace.
    assert regular_spaces("\u00e9\u00adb \u200bc")
    assert not regular_spaces("\u00e9\u00adb\u2003c")


def test_spacing_before_a_regular_needle_is_told_as_of_text_and_needle_together() -> None:
    # `regular_spaces_before` tests the text before a needle alone: it must say what
    # `regular_spaces` says of that text and the needle (spaced regularly) together.
    rng = random.Random(5)
    pieces = [*"ab\u00e9 ", "  ", "\t", "\n", "\u00a0", "\u2003", "\u200b", "\x1f"]
    needles = ["kept", "kept for 3 days", "\u00e9t\u00e9 x", "a"]
    for _ in range(4000):
        head = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        needle = rng.choice(needles)
        tail = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
        text = head + needle + tail
        assert regular_spaces_before(text, len(head)) == regular_spaces(head + needle), repr(text)


def test_resized_characters_are_found_where_they_stand() -> None:
    # Each character that folds to other than one, found by a scan per such character,
    # in text order: as a look at every character finds them.
    sizes = {"\u2026": 3, "\ufb03": 3, "\ufb01": 2, "\u00ad": 0, "\u200b": 0, "\u0130": 2}
    rng = random.Random(8)
    alphabet = [*sizes, "a", " ", "\u2013", "\u00e9", "\u0101", "0", "&"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        expected = [(i, sizes[c]) for i, c in enumerate(text) if c in sizes]
        assert resized_chars(text) == expected, repr(text)


def _folded_forms_at_length(text: str) -> tuple[str, str, bool]:
    """`folded_forms` the plain way: every folding character replaced, then case-folded."""
    folded, in_place = _replace_folding(text)
    case = folded.casefold()
    lowered = case if len(case) == len(folded) else _lower_growing(folded)
    return lowered, case, in_place and len(lowered) == len(text)


def test_latin1_text_is_folded_as_the_plain_way_folds_it() -> None:
    # Text that is Latin-1 once its commonest folding characters are replaced is folded
    # and case-folded by one bytes.translate: the same forms as the plain way.
    every = "".join(map(chr, range(256)))
    assert folded_forms(every) == _folded_forms_at_length(every)
    rng = random.Random(4)
    latin1 = ["a", "Z", " ", "\u00c9", "\u00e9", "\u00b4", "\u00ab", "\u00bb", "\u00ad", "\u00a0"]
    others = ["\u2013", "\u2019", "\u2026", "\ufb01", "\u0101", "\u00b5", "\u00df", "\u0130", "`"]
    for _ in range(4000):
        alphabet = latin1 + rng.sample(others, rng.randint(0, 3))
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        assert folded_forms(text) == _folded_forms_at_length(text), repr(text)
