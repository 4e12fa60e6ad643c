"""Random (quote, text) cases for comparing two paths of the quote check: texts glued from
a few words, quotes cut from them (changed in case or spacing, given an ending the text
lacks) or, one time in five, another text altogether."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class QuoteCases:
    words: Sequence[str]
    glue: Sequence[str]
    endings: Sequence[str]
    max_pieces: int
    max_quote: int
    ending_share: float

    def text(self, rng: random.Random) -> str:
        pieces = rng.randint(1, self.max_pieces)
        return "".join(rng.choice(self.words) + rng.choice(self.glue) for _ in range(pieces))

    def quote(self, rng: random.Random, text: str) -> str:
        start = rng.randrange(len(text))
        quote = text[start : start + rng.randint(3, self.max_quote)]
        if rng.random() < 0.3:
            quote = quote.upper()
        if rng.random() < 0.3:
            quote = quote.replace(" ", rng.choice(self.glue), 1)
        if rng.random() < self.ending_share:
            quote += rng.choice(self.endings)
        return quote if rng.random() < 0.8 else self.text(rng)

    def cases(self, seed: int, count: int) -> list[tuple[str, str]]:
        rng = random.Random(seed)
        out = []
        for _ in range(count):
            text = self.text(rng)
            out.append((self.quote(rng, text), text))
        return out
