"""The question's subject must be in the material that answers it.

"Does our health insurance include dental cover?" is not answered by a sentence about
health cover that never says "dental": the word that carries the question's topic is
missing. A topic word is one of the question's content words that is not a question's
shape ("how soon", "what is the deadline", "the previous policy":
`ragcite.verify.topic_words`) and that weighs in the question's meaning: removing it moves
the question's MiniLM embedding by at least `MIN_SALIENCE` (or, with the other missing
words, by `JOINT_SALIENCE`). It is covered when the passages the answer quotes (title, section and
text) hold it, as the same stem, a word sharing its first letters ("closure" and
"closed"), a word it misspells in lower case ("anual": `ragcite.retrieve.typos`), a close
synonym by MiniLM word similarity ("vacation" and "holidays") beside the quote, or the kind of
thing it is ("spaniel": "dogs", `ragcite.text.hypernyms`) unless the question asks whether the
thing is there or what it costs ("Is there a sauna?": a room is no sauna). A
contact question's "phone" or "number" is left to the contact check, and the verb after
the asker or a modal ("can I push to prod?") is excused, like the asker's situation, when
another topic word is there.
A word naming the kind of thing the answer is ("which occupation", "what is the
birthdate of ...": `answer_kind_words`) is not asked for: documents name the answer
("a tennis player"), seldom its kind. Nor is the place or product a may-I question ends on
("Can I fly business class to New York?": `circumstance_name`) when its other topic words
are there: a policy's rule names the kind of trip, not the city; nor the purpose a may-I
question about bringing something ends on ("can I bring my dog down to watch?":
`purpose_words`). A number in words is there when the passages write it in digits ("a fifty
pound note": "£50 notes"), and a unit when they abbreviate it after a number ("9 feet":
"8ft to 10ft", `ragcite.text.units`).

    >>> missing_subject("Does our health insurance include dental cover?",
    ...                 [(sentence, chunk)], [chunk], embedder)       # doctest: +SKIP
    ['dental']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

import numpy as np

from ragcite.embed.base import Embedder
from ragcite.generate.focus import leading_statement, question_proper
from ragcite.generate.lists import lead_ins
from ragcite.models import SourceChunk
from ragcite.rerank.question_parts import ASKS, question_parts
from ragcite.retrieve.typos import name_typo_of, typo_of
from ragcite.text.contacts import CONTACT_WORDS, wanted_contact
from ragcite.text.hypernyms import broader_words
from ragcite.text.prices import PRICE_STEMS, asks_cost_of_it, asks_price
from ragcite.text.sentences import split_sentences
from ragcite.text.short_forms import spell_out
from ragcite.text.stems import stem
from ragcite.text.units import spelled_units
from ragcite.text.words import (
    STOPWORDS,
    tokens,
    words,
)
from ragcite.verify.answer_types import answer_kind_words
from ragcite.verify.reading import quote_window
from ragcite.verify.support.quantities import NUMBER_WORDS
from ragcite.verify.topic_words import (
    asker_verbs,
    circumstance_name,
    label_kinds,
    name_kinds,
    purpose_words,
    topic_words,
)

# Removing a topic word moves the question's embedding at least this far (1 - cosine):
# on the demo questions "dental" 0.16, "sabbatical" 0.15, "party" 0.12; "handling" 0.01.
MIN_SALIENCE = 0.06
# Several missing words that each leave the other to carry the topic ("kennel fees for our
# dog": 0.058 and 0.026 alone) move it this far together (0.10 declined 1 in 100 more
# answerable held-out questions; 0.12 none).
JOINT_SALIENCE = 0.12
# A passage word this similar (MiniLM cosine of the two words) covers a question word:
# "vacation"/"holidays" 0.65, "dies"/"death" 0.74; "dental"/"health" 0.40.
SYNONYM_SIMILARITY = 0.6
# Family words a question uses for the kind of relative a policy names ("my son", "our
# daughter": "your child"; "my husband": "your partner"; "his baby sister": the child).
_KIN = {
    **dict.fromkeys("son sons daughter daughters kid kids boy girl".split(), ("child", "children")),
    **dict.fromkeys("husband wife boyfriend girlfriend".split(), ("partner", "spouse")),
    **dict.fromkeys("mum mom mother dad father".split(), ("parent", "parents")),
    **dict.fromkeys("brother brothers sister sisters".split(), ("sibling", "child", "children")),
    **dict.fromkeys("nan nana gran granny grandma grandad grandpa".split(), ("grandparent",)),
    **dict.fromkeys(
        "nephew nephews niece nieces grandson granddaughter grandchild grandkid stepson "
        "stepdaughter".split(),
        ("child", "children", "relative", "family"),
    ),
    **dict.fromkeys("aunt auntie uncle cousin".split(), ("relative", "family")),
}
_KIN |= {f"{kin}s": kinds for kin, kinds in _KIN.items() if not kin.endswith("s")}  # "grandads"
_MIN_PREFIX = 4

Quote = tuple[str, SourceChunk]


def _passage(chunk: SourceChunk) -> str:
    return " ".join(x for x in (chunk.document_title, chunk.section_heading, chunk.chunk_text) if x)


def _prefix_match(word: str, others: set[str]) -> bool:
    """A word sharing the first letters with `word` ("closure"/"closed"), both 5+ letters."""
    if len(word) < 5:
        return False
    for other in others:
        if len(other) < 5:
            continue
        shared = 0
        for a, b in zip(word, other, strict=False):
            if a != b:
                break
            shared += 1
        if shared >= max(_MIN_PREFIX, 0.6 * min(len(word), len(other))):
            return True
    return False


def _salience(question: str, candidates: list[str], embedder: Embedder) -> list[float]:
    """1 - cosine of the question with the question without each word."""
    without = [
        re.sub(rf"\b{re.escape(w)}\b", " ", question, flags=re.I).strip() for w in candidates
    ]
    vectors = embedder.embed([question, *without])
    return [float(1.0 - v @ vectors[0]) for v in vectors[1:]]


def _salience_together(question: str, candidates: list[str], embedder: Embedder) -> float:
    """1 - cosine of the question with the question without all of `candidates`."""
    without = question
    for w in candidates:
        without = re.sub(rf"\b{re.escape(w)}\b", " ", without, flags=re.I)
    vectors = embedder.embed([question, without.strip()])
    return float(1.0 - vectors[1] @ vectors[0])


def _synonym(candidates: list[str], material: set[str], embedder: Embedder) -> list[bool]:
    """Whether each word has a close synonym among the `material` words."""
    pool = sorted(w for w in material if w not in STOPWORDS and not w.isdigit() and len(w) > 2)
    if not pool:
        return [False] * len(candidates)
    vectors = embedder.embed([*candidates, *pool])
    sims = vectors[len(candidates) :] @ vectors[: len(candidates)].T
    return [bool(x >= SYNONYM_SIMILARITY) for x in np.max(sims, axis=0)]


def missing_subject(
    question: str,
    quotes: Sequence[Quote],
    chunks: Sequence[SourceChunk],
    embedder: Embedder,
) -> list[str]:
    """The question's topic words that the quoted passages do not mention (empty: the
    subject is there). `chunks` are all the passages retrieved: a word that one of them
    holds is left to the other checks (the generator may have quoted the wrong one). A
    compound question misses its subject only when every part does: the generator
    answers the parts it can and says which ones the documents do not cover."""
    if not quotes:
        return []
    passages = [_passage(c) for c in chunks]
    question = spell_out(question, passages)  # "PO", "prod": as written
    cited = set[str]().union(*(_passage_words(_passage(c))[0] for _, c in quotes))
    vocabulary = cited.union(*(_passage_words(p)[1] for p in passages))
    known = {stem(w) for w in vocabulary}  # each distinct word stemmed once
    near = cache(lambda: {w for quote, c in quotes for w in words(_around(quote, c))})
    by_kind = not asks_price(question) and not _ASKS_IF_THERE.search(question)
    parts = question_parts(question)
    if len(parts) > 1:
        missing = [_missing(part, cited, known, near, embedder, by_kind) for part in parts]
        for i in range(1, len(parts)):  # "… paternity leave, and is it on full pay?"
            if (
                follows_on(parts[i])
                and not missing[i]
                and ASKS.match(question_proper(parts[i - 1]))
            ):
                situation = set(words(leading_statement(parts[i - 1])))  # what it asks only
                missing[i] = [w for w in missing[i - 1] if w not in situation]
        return list(dict.fromkeys(w for m in missing for w in m)) if all(missing) else []
    return _missing(question, cited, known, near, embedder, by_kind)


# A part that is about the part before it: it points back ("is it on full pay?", "what does
# that cost?") or names nothing but what is asked of it ("what's the extra charge?").
_POINTS_BACK = frozenset("it its that this they them their those these".split())
_OF_IT = frozenset(
    "cost costs charge charges price prices fee fees extra much pay paid number phone email "
    "address contact deadline limit long".split()
)


def follows_on(part: str) -> bool:
    """Whether a later part of a compound question is about the part before it.

    >>> follows_on("is it on full pay"), follows_on("what's the extra charge")
    (True, True)
    """
    said = set(words(part.lower()))
    return bool(said & _POINTS_BACK) or set(topic_words(part)) <= _OF_IT


@lru_cache(maxsize=4096)
def _passage_words(passage: str) -> tuple[frozenset[str], frozenset[str]]:
    """A passage's plain words, and those with the words a question may write for them
    besides: its hyphenated words joined (`_joined`) and the units it abbreviates after a
    number ("8ft": feet, `spelled_units`). Read once per passage."""
    plain = frozenset(words(passage))
    return plain, plain.union(_joined(passage), spelled_units(passage))


def _joined(passage: str) -> list[str]:
    """A passage's hyphenated words written as one ("Wi-Fi": "wifi", "e-mail": "email"), as
    a question may write them; matched whole, never by their first letters ("part-time" is
    no "party")."""
    return [t.lower().replace("-", "") for t in tokens(passage) if "-" in t]


def _around(quote: str, chunk: SourceChunk) -> str:
    """What a synonym must stand in to vouch for a question word: the quoted sentences with
    one on either side (`quote_window`), the FAQ question or list lead-in they answer, the
    section heading and the title."""
    window = quote_window(quote, chunk)
    text = chunk.chunk_text
    spans = split_sentences(text)
    sentences = [text[a:b] for a, b in spans]
    led = [
        sentences[lead]
        for sentence, lead in zip(sentences, lead_ins(text, spans), strict=True)
        if lead is not None and sentence in window.quoted
    ]
    heading = [x for x in (chunk.document_title, chunk.section_heading) if x]
    return " ".join([*heading, *window.window, *window.asked, *led])


def _misspelt(word: str, question: str, cited: set[str]) -> bool:
    """Whether the question misspells a word of the quoted passages: a common word it writes
    in lower case ("anual", `typo_of`), or a long name it capitalises ("Hatmanis" for
    "Hartmanis", `name_typo_of`)."""
    if _written_lower(word, question):
        return typo_of(word, cited)
    return name_typo_of(word.lower(), cited)


def _written_lower(word: str, question: str) -> bool:
    """Whether the question writes `word` in lower case: a misspelt common word ("anual"),
    not a name, where one letter makes another name ("Swank" is not "swan")."""
    return re.search(rf"\b{re.escape(word)}\b", question) is not None


# What the asker would bring, fit or keep, asked about by "Is that allowed?", "Am I allowed
# to?", "Is that ok?": the thing itself is asked about ("I'd like to fit a dashcam in my
# company car. Am I allowed to?" over the towing rule), not the situation around it.
_ASKS_IF_OK = re.compile(
    r"\W*(?:is|would|will)\s+(?:that|this|it)\s+(?:be\s+)?(?:ok|okay|allowed|alright|all\s+right|"
    r"a\s+problem|permitted)\b|\W*(?:am|are)\s+(?:i|we)\s+allowed\b|\W*(?:can|may)\s+(?:i|we)\b",
    re.IGNORECASE,
)
_BRINGING = re.compile(
    r"\b(?:bring|bringing|fit|fitting|install|installing|keep|keeping|put|putting|park|got|has|"
    r"parking|store|storing|use|using)\s+(?:(?:a|an|the|my|our|some|his|her|their)\s+)?"
    r"(?:[a-z-]+\s+)?([a-z-]+)",
    re.IGNORECASE,
)


def _brought(situation: str) -> set[str]:
    """The things the asker's `situation` would bring, fit, keep or has got, and the word
    before or after each ("fit a dashcam": "dashcam"; "bring my dog with me": "dog", "with";
    "We've got a hot tub": "hot", "tub")."""
    return {w.lower() for m in _BRINGING.finditer(situation) for w in m.group(0).split()[1:]}


def _situation_named(
    question: str, absent: list[str], topics: list[str], situation: set[str]
) -> list[str]:
    """`absent` without the situation's words when every topic word is in the asker's
    situation and the passages hold one of them: "My horse looks like he's got colic, who do
    I ring?", "I need to cancel dad's carer … Will we still get charged?" name nothing in the
    question proper, so the situation is what they are about. What the asker would bring,
    fit or keep stays asked about when the question asks whether that is allowed
    (`_brought`)."""
    if not situation or not all(w.lower() in situation for w in topics):
        return absent
    if len(absent) >= len(topics):
        return absent
    if not _ASKS_IF_OK.match(question_proper(question)):
        return []
    brought = _brought(leading_statement(question))
    return [w for w in absent if w.lower() in brought]


def _excused(absent: list[str], topics: list[str], excusable: set[str]) -> list[str]:
    """`absent` without the `excusable` words (the place a may-I question ends on, the
    asker's situation) when a topic word outside them is there: the rest of the question
    is about the passages' subject."""
    if excusable and any(w not in absent and w not in excusable for w in topics):
        return [w for w in absent if w not in excusable]
    return absent


# A question whether a thing is there or on offer ("Is there a sauna?", "Do you hire out
# generators?", "Does the centre have lockers?"): the passages must name the thing itself,
# not only its kind (a room, a machine), as a question of what a thing costs must ("how
# much is a replacement mailbox key?").
_OFFERS = r"(?:have|sell|hire|rent|offer|provide|run|stock|supply|do)\b"
_ASKS_IF_THERE = re.compile(
    r"\bhow\s+much\b|\b(?:is|are)\s+there\b|\b(?:do|does)\s+(?:you|it|they|the\s+[a-z]+(?:\s+[a-z]+)?)\s+"
    + _OFFERS,
    re.IGNORECASE,
)
# "Do you have a woodland burial area?", "Does the library sell old tools?": every word of
# the thing names it ("woodland" moves that question's embedding only 0.05).
ASKS_IF_OFFERED = re.compile(
    r"^\W*(?:do|does)\s+(?:the\s+[a-z]+(?:\s+[a-z]+)?|(?!i\b|we\b)[a-z]+)\s+"
    + _OFFERS
    + r"(?!\s+to\b)",  # not "have to"
    re.IGNORECASE,
)
_OFFER_SALIENCE = 0.03


def _starts_a_compound(word: str, known: set[str]) -> bool:
    """Whether a passage word begins with all of `word`, six letters or more ("whistle" in
    "whistleblowing")."""
    return len(word) >= 6 and any(k.startswith(word) and len(k) > len(word) for k in known)


def _compound_of(word: str, known: set[str]) -> bool:
    """Whether `word` joins two words the passages use ("campsite": "camping" and "site",
    "workplace": "work" and "place"), each of four letters or more ("friend" is not "Fri"
    and "end")."""
    return any(stem(word[:i]) in known and stem(word[i:]) in known for i in range(4, len(word) - 3))


def _number_stated(word: str, known: set[str]) -> bool:
    """Whether `word` is a number in words that the passages write in digits ("a fifty pound
    note": "£50 notes")."""
    value = NUMBER_WORDS.get(word)
    return value is not None and value >= 1 and value == int(value) and str(int(value)) in known


def _missing(
    question: str,
    cited: set[str],
    known: set[str],
    near: Callable[[], set[str]],
    embedder: Embedder,
    by_kind: bool,
) -> list[str]:
    """`missing_subject` for one question (part): `cited` the quoted passages' words,
    `known` the stems of every retrieved passage's words and of the cited ones, `near`
    the words around the quotes (`_around`), where a synonym must stand (read only when
    a word is missing); with `by_kind`, a thing named by its kind is there ("spaniel":
    "dogs", `ragcite.text.hypernyms`)."""
    kinds = {stem(w) for w in answer_kind_words(question)}
    proper = question_proper(question)
    if wanted_contact(proper):  # "phone", "number", "ring": read by the contact check
        kinds |= CONTACT_WORDS
    if asks_price(proper) or asks_cost_of_it(proper) or known & PRICE_STEMS:
        kinds |= PRICE_STEMS  # "price", "fee": the price check's, or the passages' own word
    topics = topic_words(question)
    absent = [
        w
        for w in topics
        if stem(w) not in known
        and stem(w) not in kinds
        and not _prefix_match(w, cited)
        and not _starts_a_compound(w.lower(), known)
        and not _misspelt(w, question, cited)
        and not any(stem(kin) in known for kin in _KIN.get(w.lower(), ()))
        and not (by_kind and any(stem(kind) in known for kind in broader_words(w.lower())))
        and not _compound_of(w.lower(), known)
        and not _number_stated(w.lower(), known)
    ]
    if not absent:
        return []
    absent = _excused(absent, topics, circumstance_name(question) | purpose_words(question))
    kinds_named = name_kinds(question, known) | label_kinds(question, known)
    absent = [w for w in absent if w not in kinds_named]
    situation = set(words(leading_statement(question)))
    absent = _excused(absent, topics, situation | set(_KIN))
    absent = _situation_named(question, absent, topics, situation)
    absent = _excused(absent, topics, asker_verbs(question))
    if not absent:
        return []
    salience = _salience(question, absent, embedder)
    least = _OFFER_SALIENCE if ASKS_IF_OFFERED.search(question) else MIN_SALIENCE
    salient = [w for w, s in zip(absent, salience, strict=True) if s >= least]
    asked = [w for w in absent if w not in situation and w not in _KIN]
    if not salient and len(asked) > 1:  # "kennel fees for our dog": each says the other
        together = _salience_together(question, asked, embedder)
        salient = asked if together >= JOINT_SALIENCE else []
    if not salient:
        return []
    covered = _synonym(salient, near(), embedder)
    return [w for w, ok in zip(salient, covered, strict=True) if not ok]
