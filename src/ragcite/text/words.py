"""Words: the stopword lists and tokenizer that every stage shares.

One list, so that the keyword index, the extractive generator, the support checker,
the reranker and the eval labels agree on what a content word is. The shipped support
and reranker models were trained with these lists: change them and retrain
(scripts/train_support.py, scripts/train_rerank.py).
"""

from __future__ import annotations

import re

WORD = re.compile(r"[^\W_]+", re.UNICODE)

# Function words: they carry no content of their own.
STOPWORDS = frozenset(
    """
    a about above after again all also although am an and any are as at be because been before
    being below between both but by can could did do does doing don down during each else few
    for from further get got had has have having he her here hers him his how i if in into is
    it it's its just like may me might mine more most must my now of off on once one's only
    onto or other our out over own per s same shall she should so some someone something such t
    than that the their theirs them then there these they this those though through to too
    under until up us very via was we well were what when where whether which while who whom
    whose why will with would yet you your
    """.split()
)

# Words that shape a question ("how long", "what is it called") but never name its topic.
QUESTION_WORDS = frozenset("long many much called named known name one done either".split())


def words(text: str) -> list[str]:
    """The case-folded word tokens of `text` (letters and digits; punctuation splits)."""
    return [w.casefold() for w in WORD.findall(text)]
