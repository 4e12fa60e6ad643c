"""An extractive-style held-out set: claims that copy or lightly trim their evidence.

Generated claims often repeat a sentence of the passage they cite, sometimes with a
clause left out; the hard negatives among them differ from the passage in one number or
one name. Word overlap is at its best on such claims, so a support checker that does worse
than overlap here has thrown away what overlap knows. Built from passages no support
model is trained on: SQuAD 2.0 paragraphs (`squad2_subset`) and HaluEval knowledge
passages after the first 3,000 items (the support training set stops at 3,000). Every
passage is one group; every choice is seeded by the group, so the set is the same on
every run.

Kinds (one claim of each per passage, where the passage allows it):

- `verbatim`: a sentence of the passage, as it is (supported);
- `trimmed`: a sentence with one comma-delimited or bracketed clause removed (supported);
- `number_changed`: a sentence with one number replaced by another (unsupported);
- `name_changed`: a sentence with one name replaced by another name of the same passage,
  or of another passage when it has none (unsupported);
- `neighbour`: a sentence of another passage of the same source (unsupported).

    >>> pairs = list(load_extractive(limit=20))
    >>> sorted({p.source for p in pairs}), pairs[0].supported
    (['extractive'], True)
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ragcite.eval.datasets import DEFAULT_ROOT, SupportPair
from ragcite.text.sentences import split_sentences

SOURCE = "extractive"
HALUEVAL_FIRST = 3000  # items before this are support training data
MIN_WORDS = 8
_GLUED = re.compile(r"(?<=[a-z0-9\)][.!?])(?=[A-Z])")  # HaluEval joins passages as "end.Next"
_CLAUSE = re.compile(r"\s*\([^()]{3,}\)|,\s[^,]{8,}?,(?=\s)")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")
_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+(?: [A-Z][a-z]+)*")


@dataclass(frozen=True)
class Passage:
    """One evidence passage and the group its pairs share."""

    text: str
    group: str


def load_extractive(
    root: Path = DEFAULT_ROOT, *, limit: int | None = 1000, seed: int = 13
) -> Iterator[SupportPair]:
    """Extractive-style pairs from the SQuAD 2.0 paragraphs and `limit` HaluEval passages
    (items from 3,000 on); see the module docstring for the kinds."""
    for passages in (_squad_passages(root), _halueval_passages(root, limit)):
        for index, passage in enumerate(passages):
            step = 1 + _rng(passage, seed).randrange(len(passages) - 1)
            neighbour = passages[(index + step) % len(passages)]
            yield from _pairs(passage, neighbour, seed)


def _rng(passage: Passage, seed: int) -> random.Random:
    digest = hashlib.sha256(f"extractive:{seed}:{passage.group}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _squad_passages(root: Path) -> list[Passage]:
    seen: dict[str, Passage] = {}
    for name in ("part_a.json", "part_b.json"):
        data = json.loads((root / "squad2_subset" / name).read_text(encoding="utf-8"))
        for article in data["data"]:
            for paragraph in article["paragraphs"]:
                text = paragraph["context"].strip()
                digest = hashlib.sha256(text.encode()).hexdigest()[:16]
                seen.setdefault(text, Passage(text, f"extractive:squad:{digest}"))
    return list(seen.values())


def _halueval_passages(root: Path, limit: int | None) -> list[Passage]:
    out: list[Passage] = []
    with (root / "halueval" / "qa_train.jsonl").open(encoding="utf-8") as handle:
        for index, line in enumerate(handle):
            if index < HALUEVAL_FIRST or not line.strip():
                continue
            if limit is not None and len(out) >= limit:
                break
            text = unglued(json.loads(line)["knowledge"].strip())
            out.append(Passage(text, f"extractive:halueval:{index}"))
    return out


def unglued(text: str) -> str:
    """`text` with a space put back between sentences joined as "end.Next" (HaluEval)."""
    return _GLUED.sub(" ", text)


def sentences(text: str) -> list[str]:
    """The passage's sentences of at least MIN_WORDS words."""
    spans = (text[a:b].strip() for a, b in split_sentences(text))
    return [s for s in spans if len(s.split()) >= MIN_WORDS]


def _pairs(passage: Passage, neighbour: Passage, seed: int) -> Iterator[SupportPair]:
    rng = _rng(passage, seed)
    own = sentences(passage.text)
    if not own:
        return
    claims: list[tuple[str | None, bool]] = [
        (rng.choice(own), True),
        (_first(own, rng, _trimmed), True),
        (_first(own, rng, lambda s: _number_changed(s, passage.text, rng)), False),
        (_first(own, rng, lambda s: _name_changed(s, passage.text, neighbour.text, rng)), False),
    ]
    other = sentences(neighbour.text)
    claims.append((rng.choice(other) if other else None, False))
    for claim, supported in claims:
        if claim is not None:
            yield SupportPair([passage.text], claim, supported, passage.group, SOURCE)


def _first(own: list[str], rng: random.Random, change: object) -> str | None:
    """The change applied to the first sentence (in a seeded order) it applies to."""
    assert callable(change)
    for sentence in rng.sample(own, len(own)):
        changed = change(sentence)
        if changed is not None:
            return str(changed)
    return None


def _trimmed(sentence: str) -> str | None:
    match = _CLAUSE.search(sentence)
    if match is None:
        return None
    trimmed = sentence[: match.start()] + sentence[match.end() :]
    return trimmed if len(trimmed.split()) >= MIN_WORDS - 2 else None


def _number_changed(sentence: str, passage: str, rng: random.Random) -> str | None:
    numbers = _NUMBER.findall(sentence)
    if not numbers:
        return None
    target = rng.choice(numbers)
    value = float(target.replace(",", ""))
    for delta in rng.sample([1, 2, 3, 5, 10, 12, 20], 7):
        new = value + delta if rng.random() < 0.5 or value <= delta else value - delta
        text = f"{new:.{_decimals(target)}f}"
        if text not in passage:
            return sentence.replace(target, text, 1)
    return None


def _decimals(number: str) -> int:
    return len(number.split(".")[1]) if "." in number else 0


def _name_changed(sentence: str, passage: str, neighbour: str, rng: random.Random) -> str | None:
    names = _NAME.findall(sentence)
    if not names:
        return None
    target = rng.choice(names)
    pool = sorted({n for n in _NAME.findall(passage) if n not in sentence and target not in n})
    pool = pool or sorted({n for n in _NAME.findall(neighbour) if n not in passage})
    if not pool:
        return None
    return sentence.replace(target, rng.choice(pool), 1)
