"""The sentence that carries on about what a quoted sentence introduced: the answer one hop on.

A question often names one thing and asks about another that the first leads to ("Kevin
Bookout played college basketball that plays in which conference?"): the sentence most like
the question introduces the second thing ("… he played collegiately with the University of
Oklahoma Sooners."), and the sentence after it, which opens on that thing, holds the answer
("The Sooners play in the Big 12 Conference."). A sentence right after a chosen one joins
the answer when it opens on something the chosen sentence introduced — a pronoun ("She is
married to …"), a name the chosen sentence wrote with a capital that the question does not
name ("Pierce founded …", "The Sooners play in …"), or a noun the chosen sentence used ("The
film stars …") — and it brings a name or a number that neither the question nor the chosen
sentences hold: something new, as an answer is.

The other way round, a who-question is often answered by the name a pronoun stands for:
"Tina and Bobby is a … series based on … footballer Bobby Moore …", "The three-part series
was first broadcast on …", "He is widely regarded as one of the greatest defenders …". When
a chosen sentence opens on "He" or "She" and the sentence before it names no one the
question does not, the sentence before that one joins when it does (`named_before`); and
when a chosen sentence opens on a surname ("Lehrmann was appointed by …"), the sentence up
to two before it that gives the full name ("Judge Debra Lehrmann, a family court jurist …")
joins (`full_name_before`).

    >>> opens_on_introduced(
    ...     "The Sooners play in the Big 12 Conference.",
    ...     "He played collegiately with the University of Oklahoma Sooners.",
    ...     "Kevin Bookout played college basketball that plays in which conference?",
    ... )
    True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, TypeVar

from ragcite.generate.focus import question_focus
from ragcite.text.table_rows import is_table_row
from ragcite.text.words import STOPWORDS, words

# A sentence that opens on a pronoun carries on about what the sentence before it named.
# Case matters: "IT support …" names a department, "It is …" points back.
PRONOUNS = "He|She|It|They|His|Her|Its|Their"
_PRONOUN = re.compile(rf"^\W*(?:{PRONOUNS})\b")
_PERSON_PRONOUN = re.compile(r"^\W*(?:He|She|His|Her)\b")
# An opening phrase before the subject: "Directed by Sam Raimi, it stars …", "At 318.9 m ,
# the structure was …" (at most eight words, then a comma). Each word is a run without
# spaces, so a long sentence with no comma is read once, not in every way it could split.
_LEAD_IN = re.compile(r"^\W*+(?:[^,;:\s]++\s+){0,7}[^,;:\s]++\s*,\s+(?=[a-z])")
# The opening name of a sentence: capitalised words, after an optional "The" and quote.
_OPENING = re.compile(r"^[\W_]*(?:The\s+)?((?:[A-Z][\w'’.-]*)(?:\s+[A-Z][\w'’.-]*)*)")
# "The film …", "The team …": the opening definite description's noun.
_DEFINITE = re.compile(r"^\W*The\s+([a-z][\w-]+)\b")
# A name or a number: what an answer usually is.
_NAME = re.compile(r"\b(?:[A-Z][\w'’-]+|\d[\d,.]*)")
_FIRST = re.compile(r"^\W*(\w+)")
# A sentence opening on one capitalised word followed by a lower-case one: "Lehrmann was …".
_SURNAME = re.compile(r"^\W*([A-Z][a-z]{2,})\s+[a-z]")
# A person's name: two capitalised words in a row ("Bobby Moore", "Kelly Preston").
_PERSON = re.compile(r"\b[A-Z][a-z]+\s+(?:[A-Z]\.\s+)?[A-Z][a-z]+\b")


class Placed(Protocol):
    """A candidate sentence: its chunk's rank in the window, its index there, its text."""

    @property
    def chunk_rank(self) -> int: ...

    @property
    def position(self) -> int: ...

    @property
    def text(self) -> str: ...


C = TypeVar("C", bound=Placed)


def carried_on(query: str, chosen: Sequence[C], candidates: Sequence[C]) -> list[C]:
    """The sentences that join `chosen`: the one after a chosen sentence that opens on what
    it introduced and brings something new, and the one that names the person a
    who-question's chosen sentence calls "he", "she" or by surname (`named_before`,
    `full_name_before`). Table rows neither lead nor follow."""
    by_place = {(c.chunk_rank, c.position): c for c in candidates}
    texts = [c.text for c in chosen]
    who = question_focus(query) == "role"
    out: list[C] = []
    for c in chosen:
        if is_table_row(c.text):
            continue
        nxt = by_place.get((c.chunk_rank, c.position + 1))
        if (
            nxt is not None
            and not is_table_row(nxt.text)
            and opens_on_introduced(nxt.text, c.text, query)
            and brings_new(nxt.text, texts, query)
        ):
            out.append(nxt)
        if not who:
            continue
        named = named_before(query, c, by_place) or full_name_before(query, c, by_place)
        if named is not None:
            out.append(named)
    return [c for i, c in enumerate(out) if c not in chosen and c not in out[:i]]


def named_before(query: str, sentence: C, by_place: dict[tuple[int, int], C]) -> C | None:
    """For a who-question `query`, the sentence two before `sentence` when `sentence` opens
    on "He" or "She", the one before it names no one the question does not, and that one
    does."""
    if not _PERSON_PRONOUN.match(sentence.text):
        return None
    place = (sentence.chunk_rank, sentence.position)
    previous = by_place.get((place[0], place[1] - 1))
    earlier = by_place.get((place[0], place[1] - 2))
    if previous is None or earlier is None or is_table_row(earlier.text):
        return None
    if _new_people(previous.text, query) or not _new_people(earlier.text, query):
        return None
    return earlier


def full_name_before(query: str, sentence: C, by_place: dict[tuple[int, int], C]) -> C | None:
    """For a who-question `query`, the sentence up to two before `sentence` that gives the
    full name of the person `sentence` opens on by surname ("Judge Debra Lehrmann, a family
    court jurist …" before "Lehrmann was appointed by …"), when the question does not name
    them."""
    opening = _SURNAME.match(sentence.text)
    if opening is None or opening.group(1).lower() in _plain(query):
        return None
    full = re.compile(rf"\b[A-Z][a-z]+\s+{re.escape(opening.group(1))}\b")
    for back in (1, 2):
        earlier = by_place.get((sentence.chunk_rank, sentence.position - back))
        if earlier is not None and not is_table_row(earlier.text) and full.search(earlier.text):
            return earlier
    return None


def _new_people(text: str, question: str) -> set[str]:
    return {m.group() for m in _PERSON.finditer(text)} - {
        m.group() for m in _PERSON.finditer(question)
    }


def names(text: str) -> set[str]:
    """The capitalised words and numbers of `text`, lower-cased; its first word only when
    it is a number (a sentence's first word is capitalised whatever it is)."""
    first = _FIRST.match(text)
    skip = first.end() if first is not None and not first.group(1)[0].isdigit() else 0
    return {m.group().lower().rstrip(".,") for m in _NAME.finditer(text, skip)}


def _capitalised(text: str) -> set[str]:
    """The words of `text` written with a capital, other than its first word."""
    return set(words(" ".join(n for n in names(text) if not n[0].isdigit())))


def _plain(text: str) -> set[str]:
    return {w for w in words(text) if w not in STOPWORDS}


def opens_on_introduced(sentence: str, before: str, question: str) -> bool:
    """Whether `sentence` opens on something `before` introduced: a pronoun, a noun that
    `before` used ("The film …"), either after an opening phrase ("Directed by Sam Raimi,
    it stars …"), or a name that `before` wrote with a capital and `question` does not
    name."""
    if _PRONOUN.match(sentence):
        return True
    if points_back(sentence, before):
        return True
    lead_in = _LEAD_IN.match(sentence)
    if lead_in is not None:
        subject = sentence[lead_in.end() :]
        subject = subject[:1].upper() + subject[1:]
        if _PRONOUN.match(subject) or points_back(subject, before):
            return True
    if _DEFINITE.match(sentence):
        return False
    opening = _OPENING.match(sentence)
    if opening is None:
        return False
    opener = _plain(opening.group(1))
    return bool(opener) and opener <= _capitalised(before) and not opener <= _plain(question)


def brings_new(sentence: str, chosen: Sequence[str], question: str) -> bool:
    """Whether `sentence` holds a name or number that neither `question` nor `chosen` do."""
    known = names(question).union(*(names(c) for c in chosen))
    return bool(names(sentence) - known)


def points_back(sentence: str, before: str) -> bool:
    """Whether `sentence` opens on a definite noun that `before` used ("The Peshawar Zalmi
    is a franchise cricket team …" then "The team was captained by …")."""
    definite = _DEFINITE.match(sentence)
    return definite is not None and definite.group(1).lower() in _plain(before)
