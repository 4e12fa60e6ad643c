"""The quote check's fast search gives exactly what the per-character offset map gives."""

from __future__ import annotations

import random
import sys

import pytest

from ragcite.text.words import WORD, words
from ragcite.verify.folded_search import find_normalized
from ragcite.verify.normalize import _BMP_END, _lower_growing, _normalize_each_char, normalize

ALPHABET = [*"abcXYZ .,-\n\t`", "\u00a0", "\u2019", "\u201c", "\u2014", "\u2026", "ß", "İ"]
ALPHABET += ["\ufb01", "\u00ad", "\u200b", "\u2009", "É", "  ", "-\n", "ab", "ca", " b"]


def _reference(text: str, needle: str, join: bool) -> tuple[int, int] | None:
    mapped = _normalize_each_char(text, join_broken_words=join)
    at = mapped.text.find(needle)
    return None if at < 0 or not needle else mapped.original_span(at, at + len(needle))


@pytest.mark.parametrize("join", [False, True])
def test_fast_search_agrees_with_the_offset_map(join: bool) -> None:
    rng = random.Random(7)
    hits = 0
    for _ in range(4000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 30)))
        haystack = _normalize_each_char(text, join_broken_words=join).text
        if haystack and rng.random() < 0.7:  # a piece of the text itself: mostly a hit
            start = rng.randrange(len(haystack))
            needle = haystack[start : start + rng.randint(1, 12)].strip()
        else:
            needle = normalize("".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 6))))
        expected = _reference(text, needle, join)
        assert find_normalized(text, needle, join_broken_words=join) == expected, (text, needle)
        hits += expected is not None
    assert hits > 1000  # the fast paths were exercised on hits, not only on misses


def test_plain_text_search_maps_back() -> None:
    assert find_normalized("Kept  for\n3 Years.", "for 3 years") == (6, 17)
    assert find_normalized("Kept for 3 Years.", "for 3 years") == (5, 16)
    assert find_normalized("Kept for 3 Years.", "for 4 years") is None


def test_ascii_words_fold_as_the_general_path_does() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        text = "".join(rng.choice("aZ9_ -'`.Kk\n") for _ in range(rng.randint(0, 25)))
        assert words(text) == [w.casefold() for w in WORD.findall(text)]


def test_a_character_that_lowers_to_two_keeps_the_offsets_aligned() -> None:
    # "İ" lowers to "i" and a combining dot: both map back to it, the rest stays in place.
    assert find_normalized("\u0130 Kept  for", "kept for") == (2, 11)
    assert _reference("\u0130 Kept  for", "kept for", False) == (2, 11)


def test_folding_in_stretches_matches_folding_each_character() -> None:
    assert all(len(chr(c).casefold()) == 1 for c in range(_BMP_END, sys.maxunicode + 1))
    rng = random.Random(2)
    alphabet = list("aBß İŉﬀΣς\u1e9e xY")
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        expected = "".join(c.casefold() if len(c.casefold()) == 1 else c.lower() for c in text)
        assert _lower_growing(text) == expected, repr(text)
