"""Questions that ask what something costs, and the sentences that state a price.

"How much does Premium membership cost a month?", "Is there a fee if I drop the car off at
another branch?" and "How much extra does flood cover add?" ask a price (`asks_price`); a
sentence states one when it holds an amount of money, a percentage, or says the thing is
free, at no charge or included (`states_price`). The reading check declines a question
asking a price over quotes that state none, and one asking about a discount over quotes
that state no discount (`asks_discount`, `states_discount`).

    >>> asks_price("Is there a fee if I drop the car off at a different branch?")
    True
    >>> states_price("The standard fee is £185 per week.")
    True
"""

from __future__ import annotations

import re

from ragcite.text.stems import stem
from ragcite.text.words import content_stems

# The words a question asking a price names it by, which a priced line need not repeat
# ("what's the price per cubic metre?" over "Water usage — Metered customers: GBP 1.8420 per
# cubic metre").
PRICE_WORDS = frozenset("price prices cost costs charge charges fee fees rate rates tariff".split())
PRICE_STEMS = frozenset(stem(w) for w in PRICE_WORDS)
NO_CHARGE = r"no\s+(?:extra\s+)?(?:charge|cost|fee)|at\s+no\s+(?:extra\s+)?cost"
# A question asking what something costs ("How much does Premium membership cost a month?",
# "What's the fee for a replacement card?", "What's the pay as you go price?", "How much is
# the permit?", "Is there a fee if I drop the car off at another branch?"), and a price a
# sentence may state: an amount of money, a percentage, or that it is free or included.
_PRICE_ASKED = re.compile(
    r"\bhow\s+much\s+(?:does|do|did|will|would)\b.*\b(?:cost|charge)\b|"
    r"^\s*(?:is|are)\s+there\s+(?:a|an|any)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:fee|charge|cost|price|discount)s?\b|"
    r"\bhow\s+much\s+(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:fee|fees|charge|charges|price|cost|subscription|membership|permit|pass|ticket)s?\b|"
    r"\bwhat(?:\s+is|['’]s|s)\s+the\s+(?:(?!(?:for|of|to|on|in|at|with)\b)[\w-]+\s+){0,4}?"
    r"(?:price|fee|cost|charge)\b|"
    r"\bhow\s+much\s+(?:extra|more)\b(?!\s+(?:time|days?|weeks?|data|storage|space|leave|"
    r"holidays?|notice|people|guests|items))|"
    r"\bhow\s+much\s+(?:a|an|per|each)\s+(?:month|year|week|day|night|hour|session|class|"
    r"visit|lesson|person|head)\b",
    re.IGNORECASE,
)
# "what does that cost?", "what's it going to cost me?": the cost of what the question says.
COSTS_IT = (
    r"\bwhat(?:\s+will|\s+would|\s+does|\s+do|\s+is|['’]s)\s+(?:it|that|this)\s+"
    r"(?:going\s+to\s+)?cost\b"
)
_COSTS_IT = re.compile(COSTS_IT, re.IGNORECASE)
# An amount of money by its sign or code ("£15", "GBP 30.00").
_MONEY = r"[$€£¥]\s?\d|\b(?:EUR|USD|GBP|AUD|CAD|CHF|NZD|INR|JPY)\s?\d"
_PRICE_SAID = re.compile(
    rf"{_MONEY}|"
    r"\d[\d,.]*\s*(?:million|billion|thousand|m|bn|k)?\s*"
    r"(?:EUR|USD|GBP|AUD|CAD|euros?|dollars?|pounds?|pence|p|cents?)\b|"
    r"\bfree\b(?=\s*(?:[.,;:!?)]|$|(?:of|for|to|when|if|on|at|during|until|with)\b))|"
    rf"\b(?:{NO_CHARGE}|included)\b|"
    r"\b(?:do|does|will)\s+not\s+charge\b|\b(?:don|doesn)['’]t\s+charge\b|"  # "We do not charge …"
    r"\bno\s+(?:[\w-]+\s+){1,2}(?:fee|charge|penalty)s?\b|"  # "no early repayment fee"
    r"\d\s?%|\bper\s?cent\b|\bhalf\s+price\b",
    re.IGNORECASE,
)


def asks_price(question: str) -> bool:
    """Whether `question` asks what something costs."""
    return bool(_PRICE_ASKED.search(question))


def asks_cost_of_it(question: str) -> bool:
    """Whether `question` asks what the thing it has just named costs (`COSTS_IT`)."""
    return bool(_COSTS_IT.search(question))


def states_price(sentence: str) -> bool:
    """Whether `sentence` states a price."""
    return bool(_PRICE_SAID.search(sentence))


# An amount of money or a share of one, not "free" or "included".
_AMOUNT = re.compile(rf"{_MONEY}|\d\s?%", re.IGNORECASE)
_FREE = re.compile(rf"\bfree\b|\b(?:{NO_CHARGE})\b", re.IGNORECASE)


def prices_the_other_case(question: str, free: str, after: str) -> bool:
    """Whether, for a `question` asking a price, the sentence `after` puts an amount on what
    the sentence before it says is `free` in some case ("Transfers after week 3 carry a £15
    administration fee." after "You may transfer to a different class … free of charge during
    the first three weeks of term" for "I'm in week 4 … is there a charge for that?")."""
    return (
        asks_price(question)
        and _FREE.search(free) is not None
        and _AMOUNT.search(after) is not None
        and bool(content_stems(after) & content_stems(free))
    )


# A question about a discount ("Is there a discount for retired members?", "How much is the
# staff discount?") and a sentence that states one: a discount, a reduction or concession,
# money or a share off, half price, a lower price, or free.
_DISCOUNT_ASKED = re.compile(r"\b(?:discount(?:s|ed)?|reductions?|concessions?)\b", re.IGNORECASE)
# An offer is a discount however it is worded: "13 cleans for the price of 12".
_OFFER = r"for\s+the\s+price\s+of|buy\s+one,?\s+get\s+one"
_DISCOUNT_SAID = re.compile(
    r"\b(?:discount\w*|reduc\w*|concession\w*|cheaper|lower|less|off|free|waived|"
    rf"half[\s-]price|social\s+tariff|{_OFFER})\b|\d\s?%|\bper\s?cent\b",
    re.IGNORECASE,
)


def asks_discount(question: str) -> bool:
    """Whether `question` asks about a discount, reduction or concession."""
    return bool(_DISCOUNT_ASKED.search(question))


def states_discount(sentence: str) -> bool:
    """Whether `sentence` states a discount: a price row without one ("IBSP member — Early
    Bird: £495; Standard: £595") does not.

    >>> states_discount("Residents aged 70 or over pay half price for all visitor hours.")
    True
    >>> states_discount("Pay a year in advance and get 13 cleans for the price of 12.")
    True
    """
    return bool(_DISCOUNT_SAID.search(sentence))


# A discount named as such, amount or not ("We offer a sibling discount …"): narrower than
# `states_discount`, whose "off", "less" and "lower" also stand in "off-road" or "less than".
_DISCOUNT_NAMED = re.compile(
    rf"\b(?:(?:discount|reduction|concession)s?|{_OFFER})\b", re.IGNORECASE
)


def names_discount(sentence: str) -> bool:
    """Whether `sentence` names a discount, a reduction or a concession."""
    return bool(_DISCOUNT_NAMED.search(sentence))
