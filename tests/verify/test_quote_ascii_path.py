"""The quote check's ASCII path (an ASCII quote in ASCII text without line breaks) gives
what the general path gives: the same status and the same offsets."""

from __future__ import annotations

import random
import sys

import pytest

from ragcite.models import QuoteStatus
from ragcite.verify.folded_search import fold_text
from ragcite.verify.normalize import _replace_folding, normalize
from ragcite.verify.quotes import QuoteMatch, locate_quote
from tests.verify.random_quotes import QuoteCases

# The module itself: `ragcite.verify.quotes` as an attribute is shadowed by the package.
quotes_module = sys.modules["ragcite.verify.quotes"]

ASCII_CASES = QuoteCases(
    words="Kept for 35 days retention the a ab of FEE rose 5% data finance U.S. don't".split(" "),
    glue=[" ", "  ", ", ", ". ", "-", " [2] ", " (source 1) ", "... ", "`", "\t", " - "],
    endings=[" [7]", " missing", " days", "'s", " ... rose"],
    max_pieces=14,
    max_quote=50,
    ending_share=0.2,
)


def _general(quote: str, text: str) -> QuoteMatch:
    """`_locate_inexact` as it runs for any other text: normalise, fold, search."""
    needle = normalize(quote)
    folded = fold_text(text)
    at = folded.lowered.find(needle)
    return quotes_module._locate_folded(quote, text, needle, folded, at)


def test_the_ascii_path_agrees_with_the_general_one(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = ASCII_CASES.cases(seed=7, count=4000)
    assert all(q.isascii() and t.isascii() and "\n" not in t for q, t in cases)
    fast = [locate_quote(q, t) for q, t in cases]
    monkeypatch.setattr(quotes_module, "_locate_ascii", _general)
    general = [locate_quote(q, t) for q, t in cases]
    for case, one, other in zip(cases, fast, general, strict=True):
        assert one == other, case
    statuses = {m.status for m in general}
    assert statuses == set(QuoteStatus)  # matches of every strength were compared
    assert sum(m.status is QuoteStatus.NORMALIZED for m in general) > 300


def test_a_backtick_is_folded_in_text_that_is_ascii_once_its_dashes_are() -> None:
    # The scan over folding characters stops once the text is ASCII: not before "`".
    assert _replace_folding("a \u2013 b`s") == ("a - b's", True)
    assert locate_quote("B'S NEW", "a \u2013 b`s new") == QuoteMatch(QuoteStatus.NORMALIZED, 4, 11)


def test_an_ascii_needle_is_the_normalised_quote() -> None:
    # Runs of two spaces are collapsed by a replace, anything else by splitting: both as
    # `normalize` collapses whitespace.
    rng = random.Random(3)
    pieces = ["Kept", "for", "35", "DAYS", "`s", " ", "  ", "   ", "\t", "\x0b", "\x1f", "\r"]
    for _ in range(4000):
        quote = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))).strip()
        if quote:
            assert quotes_module._ascii_needle(quote) == normalize(quote), repr(quote)


def test_a_quote_that_needs_no_stripping_is_checked_as_a_stripped_one() -> None:
    # A quote from a letter or digit to a kept character skips the strips: padded with
    # spaces, it is stripped back to itself and must get the same answer.
    cases = ASCII_CASES.cases(seed=9, count=3000)
    cases += [("Kept for 35 days'", "kept for 35 days"), ("7 days\u00bb", "7 days")]
    for quote, text in cases:
        assert locate_quote(quote, text) == locate_quote(f" {quote} ", text), (quote, text)
