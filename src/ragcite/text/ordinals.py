"""Ordinal words and the numbers they stand for ("second": 2), first to tenth: the support
checks read "the second instalment" as the number 2, and so does the generator when a
labelled line's label is "Instalment 2"."""

from __future__ import annotations

ORDINALS: dict[str, float] = {
    word: float(n)
    for n, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth".split(), start=1
    )
}
