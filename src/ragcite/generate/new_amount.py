"""The amount a how-much question asks for, when the sentence chosen only repeats the asker's.

"How much would my monthly payments be if I borrowed 1000 pounds over a year?" is closest to
"Borrow £1,000 over 12 months on a Standard Loan at 1.5% per month": the asker's own £1,000,
no answer. The next sentence ("You would make 12 monthly repayments of £91.68.") names an
amount the question does not, and is quoted beside it.

    >>> money_amounts("Borrow £1,000 over 12 months, or 500 pounds over 6.")
    {1000.0, 500.0}
"""

from __future__ import annotations

import re

from ragcite.generate.focus import question_focus
from ragcite.generate.joining import Candidate

_NUMBER = r"(\d[\d,]*(?:\.\d+)?)"
_MONEY = re.compile(
    rf"[£$€]\s?{_NUMBER}|\b(?:GBP|USD|EUR)\s?{_NUMBER}|"
    rf"\b{_NUMBER}\s*(?:pounds?|quid|dollars?|euros?|GBP|USD|EUR)\b",
    re.IGNORECASE,
)
# A bare number the asker names ("if I borrowed 1000"): an amount of theirs too.
_BARE = re.compile(rf"(?<![\w.,£$€]){_NUMBER}(?![\w.,%])")
# How far on the sentence naming a new amount may be.
_REACH = 2


def money_amounts(text: str) -> set[float]:
    """The amounts of money `text` names ("£1,000", "GBP 30", "500 pounds")."""
    return {float(next(g for g in m.groups() if g).replace(",", "")) for m in _MONEY.finditer(text)}


def gives_a_new_amount(
    question: str, chosen: list[Candidate], candidates: list[Candidate]
) -> Candidate | None:
    """For a how-much question whose chosen sentences name only the asker's amounts, the
    next sentence of the best one's passage (at most `_REACH` on) that names another."""
    if not chosen or question_focus(question) != "amount":
        return None
    asked = money_amounts(question) | {float(n.replace(",", "")) for n in _BARE.findall(question)}
    said = set().union(*(money_amounts(c.text) for c in chosen))
    if not said or not said <= asked:
        return None
    best = chosen[0]
    onward = [
        c
        for c in candidates
        if c.chunk_rank == best.chunk_rank
        and 0 < c.position - best.position <= _REACH
        and money_amounts(c.text) - asked
    ]
    return min(onward, key=lambda c: c.position, default=None)
