"""Ordinal words and the numbers they stand for ("second": 2), first to tenth: the support
checks read "the second instalment" as the number 2, and so does the generator when a
labelled line's label is "Instalment 2". Also the number words one to twelve, which the
generator reads before what they count ("a two-week stay") and in clock times ("half
three")."""

from __future__ import annotations

# Ordinal words in order, first to twenty-first ("the twelfth century").
ORDINAL_WORDS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth "
    "twenty-first"
).split()
ORDINALS: dict[str, float] = {word: float(n) for n, word in enumerate(ORDINAL_WORDS[:10], start=1)}
# Number words in order, one to twelve ("a two-week stay", "quarter to six").
NUMBER_WORDS = "one two three four five six seven eight nine ten eleven twelve".split()
