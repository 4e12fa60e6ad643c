"""Quote checks before and after a change: the same verdicts, kinds and offsets, run by hand.

    PYTHONPATH=/work/main/src python bench/quote_equivalence.py save /tmp/before.json
    python bench/quote_equivalence.py save /tmp/after.json
    python bench/quote_equivalence.py compare /tmp/before.json /tmp/after.json

`save` runs `locate_quote` (from whichever ragcite is imported first) over the cases below
and writes (status, start, end) per case; `compare` counts the cases and the differences.
The cases: bench/peers.py's quote cases, then for real passages from ../shared/datasets
(bench/corpora.py) sentences cut from them and altered the ways a model or a PDF alters
them: case, spacing, curly quotes, dashes, ligatures, "ß"/"İ", words hyphenated across a
line break in the passage, elisions "A ... B", citation markers, and absent sentences.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import real_passages
from peers import quote_cases

from ragcite.verify.normalize import clear_caches
from ragcite.verify.quotes import locate_quote

Case = tuple[str, str]


def _sentences(passage: str) -> list[str]:
    return [s for s in passage.split(". ") if len(s) > 20]


def _curly(text: str) -> str:
    return text.replace("'", "\u2019").replace('"', "\u201c")


def _dashes(text: str) -> str:
    return text.replace(" - ", " \u2014 ").replace("-", "\u2013")


def _ligatures(text: str) -> str:
    return text.replace("fi", "\ufb01").replace("fl", "\ufb02").replace("ff", "\ufb00")


def _german(text: str) -> str:
    return text.replace("ss", "\u00df").replace("I", "\u0130", 1)


def _break_lines(text: str, rng: random.Random) -> str:
    """A passage with some long words hyphenated across a line break, and a paragraph."""
    words = text.split(" ")
    for i, word in enumerate(words):
        if len(word) > 7 and word.isalpha() and word[4:5].islower() and rng.random() < 0.3:
            words[i] = word[:4] + "-\n" + word[4:]
        elif rng.random() < 0.03:
            words[i] = word + "\n\n"
    return " ".join(words)


def _elide(sentence: str, rng: random.Random) -> str:
    words = sentence.split(" ")
    if len(words) < 8:
        return sentence
    cut = rng.randrange(3, len(words) - 3)
    return (
        " ".join(words[:cut])
        + rng.choice([" ... ", " \u2026 ", " [...] "])
        + " ".join(words[cut + 2 :])
    )


def _marker(sentence: str, rng: random.Random) -> str:
    return sentence + rng.choice([" [2]", " [1][3]", "[4]", " (source 2)"])


def _spacing(sentence: str) -> str:
    return "  ".join(sentence.upper().split(" ")).replace(" ", "\n", 1)


def _variants(passage: str, other: str, rng: random.Random) -> Iterator[Case]:
    sentences = _sentences(passage) or [passage[:60]]
    sentence = rng.choice(sentences)
    broken = _break_lines(passage, rng)
    quote_edits: list[Callable[[str], str]] = [
        lambda s: s,
        str.lower,
        str.upper,
        _spacing,
        _curly,
        _dashes,
        lambda s: s.replace("fi", "f i"),
        lambda s: _elide(s, rng),
        lambda s: _marker(s, rng),
        lambda s: _marker(_spacing(s), rng),
        lambda s: '"' + s + '."',
        lambda s: s[: len(s) // 2],
        lambda s: s.replace(" ", "-", 1),
    ]
    for edit in quote_edits:
        quote = edit(sentence)
        yield quote, passage
        yield quote, broken
    for alter in (_curly, _dashes, _ligatures, _german):
        yield sentence, alter(passage)
        yield sentence.upper(), alter(passage)
        yield alter(sentence), passage
        yield alter(sentence), alter(passage)
    yield sentence, "\u00a0" + passage.replace(" ", "  ", 3) + "\n"
    absent = rng.choice(_sentences(other) or [other[:60]])
    yield absent, passage
    yield absent.upper(), broken
    yield _elide(absent, rng), passage
    # a quote whose words are all in the passage, in another order
    words = sentence.split(" ")
    rng.shuffle(words)
    yield " ".join(words), passage


def cases(passages: int) -> list[Case]:
    """The bench's quote cases, then the altered ones for `passages` real passages."""
    rng = random.Random(11)
    texts = real_passages(passages)
    out = list(quote_cases(3000))
    for i, passage in enumerate(texts):
        out.extend(_variants(passage, texts[(i + 7) % len(texts)], rng))
    return out


def save(path: Path, passages: int) -> None:
    clear_caches()
    results = [tuple(locate_quote(q, t)) for q, t in cases(passages)]
    rows = [(s.value, a, b) for s, a, b in results]
    path.write_text(json.dumps(rows))
    print(f"{len(rows)} cases from {locate_quote.__module__} ({sys.modules['ragcite'].__file__})")


def compare(before: Path, after: Path, passages: int) -> int:
    old, new = json.loads(before.read_text()), json.loads(after.read_text())
    differ = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    listed = cases(passages)
    for i in differ[:10]:
        print(f"case {i}: {old[i]} -> {new[i]}: {listed[i]!r}")
    print(f"{len(old)} compared cases, {len(differ)} differences")
    return 1 if differ else 0


def main() -> None:
    passages = 600
    if sys.argv[1:2] == ["save"]:
        save(Path(sys.argv[2]), passages)
    elif sys.argv[1:2] == ["compare"]:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3]), passages))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
