"""The reading check: do the quoted sentences, read closely, answer the question asked?

SQuAD 2.0's unanswerable questions are written against the very paragraph that is
retrieved: one name, number or condition is changed ("What is not used…", "the smallest"
where the paragraph says "the biggest"). Passage-level word coverage cannot see that; two
signals read the quoted sentence and its neighbours (the *window*) precisely enough to
decline on their own (`reading_conflict`, the pipeline's `gate.reading_check`): a negated
question over sentences that are not ("What is not used…" over "… is used"), and an
opposite ("smallest" asked, "biggest" said). Other reading signals were measured as inputs
of the answerability model and not kept: `ragcite.train.reading_features`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ragcite.generate.focus import (
    ANSWERED_BY_NO,
    leading_statement,
    question_focus,
    question_proper,
)
from ragcite.generate.other_case import NEGATION, negated_in_quote
from ragcite.models import SourceChunk
from ragcite.rerank.question_parts import asking_parts
from ragcite.text.contacts import asked_contact, gives_contact
from ragcite.text.faq import answered_questions
from ragcite.text.prices import (
    NO_CHARGE,
    asks_discount,
    asks_price,
    names_discount,
    states_discount,
    states_price,
)
from ragcite.text.sentences import split_sentences
from ragcite.text.stems import stem
from ragcite.text.table_rows import is_table_row
from ragcite.text.times_of_day import asks_time_of_day, gives_time_of_day
from ragcite.text.words import content_stems, words
from ragcite.verify.answer_types import names_a_person, names_someone_new
from ragcite.verify.counts import gives_no_count
from ragcite.verify.opposites import opposite_pair
from ragcite.verify.stated_years import year_unmatched

Quote = tuple[str, SourceChunk]
_NEGATING_PREFIXES = ("un", "non", "dis", "in", "im")
# Words that state a negation in one word: a course not finished on time is "overdue", a
# driver no longer allowed to drive is "suspended from driving", a payment not made has
# "failed", property nobody picks up is "unclaimed" (un-…ed, un-…able: not "under…",
# "unified", "united"). Not "lack" or a bare "suspended": "What has not been done …?" over
# "… lack …", "What lake no longer has any silt?" over "… the lighter suspended load …".
_NEGATIVE_STATES = re.compile(
    r"\b(?:overdue|miss(?:es|ed)|fail(?:s|ed|ure|ures)?|lapsed|expired|faults?|faulty|broken|"
    r"breakdowns?|outages?|defective|(?:falls?|falling|fell|drops?|dropped)\s+(?:short|below)|"
    r"(?:suspended|banned|barred|disqualified) from|prohibit(?:s|ed)?|forbid(?:s|den)?|"
    r"refus(?:e|es|ed|al)|den(?:y|ies|ied)|revok(?:e|es|ed)|withh(?:old|olds|eld)|"
    r"unpaid|un(?!der|ifi|ite|ion)[a-z]{2,}(?:ed|able|ible))\b",
    re.IGNORECASE,
)
# Questions asking for a measure, a date or a person: a negation in their condition ("… if I
# don't like it?", "… to cancel without paying a penalty?") or in what the asker wants ("how
# much notice do I have to give so I don't lose the deposit?") is the asker's case, not what
# is asked.
_MEASURED = frozenset({"date", "amount", "duration", "role"})
_CONDITION = re.compile(
    r"\b(?:if|unless|when|in\s+case|so\s+that|so\s+(?:i|we|you|they|he|she|it)\b)\b",
    re.IGNORECASE,
)
# A condition on something other than the asker, negated: "if the buses aren't running",
# "when the heating isn't working"; the negation is the circumstance, not what is asked.
_OUTSIDE_CONDITION = re.compile(
    r"\b(?:if|when|because|as|since)\s+(?:the|a|an|our|their|his|her|its|it|they|there)\b"
    r"(?:(?!\b(?:i|we|me|us)\b)[^,?.;]){0,40}?(?:\bnot\b|n't\b|\bno\s+longer\b)",
    re.IGNORECASE,
)
_UNPAID_ASKED = re.compile(
    r"\b(?:without|not|n't|no)\s+(?:\w+\s+)?(?:pay\w*|charg\w*|cost\w*|fees?)\b|"
    r"\bwithout\s+los(?:e|ing)\s+(?:my|our|your|the|any)\s+(?:money|deposit|fee)\b|"
    r"\bfor\s+nothing\b",
    re.IGNORECASE,
)
_FREE_SAID = re.compile(rf"\b(?:free|complimentary|refund\w*|{NO_CHARGE})\b", re.IGNORECASE)
# Negations a passage says in other words: not paying or not losing one's money is "free" or
# "refunded" ("How many friends can I bring in without paying?" over "… up to 2 guests per
# day … free of charge"), "never … before" is "new" or "first" ("… someone I've never paid
# before?" over "Online transfers to a new payee …"), "not enough" people is a "minimum" or
# "fewer than", and an event that does not go ahead is "cancelled" ("what happens if not
# enough people sign up and my course doesn't go ahead?" over "If we cancel a course, you
# will receive a full refund … Courses need a minimum of 8 learners to run").
_SAID_OTHERWISE = (
    (_UNPAID_ASKED, _FREE_SAID),
    (  # "… move it without losing our deposit?": "we transfer your deposit to the new date"
        re.compile(r"\bwithout\s+los(?:e|ing)\s+(?:\w+\s+)?(?:money|deposit)\b", re.IGNORECASE),
        re.compile(
            r"\b(?:transfer\w*|mov(?:e|ed)|carr(?:y|ied)\s+(?:over|forward)|kept|keep|retain\w*)\b",
            re.IGNORECASE,
        ),
    ),
    (
        re.compile(r"\bnever\s+(?:[\w'’]+\s+){0,3}?before\b", re.IGNORECASE),
        re.compile(r"\b(?:new|first)\b", re.IGNORECASE),
    ),
    (  # "software that isn't in the Company Portal": "any other software", "only from"
        re.compile(
            r"(?:\bnot|n['’]t)\s+(?:\w+\s+)?(?:in|on|part\s+of|listed|included)\b", re.IGNORECASE
        ),
        re.compile(r"\b(?:any|all)\s+other\b|\bonly\b|\bexcept\b|\boutside\b", re.IGNORECASE),
    ),
    (  # "without paying full whack": a lower price or a price for the asker's case
        re.compile(
            r"\b(?:without|not|n['’]t)\s+(?:\w+\s+){0,2}?(?:full|whole|normal|standard|"
            r"regular|usual)\s+(?:price|whack|fee|rate|amount|cost|membership)\b",
            re.IGNORECASE,
        ),
        re.compile(
            r"[$€£¥]\s?\d|\d\s?%|\b(?:half|reduced|lower|discount\w*|free|cheaper)\b",
            re.IGNORECASE,
        ),
    ),
    (
        re.compile(r"\bnot\s+enough\b", re.IGNORECASE),
        re.compile(r"\b(?:minimum|fewer|too\s+few|at\s+least)\b", re.IGNORECASE),
    ),
    (
        re.compile(
            r"\b(?:not|n['’]t|never)\s+(?:\w+\s+)?(?:go(?:ing)?\s+ahead|run|running|"
            r"take\s+place|happen)\b",
            re.IGNORECASE,
        ),
        re.compile(r"\b(?:cancel\w*|postpone\w*|called\s+off)\b", re.IGNORECASE),
    ),
)
_NAME_OF = re.compile(r"\bnames?\s+of\b", re.IGNORECASE)
# "Who is responsible for …?" is answered by a sentence addressed to the reader: a policy's
# "you" and "your" name the one who must do it.
_WHO_IS_RESPONSIBLE = re.compile(r"\b(?:responsible|liable)\b", re.IGNORECASE)
_ADDRESSED = re.compile(r"\b(?:you|your)\b", re.IGNORECASE)
_WHO_IS = re.compile(
    r"^\s*(?:who\s+(?:is|are|was|were)\b|who['’]s\b|"
    r"what(?:\s+is|\s+are|['’]s|s)\s+(?:the\s+)?names?\s+of\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Window:
    """The quoted sentences of a passage, their neighbours, and all its sentences; `asked`:
    the FAQ questions the quoted sentences answer (`ragcite.text.faq`); `heading`: the
    passage's section heading."""

    quoted: list[str]
    window: list[str]
    sentences: list[str]
    asked: list[str] = field(default_factory=list)
    heading: str = ""


def quote_window(quote: str, chunk: SourceChunk) -> Window:
    """The sentences of `chunk` that `quote` spans, with one neighbour on each side (the
    sentence sharing most words with the quote where it is not found verbatim)."""
    text = chunk.chunk_text
    spans = split_sentences(text) or [(0, len(text))]
    sentences = [text[a:b] for a, b in spans]
    at = text.find(quote.strip())
    if at >= 0:
        end = at + len(quote.strip())
        hit = [i for i, (a, b) in enumerate(spans) if a < end and b > at]
    else:
        said = set(words(quote))
        overlap = [len(said & set(words(s))) for s in sentences]
        hit = [int(np.argmax(overlap))]
    first, last = min(hit), max(hit)
    window = sentences[max(0, first - 1) : last + 2]
    questions = answered_questions(text, spans)
    asked = dict.fromkeys(sentences[q] for q in questions[first : last + 1] if q is not None)
    heading = chunk.section_heading or ""
    return Window(sentences[first : last + 1], window, sentences, list(asked), heading)


def negation_unmatched(question: str, quoted: str) -> str | None:
    """The question's negation ("not", "never", …) when the quoted sentences hold none:
    they answer the question without it ("What is not used…" over "X is used…"). A word
    of the question negated by its prefix counts as a negation ("What happens if I don't
    reconcile my statement?" over "unreconciled transactions … are deducted"), and so does a
    word that states one ("overdue", "suspended": `_NEGATIVE_STATES`), and the same negation
    in other words (`_SAID_OTHERWISE`: "free" for not paying, "cancelled" for not going
    ahead). A negation in the asker's situation before the question proper ("Nobody can log
    in - how quickly will support reply?") is not the question's, nor is a negated
    circumstance in a condition on something else ("can I get a taxi paid for if the buses
    aren't running?"; "if I don't attend" stays the asker's)."""
    found = NEGATION.search(question, len(leading_statement(question)))
    if found is None or NEGATION.search(quoted) or _NEGATIVE_STATES.search(quoted):
        return None
    if question_focus(question) in _MEASURED and (
        found.group(0).lower() == "without" or _CONDITION.search(question, 0, found.start())
    ):
        return None  # "How long do I have to send it back if I don't like it?" asks how long
    if _OUTSIDE_CONDITION.search(question, 0, found.end()) and not NEGATION.search(
        question, found.end()
    ):
        return None  # "can I get a taxi paid for if the buses aren't running": the buses' case
    if any(asked.search(question) and said.search(quoted) for asked, said in _SAID_OTHERWISE):
        return None
    if _prefix_negated(question, quoted):
        return None
    return found.group(0)


def _prefix_negated(question: str, quoted: str) -> bool:
    """Whether `quoted` holds a question word with a negating prefix ("unreconciled",
    "non-compliant", "disapproved", "unused" for "use": the stemmer keeps "used" whole, so
    a word the rest begins with, one to three letters short of it, counts too)."""
    asked = content_stems(question)
    for word in words(quoted.lower()):
        for prefix in _NEGATING_PREFIXES:
            rest = word.removeprefix(prefix).lstrip("-")
            if rest == word or len(rest) <= 3:
                continue
            if stem(rest) in asked or any(
                len(a) >= 3 and rest.startswith(a) and len(rest) - len(a) <= 3 for a in asked
            ):
                return True
    return False


def names_no_one(question: str, quoted: Sequence[str]) -> bool:
    """Whether a "Who is …?" question is met by sentences that name no person or role
    besides those the question names ("Who is the Data Protection Officer?" over "… the
    Data Protection Officer decides whether …"): they mention who is asked about, not
    who it is. A question asking for someone's name is met only by a name, not by a title
    ("What's the name of the kennel manager?" over "… write to the Head of Kennels …"). A
    sentence addressed to the reader ("you", "your") answers who is responsible."""
    asked = question_proper(question)
    if not _WHO_IS.search(asked):
        return False
    if _WHO_IS_RESPONSIBLE.search(asked) and any(_ADDRESSED.search(s) for s in quoted):
        return False  # "… repair fences between your garden and a neighbour's": the reader
    if _NAME_OF.search(asked):
        return not any(names_a_person(sentence, question) for sentence in quoted)
    return not any(names_someone_new(sentence, question) for sentence in quoted)


def gives_no_time(question: str, quoted: Sequence[str]) -> bool:
    """Whether a what-time question ("What time does the restaurant serve dinner?", "What
    hours is support open?") is met by sentences that hold no time of day ("The daily meal
    allowance covers breakfast, lunch, dinner …")."""
    if not asks_time_of_day(question):
        return False
    return not any(gives_time_of_day(sentence) for sentence in quoted)


def gives_no_contact(question: str, quoted: Sequence[str]) -> str | None:
    """What a question asking for a phone number, an email or a web address asks for ("a
    phone number") when the quoted sentences hold none ("… contact the Australian Financial
    Complaints Authority (AFCA)." for "What's the phone number for AFCA?"); None otherwise."""
    kind = asked_contact(question_proper(question))
    if kind is None or any(gives_contact(kind, s) for s in quoted):
        return None
    return kind


def gives_no_price(question: str, quoted: Sequence[str]) -> bool:
    """Whether a question asking what something costs ("How much does Premium membership
    cost a month?") is met by sentences that state no price ("Premium members get 2 free
    guest passes each month." states a count, and "free" of something else is still no
    price of the membership: only an amount of money, "free" of the thing itself ("is
    free", "free of charge", not "2 free guest passes"), "no charge" or "included" counts,
    and a sentence holding one answers). Whether there is a discount is answered by one
    that states a discount, with or without its amount ("We offer a sibling discount …";
    `gives_no_discount`)."""
    asked = question_proper(question)
    if not asks_price(asked):
        return False
    if asks_discount(asked):
        return not any(states_price(s) or names_discount(s) for s in quoted)
    return not any(states_price(s) for s in quoted)


def gives_no_discount(question: str, quoted: Sequence[str]) -> bool:
    """Whether a question about a discount ("Is there a discount for retired members?") is
    met by sentences that state none (`states_discount`): a price row is no discount."""
    asked = question_proper(question)
    return asks_discount(asked) and not any(states_discount(s) for s in quoted)


def reading_conflict(question: str, quotes: Sequence[Quote]) -> str | None:
    """Why the quoted sentences, read closely, answer another question (None when they
    do not conflict with it): the question is negated and they are not, or they hold the
    opposite of one of its words. Deterministic; the pipeline's `gate.reading_check`. A
    compound question conflicts only when every part that asks does (the generator
    answers the parts it can; an aside after the question is no part: `asking_parts`)."""
    if not quotes:
        return None
    windows = [quote_window(q, c) for q, c in quotes]
    conflicts = [_conflict(part, windows) for part in asking_parts(question)]
    return conflicts[0] if conflicts and all(conflicts) else None


def _conflict(question: str, windows: list[Window]) -> str | None:
    """The reading conflict of one (part of a) question with the quoted windows. An FAQ
    answer is read with its question: "The invoice is returned unpaid." answers "What
    happens if an invoice arrives without a purchase order?", negation included; so is a
    sentence under its section heading ("Check that you are signed in …" under "My notes
    are not syncing" answers "Why aren't my notes syncing?"). A table
    row answers a negated question with its values, not with a "not" ("Which software needs
    no approval?": "JetBrains IDEs — Approval: Automatic"), so rows are not read for one."""
    quoted = " ".join(s for w in windows for s in [w.heading, *w.asked, *w.quoted])
    rows_only = all(is_table_row(s) for w in windows for s in w.quoted)
    # a contact asked for is answered by the number, whatever the negated case it is for
    asks_contact = asked_contact(question_proper(question)) is not None
    negation = None if rows_only or asks_contact else negation_unmatched(question, quoted)
    if negation is not None:
        return (
            f'Not answered: the question is negated ("{negation}") and the quoted passages '
            f'are not: they answer the question without "{negation}"; the closest sources '
            "are shown."
        )
    sentences = [s for w in windows for s in w.quoted]
    negated = None if rows_only else negated_in_quote(question, sentences)
    if negated is not None:
        return (
            f'Not answered: the quoted passages say "not {negated}", and the question asks '
            "about the case where it is; the closest sources are shown."
        )
    if names_no_one(question, sentences):
        return (
            "Not answered: the question asks who, or for a name, and the quoted passages "
            "name no one but those the question names; the closest sources are shown."
        )
    if gives_no_time(question, sentences):
        return (
            "Not answered: the question asks what time, and the quoted passages give no "
            "time of day; the closest sources are shown."
        )
    if gives_no_discount(question, sentences):
        return (
            "Not answered: the question asks about a discount, and the quoted passages state "
            "none; the closest sources are shown."
        )
    if gives_no_price(question, sentences):
        return (
            "Not answered: the question asks what it costs, and the quoted passages state no "
            "price; the closest sources are shown."
        )
    if gives_no_count(question, sentences):
        return (
            "Not answered: the question asks how many, and the quoted passages count nothing "
            "it asks about; the closest sources are shown."
        )
    contact = gives_no_contact(question, sentences)
    if contact is not None:
        return (
            f"Not answered: the question asks for {contact}, and the quoted passages give "
            "none; the closest sources are shown."
        )
    return _another_case(question, windows)


def _another_case(question: str, windows: list[Window]) -> str | None:
    """Why the quoted windows speak of another case than the question asks about: another
    year than the one it sets (`verify/stated_years.py`), or the opposite of one of its words
    in every window (`verify/opposites.py`)."""
    passage = " ".join(s for w in windows for s in w.sentences)
    quoted = " ".join(s for w in windows for s in w.quoted)
    year = year_unmatched(question_proper(question), passage, quoted)
    if year is not None and question_focus(question) not in ANSWERED_BY_NO:
        return (
            f"Not answered: the question asks about {year[0]}, which the quoted passages do "
            f"not mention; they speak of {year[1]}; the closest sources are shown."
        )
    pairs = [opposite_pair(question, " ".join(w.window)) for w in windows]
    pair = pairs[0] if all(pairs) else None  # one window without an opposite answers
    if pair is not None:
        return (
            f'Not answered: the question asks about "{pair[0]}", and the quoted passages '
            f'say "{pair[1]}"; the closest sources are shown.'
        )
    return None
