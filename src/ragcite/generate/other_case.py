"""The other case: a sentence that speaks of the case the question is not about.

"I clicked a phishing link, what should I do?" is not answered by "Phishing emails that were
not clicked can be reported …", nor "We're staying at the hotel, how far ahead can we
book?" by "Day guests who are not staying at the hotel may book up to 6 weeks in advance."
(`negated_in_quote`). The generator passes over such a sentence when one beside it speaks
of the asker's case; the reading check declines an answer that only quotes such sentences.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcite.generate.focus import ANSWERED_BY_NO, question_focus
from ragcite.text.stems import stem
from ragcite.text.words import STOPWORDS, content_words, words

# "for no (particular) reason" says why the asker does it, not what is negated.
NEGATION = re.compile(
    r"\b(?:not|never|none|nobody|nothing|neither|nor|without|cannot)\b|n't\b|"
    r"\bno\b(?!\s+(?:particular\s+|good\s+|specific\s+|real\s+)?reason\b)",
    re.IGNORECASE,
)
# Between a negation and the word it negates: "not be used", "never fully paid".
_NEGATED_GAP = frozenset("be been being is are was were also always fully yet still ever".split())


def negated_in_quote(question: str, quoted: Sequence[str]) -> str | None:
    """The question word that the quoted sentences only ever negate, for a question that
    is not negated and asks what, who, when or where ("I clicked a phishing link, what
    should I do?" over "Phishing emails that were not clicked can be reported …"; "What
    art did the Normans have a tradition of?" over "… did not have the rich traditions
    …"): they speak of the opposite case. Only the first (best) quoted sentence's negations
    count: a sentence beside it may speak of the other case ("Sickness and diarrhoea: keep
    your child at home until 48 hours after the last episode." then "If your child will not
    be coming in, phone …" for "when can he come back to nursery?"). None when a sentence
    uses the word plainly, or when a "no" answers the question (yes/no, may I, what
    happens)."""
    if NEGATION.search(question) or question_focus(question) in ANSWERED_BY_NO:
        return None
    asked = {stem(w): w for w in content_words(question, STOPWORDS)}
    negated: set[str] = set()
    plain: set[str] = set()
    first: set[str] = set()
    for n, sentence in enumerate(quoted):
        tokens = words(sentence.lower())
        after_negation = {
            i + 1 + k
            for i, token in enumerate(tokens)
            if token in ("not", "never", "no")
            for k in range(_gap(tokens, i + 1) + 1)
        }
        for i, token in enumerate(tokens):
            if stem(token) in asked:
                (negated if i in after_negation else plain).add(stem(token))
                if n == 0 and i in after_negation:
                    first.add(stem(token))
    only_negated = sorted((negated - plain) & first)
    return asked[only_negated[0]] if only_negated else None


def _gap(tokens: list[str], start: int) -> int:
    """How many `_NEGATED_GAP` words follow `start` (at most 2)."""
    gap = 0
    while gap < 2 and start + gap < len(tokens) and tokens[start + gap] in _NEGATED_GAP:
        gap += 1
    return gap
