"""The one tokenizer: plain words, number-aware tokens, content words, stems."""

from __future__ import annotations

import doctest
import random
import re

import pytest

import ragcite.text.stems
import ragcite.text.words
from ragcite.text.stems import stem, trim_plural
from ragcite.text.words import (
    QUESTION_WORDS,
    STOPWORDS,
    WORD,
    content_words,
    has_words,
    tokens,
    word_spans,
    words,
    words_within,
)


@pytest.mark.parametrize("module", [ragcite.text.words, ragcite.text.stems])
def test_the_documented_examples_hold(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_plain_words_cut_like_the_keyword_index() -> None:
    # Runs of letters and digits, case-folded; underscores and punctuation split.
    assert words("Ünïcode_text, 3rd-party CAFÉ x86") == [
        "ünïcode",
        "text",
        "3rd",
        "party",
        "café",
        "x86",
    ]
    assert words("Straße") == ["strasse"]  # case-folded, not just lower-cased
    text = "Ask HR (ext. 42)"
    assert [text[a:b].casefold() for _, a, b in word_spans(text)] == words(text)
    assert has_words("…42") and not has_words(" — … ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "It costs $1,200.50, up 12% from 5k.",
            ["It", "costs", "$1,200.50", "up", "12", "from", "5k"],
        ),
        ("The U.S. isn't well-known for it", ["The", "U.S", "isn't", "well-known", "for", "it"]),
        ("COVID-19 in 2020; mp3 files", ["COVID", "19", "in", "2020", "mp", "3", "files"]),
        ("Zürich’s café", ["Zürich’s", "café"]),
    ],
)
def test_tokens_keep_numbers_and_inner_joiners(text: str, expected: list[str]) -> None:
    assert tokens(text) == expected


def test_every_plain_word_of_a_token_is_a_plain_word_of_the_text() -> None:
    text = "On 3/4/2024 the CFO's team paid $1,200 (12%) to Zürich-based O'Neil & Co."
    plain = set(words(text))
    assert {w for t in tokens(text) for w in words(t)} <= plain


def test_content_words_drop_stopwords_and_any_extra_list() -> None:
    assert content_words("How long is the parental leave?") == ["long", "parental", "leave"]
    assert content_words("How long is the parental leave?", STOPWORDS | QUESTION_WORDS) == [
        "parental",
        "leave",
    ]


def test_stems_match_inflections_and_irregular_forms() -> None:
    assert stem("closing") == stem("closed") == stem("closes")
    assert stem("kept") == stem("keeps") == stem("keeping")
    assert stem("Employees") == stem("employee")
    assert stem("2024") == "2024"
    assert trim_plural("magazines") == "magazine"
    assert trim_plural("class") == "class" and trim_plural("bus") == "bus"


def test_no_other_module_keeps_a_word_regex() -> None:
    from pathlib import Path

    root = Path(ragcite.text.words.__file__).parents[1]
    pattern = re.compile(r"re\.compile\(r?[\"'](?:\\w\+|\[\^\\W_\]\+|\[A-Za-z\]\[A-Za-z)")
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "words.py" and pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_fast_paths_cut_words_like_the_regex() -> None:
    """ASCII text and text whose only non-ASCII characters are not letters or digits take
    a translate-and-split path: it must give exactly the words the regex gives."""
    alphabet = [*"abc XY-,.?_1\t\n", "\u2014", "\u201c", "\u00ad", "é", "ß", "İ", "\u2019"]
    rng = random.Random(3)
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        assert words(text) == [w.casefold() for w in WORD.findall(text)], text


@pytest.mark.parametrize(
    ("text", "spans", "within"),
    [
        ("Keep it. Then go.", [(0, 8), (9, 17)], True),
        ("Keep it. Then go.", [(0, 8)], False),  # "Then go" outside every span
        ("Keep it. Then go.", [(5, 8), (9, 17)], False),  # "Keep" before the first span
        ("Keep it — then go", [(0, 7), (10, 17)], True),  # only a dash between them
        ("keepsake", [(0, 4), (4, 8)], False),  # two spans cut the word
        ("keep, sake", [(0, 5), (5, 10)], True),  # adjacent spans, cut between words
        ("ab cd", [(0, 3), (2, 5)], False),  # overlapping spans
        ("", [], True),
    ],
)
def test_words_within_says_whether_the_spans_hold_every_word(
    text: str, spans: list[tuple[int, int]], within: bool
) -> None:
    assert words_within(text, spans) is within


def test_words_within_means_the_spans_words_are_the_texts_words() -> None:
    """When it says yes, the words of the span texts, in order, are the text's words."""
    alphabet = [*"ab Xy-.1\n", "\u2014", "é", "ß"]
    rng = random.Random(5)
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(0, 6))))
        spans = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b]
        if words_within(text, spans):
            assert [w for a, b in spans for w in words(text[a:b])] == words(text), (text, spans)


def test_irregular_plurals_stem_like_their_singulars() -> None:
    assert stem("teeth") == stem("tooth")
    assert stem("mice") == stem("mouse")
