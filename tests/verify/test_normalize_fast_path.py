"""The fast path of quote normalisation gives exactly what the per-character one gives."""

from __future__ import annotations

import random

import pytest

from ragcite.verify.normalize import _normalize_each_char, normalize, normalize_with_map

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
