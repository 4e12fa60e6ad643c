"""The quote check's shortcut (a quote word missing from plain text) never changes a result."""

from __future__ import annotations

import sys

import pytest

from ragcite.verify.quotes import locate_quote
from tests.verify.random_quotes import QuoteCases

# The module itself: `ragcite.verify.quotes` as an attribute is shadowed by the package.
quotes_module = sys.modules["ragcite.verify.quotes"]

WORDS = "kept for 35 days retention re-\ntion the a ab of fee rose 5% data \ufb01nance".split(" ")
GLUE = [" ", "  ", "\n", ", ", ". ", "-", " [2] ", " (source 1) ", "...", "`", ".^3 ", "\u00ad"]
ENDINGS = [" [7]", " missing", " days", "\u2019s"]


# Non-ASCII text: case folding that grows ("ß", "İ"), ligatures, deleted characters, curly
# quotes and dashes, a Kelvin sign and a long s (both fold to ASCII letters).
UNICODE_WORDS = (
    WORDS + "Straße STRASSE İstanbul ﬃx re\u00adview re\u200bview \u212aelvin ſo \u2019s".split(" ")
)
UNICODE_GLUE = [*GLUE, "\u2014", "\u00a0", "\u201c", "\u2026 ", " \u2013 "]
CASES = {
    unicode: QuoteCases(
        words=UNICODE_WORDS if unicode else WORDS,
        glue=UNICODE_GLUE if unicode else GLUE,
        endings=ENDINGS,
        max_pieces=12,
        max_quote=40,
        ending_share=0.3,
    )
    for unicode in (False, True)
}


@pytest.mark.parametrize("unicode", [False, True])
def test_the_shortcut_agrees_with_the_full_check(
    monkeypatch: pytest.MonkeyPatch, unicode: bool
) -> None:
    cases = CASES[unicode].cases(seed=5, count=3000)
    quick = [locate_quote(q, t) for q, t in cases]
    assert sum(quotes_module._surely_absent(q, t) for q, t in cases) > 100  # it did cut short
    monkeypatch.setattr(quotes_module, "_absent", lambda *args, **kwargs: False)
    monkeypatch.setattr(quotes_module, "_ascii_word_missing", lambda *args: False)
    full = [locate_quote(q, t) for q, t in cases]
    for case, fast, slow in zip(cases, quick, full, strict=True):
        assert fast == slow, case
    assert sum(m.found for m in full) > 500  # matches of every strength were compared
    assert len({m.status for m in full}) == 4
