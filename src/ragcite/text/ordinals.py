"""Ordinal words and the numbers they stand for ("second": 2), first to tenth: the support
checks read "the second instalment" as the number 2, and so does the generator when a
labelled line's label is "Instalment 2"."""

from __future__ import annotations

# Ordinal words in order, first to twenty-first ("the twelfth century").
ORDINAL_WORDS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth "
    "twenty-first"
).split()
ORDINALS: dict[str, float] = {word: float(n) for n, word in enumerate(ORDINAL_WORDS[:10], start=1)}
