"""The other case: a sentence that speaks of the case the question is not about.

"I clicked a phishing link, what should I do?" is not answered by "Phishing emails that were
not clicked can be reported …", nor "We're staying at the hotel, how far ahead can we
book?" by "Day guests who are not staying at the hotel may book up to 6 weeks in advance."
(`negated_in_quote`). The generator passes over such a sentence when one beside it speaks
of the asker's case (`asker_case_first`) and joins none from another passage to an answer
of the asker's case (`same_case`); the reading check declines an answer that only quotes
such sentences.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from ragcite.generate.focus import ANSWERED_BY_NO, question_focus
from ragcite.generate.joining import Candidate, rank
from ragcite.text.labels import clause_title
from ragcite.text.stems import stem
from ragcite.text.table_rows import is_table_row
from ragcite.text.words import STOPWORDS, content_stems, content_words, words

# "for no (particular) reason" says why the asker does it, not what is negated; "whether or
# not" and "… or not?" ask about both cases.
NEGATION = re.compile(
    r"\b(?:(?<!\bor )not|never|none|nobody|nothing|neither|nor|without|cannot)\b|n't\b|"
    r"\bno\b(?!\s+(?:particular\s+|good\s+|specific\s+|real\s+)?reason\b)",
    re.IGNORECASE,
)
# A question about a thing that stopped working is about its negated case: "The heating
# in my room has packed up" is the case of "If there is no heating …".
_BROKEN = re.compile(
    r"\b(?:packed\s+(?:up|in)|broken|broke\s+down|stopped\s+working|conked\s+out|gone\s+off|"
    r"died|failed|burst|bust)\b",
    re.IGNORECASE,
)
# A sentence of the asker's case ranked this close below one of the other case goes first.
_OTHER_CASE_MARGIN = 0.1
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
    uses the word plainly, when a "no" answers the question (yes/no, may I, what happens),
    or when the question is about a thing that stopped working (`_BROKEN`)."""
    asked = _asked_words(question)
    if asked is None:
        return None
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


@lru_cache(maxsize=256)  # asked of each question for every sentence the generator weighs
def _asked_words(question: str) -> dict[str, str] | None:
    """The question's content words by their stems (read, never changed, by
    `negated_in_quote`); None when no sentence can speak of its other case: the question is
    negated, about a thing that stopped working, or answered by a "no"."""
    if (
        NEGATION.search(question)
        or _BROKEN.search(question)
        or question_focus(question) in ANSWERED_BY_NO
    ):
        return None
    return {stem(w): w for w in content_words(question, STOPWORDS)}


def _gap(tokens: list[str], start: int) -> int:
    """How many `_NEGATED_GAP` words follow `start` (at most 2)."""
    gap = 0
    while gap < 2 and start + gap < len(tokens) and tokens[start + gap] in _NEGATED_GAP:
        gap += 1
    return gap


def asker_case_first(query: str, ranked: list[Candidate]) -> list[Candidate]:
    """`ranked` with the first sentence that speaks of the asker's case put before one
    ranked above it by `_OTHER_CASE_MARGIN` or less that speaks of the other
    (`negated_in_quote`: "Day guests who are not staying at the hotel …" for "We're
    staying at the hotel, how far ahead can we book?")."""
    if not ranked or negated_in_quote(query, [ranked[0].text]) is None:
        return ranked
    return _promoted(ranked, lambda c: negated_in_quote(query, [c.text]) is None)


def _promoted(ranked: list[Candidate], of_the_case: Callable[[Candidate], bool]) -> list[Candidate]:
    """`ranked` with the first of the three after the first that is `of_the_case` put
    before it, when it ranks within `_OTHER_CASE_MARGIN` of it."""
    for i, c in enumerate(ranked[1:4], start=1):
        if rank(c) < rank(ranked[0]) - _OTHER_CASE_MARGIN:
            break
        if of_the_case(c):
            return [c, *ranked[:i], *ranked[i + 1 :]]
    return ranked


# A question about the case where the asker does not do something: "What happens if I forget
# to put a wheel clamp on?", "… if I don't pay?", "… if we dont manage to bring it back?".
_NOT_DONE = re.compile(
    r"\b(?:forg[eo]t(?:ten)?\s+to|fail(?:ed)?\s+to|neglect(?:ed)?\s+to|do\s+not|don['’]?t|"
    r"did\s+not|didn['’]?t)\b",  # "dont", as it is typed too
    re.IGNORECASE,
)
_SAYS_NOT_DONE = re.compile(
    r"\b(?:without|not|no|never|fails?\s+to|unless)\b|n['’]t\b", re.IGNORECASE
)


def not_done_first(query: str, ranked: list[Candidate]) -> list[Candidate]:
    """For a question about the case where the asker does not do something, `ranked` with
    the first sentence that speaks of that case ("If we find a caravan without a wheel
    clamp, we will fit one of ours and charge …") put before a best one that does not ("Your
    caravan must be fitted with a wheel clamp …"), when it ranks within `_OTHER_CASE_MARGIN`
    and shares a word of the question."""
    if not ranked or not _NOT_DONE.search(query) or _SAYS_NOT_DONE.search(ranked[0].text):
        return ranked
    asked = content_stems(query)
    return _promoted(
        ranked, lambda c: bool(_SAYS_NOT_DONE.search(c.text) and asked & content_stems(c.text))
    )


def same_case(query: str, chosen: list[Candidate]) -> list[Candidate]:
    """`chosen` without the sentences of other passages that speak of the other case
    (`negated_in_quote`) when the best one does not: "We do not put caps on …" beside "we
    may apply traffic management …" for "If you put traffic management on my line, …". A
    sentence of the best one's passage stays: it often goes on to the exception ("This
    insurance does not cover injury to you")."""
    best = chosen[0]
    if negated_in_quote(query, [best.text]) is not None:
        return chosen
    return [
        best,
        *(
            c
            for c in chosen[1:]
            if c.chunk_rank == best.chunk_rank or negated_in_quote(query, [c.text]) is None
        ),
    ]


def answer_order(candidate: Candidate) -> tuple[bool, float]:
    """Candidates' order for the best answer (`ExtractiveGenerator._answers`): by rank, but a
    clause's title ("e) Disturbance allowance.", quoted with the sentence it heads by
    `labelled_opening`, never chosen for itself: it states nothing) and a sentence about the
    other party's act ("If we cancel …" for "I need to cancel …") after every other."""
    aside = of_the_other_case(candidate) or clause_title(candidate.text)
    return bool(aside), -rank(candidate)


def of_the_other_case(candidate: Candidate) -> bool:
    """Whether `candidate` is a sentence about the other case than the asker's (a row's is
    read by `rank`)."""
    return candidate.other_case and not is_table_row(candidate.text)
