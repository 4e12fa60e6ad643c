"""The broken-word pattern finds what its plain spelling (the letter looked back at before
the hyphen) finds, span for span."""

from __future__ import annotations

import random
import re

from ragcite.text.print_marks import BROKEN_WORD

PLAIN_SPELLING = re.compile(r"(?<=[^\W\d_])-[ \t]*\r?\n[ \t]*(?=[a-z])")


def test_the_hyphen_first_pattern_matches_the_plain_spelling() -> None:
    rng = random.Random(1)
    alphabet = [*"ab-\n \tZ9_\u00e9\r", "-\n", "a-\nb", "a- \n b", "-\r\n", "\u00e9-\nx"]
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        expected = [m.span() for m in PLAIN_SPELLING.finditer(text)]
        assert [m.span() for m in BROKEN_WORD.finditer(text)] == expected, repr(text)


def test_a_word_broken_across_lines_is_joined() -> None:
    assert BROKEN_WORD.sub("", "reten-\ntion, re- \n view, 9-\nx, Data-\nBase") == (
        "retention, review, 9-\nx, Data-\nBase"
    )
