"""The quote check's shortcut (a quote word missing from plain text) never changes a result."""

from __future__ import annotations

import random
import sys

import pytest

from ragcite.verify.quotes import locate_quote

# The module itself: `ragcite.verify.quotes` as an attribute is shadowed by the package.
quotes_module = sys.modules["ragcite.verify.quotes"]

WORDS = "kept for 35 days retention re-\ntion the a ab of fee rose 5% data ﬁnance".split(" ")
GLUE = [" ", "  ", "\n", ", ", ". ", "-", " [2] ", " (source 1) ", "...", "`", ".^3 ", "\u00ad"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(WORDS) + rng.choice(GLUE) for _ in range(rng.randint(1, 12)))


def _quote(rng: random.Random, text: str) -> str:
    start = rng.randrange(len(text))
    quote = text[start : start + rng.randint(3, 40)]
    if rng.random() < 0.3:
        quote = quote.upper()
    if rng.random() < 0.3:
        quote = quote.replace(" ", rng.choice(GLUE), 1)
    if rng.random() < 0.3:
        quote += rng.choice([" [7]", " missing", " days", "\u2019s"])
    return quote if rng.random() < 0.8 else _text(rng)


# Non-ASCII text: case folding that grows ("ß", "İ"), ligatures, deleted characters, curly
# quotes and dashes, a Kelvin sign and a long s (both fold to ASCII letters).
UNICODE_WORDS = (
    WORDS + "Straße STRASSE İstanbul ﬃx re\u00adview re\u200bview \u212aelvin ſo \u2019s".split(" ")
)
UNICODE_GLUE = [*GLUE, "\u2014", "\u00a0", "\u201c", "\u2026 ", " \u2013 "]


@pytest.mark.parametrize("unicode", [False, True])
def test_the_shortcut_agrees_with_the_full_check(
    monkeypatch: pytest.MonkeyPatch, unicode: bool
) -> None:
    rng = random.Random(5)
    if unicode:
        monkeypatch.setattr(sys.modules[__name__], "WORDS", UNICODE_WORDS)
        monkeypatch.setattr(sys.modules[__name__], "GLUE", UNICODE_GLUE)
    cases = []
    for _ in range(3000):
        text = _text(rng)
        cases.append((_quote(rng, text), text))
    quick = [locate_quote(q, t) for q, t in cases]
    assert sum(quotes_module._surely_absent(q, t) for q, t in cases) > 100  # it did cut short
    monkeypatch.setattr(quotes_module, "_absent", lambda *args, **kwargs: False)
    monkeypatch.setattr(quotes_module, "_ascii_word_missing", lambda *args: False)
    full = [locate_quote(q, t) for q, t in cases]
    for case, fast, slow in zip(cases, quick, full, strict=True):
        assert fast == slow, case
    assert sum(m.found for m in full) > 500  # matches of every strength were compared
    assert len({m.status for m in full}) == 4
