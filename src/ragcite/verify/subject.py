"""The question's subject must be in the material that answers it.

"Does our health insurance include dental cover?" is not answered by a sentence about
health cover that never says "dental": the word that carries the question's topic is
missing. A topic word is one of the question's content words that is not a question's
shape ("how soon", "what is the deadline", "the previous policy") and that weighs in
the question's meaning: removing it moves the question's MiniLM embedding by at least
`MIN_SALIENCE`. It is covered when the passages the answer quotes (title, section and
text) hold it, as the same stem, a word sharing its first letters ("closure" and
"closed"), a word it misspells in lower case ("anual": `ragcite.verify.typos`), or a close
synonym by MiniLM word similarity ("vacation" and "holidays") beside the quote.
A word naming the kind of thing the answer is ("which occupation", "what is the
birthdate of ...": `answer_kind_words`) is not asked for: documents name the answer
("a tennis player"), seldom its kind. Nor is the place or product a may-I question ends on
("Can I fly business class to New York?": `circumstance_name`) when its other topic words
are there: a policy's rule names the kind of trip, not the city.

    >>> missing_subject("Does our health insurance include dental cover?",
    ...                 [(sentence, chunk)], [chunk], embedder)       # doctest: +SKIP
    ['dental']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from ragcite.embed.base import Embedder
from ragcite.generate.focus import leading_statement, question_focus
from ragcite.generate.lists import lead_ins
from ragcite.models import SourceChunk
from ragcite.rerank.question_parts import question_parts
from ragcite.text.contacts import CONTACT_WORDS, asked_contact
from ragcite.text.sentences import split_sentences
from ragcite.text.short_forms import spell_out
from ragcite.text.stems import stem
from ragcite.text.words import (
    IRREGULAR_PARTICIPLES,
    QUESTION_WORDS,
    STOPWORDS,
    content_words,
    tokens,
    words,
)
from ragcite.verify.answer_types import answer_kind_words
from ragcite.verify.reading import quote_window
from ragcite.verify.support.quantities import NUMBER_WORDS
from ragcite.verify.typos import typo_of

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
# Words that shape a question (how soon, what deadline, which version, how far in
# advance, for myself, licences nobody uses, the biggest payload) without naming what it
# is about; the passage that answers rarely repeats them ("Max payload: 50 MB").
QUESTION_SHAPE = frozenset(
    """
    soon quick quickly fast often long length size big small large high low rate deadline
    bigger biggest smaller smallest larger largest higher highest lower lowest longer longest
    shorter shortest greatest fewest least max min
    minimum maximum limit amount number time times new old previous former original current
    latest earlier later happen happens happened come comes say says said need needs get gets
    keep keeps keeping contact contacts contacting ask asks asking
    allowed required kind type way ways exactly currently usually still ever much many
    version policy rule rules term terms word words name names translation meaning mean
    means value values measurement measure unit units sort types example examples reason
    purpose part parts far advance myself yourself ourselves themselves himself herself
    detail details info information thing things stuff without within particular specific
    certain money
    anyone anybody anything somebody everyone everybody everything nobody nothing nowhere
    somewhere anywhere everywhere
    """.split()
)
# Everyday verbs say how the asker would go about it ("Can I use my laptop to look at
# customer data?", "Can I read work email on my phone?", "I forgot my password", "Who do I
# ring?"), not what the question is about; the passage says it its own way ("may not be
# used to access customer data", "reset your password"). Verbs that can carry a question
# ("find", "make", "see": "When did Augustus find Rome?") stay topic words.
_ASKERS_VERBS = frozenset(
    """
    look looks looking view views viewing use uses using go goes going read reads reading
    forget forgets forgot forgotten forgetting ring rings ringing
    """.split()
)
# A verb with its particle says what the asker does ("setting up my home office", "send
# back a laptop", "sign off on a purchase", "pay for software"); the passage names the thing
# ("home office allowance", "return", "purchased"), seldom the asker's verb. Before "over"
# and "for", which follow nouns as often ("purchases over $5,000", "the budget for
# training"), only verbs that take them: "carry over", "pay for".
_PHRASAL_VERB = re.compile(
    r"\b([a-z]+)\s+(up|out|off|back|down|away)\b(?!-)|"
    r"\b(carry|carries|carrying|roll|rolls|rolling|hand|hands|handing)\s+(over)\b|"
    r"\b(pay|pays|paying|apply|applies|applying|ask|asks|asking|wait|waiting)\s+for\b"
)
# Family words a question uses for the kind of relative a policy names ("my son", "our
# daughter": "your child"; "my husband": "your partner").
_KIN = {
    **dict.fromkeys("son sons daughter daughters kid kids boy girl".split(), ("child", "children")),
    **dict.fromkeys("husband wife boyfriend girlfriend".split(), ("partner", "spouse")),
    **dict.fromkeys("mum mom mother dad father".split(), ("parent", "parents")),
}
# Dates and times of day go with the passage's own dates and hours ("at midnight" over
# "between 22:00 and 06:00"), as the question's numbers do.
_DATE_WORDS = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday today yesterday tomorrow "
    "year years month months week weeks day days weekend weekends midnight noon midday "
    "morning mornings afternoon afternoons evening evenings night nights overnight".split()
)
# Currencies go with the amount a question names ("Can an agent refund 150 euros?"); the
# passage writes its own amounts ("up to EUR 200"), and the number is not a topic either.
# A currency asked for without an amount is the topic ("Can I pay in euros?").
_CURRENCY_WORDS = frozenset(
    "euro euros eur dollar dollars usd pound pounds gbp sterling cent cents pence".split()
)
# When a place opens or closes is asked with "open" and "close"; the passage gives hours
# ("open from 07:00 to 20:00"), so a time question's "close" is no topic word.
_HOURS_WORDS = frozenset("open opens opening close closes closing shut shuts".split())
# What is left of a negative contraction once "n't" is split off ("didn't": "didn", "t").
_CONTRACTED = frozenset(
    "didn doesn isn aren wasn weren hasn haven hadn shouldn couldn wouldn mustn needn".split()
)
# Irregular past participles shape a question like "stored" and "retained" do: "How long is
# CCTV footage kept?" and "Who bought the rights?" ask with them; the passage says
# "Retention: 30 days" or "purchased".
_IGNORED = (
    STOPWORDS
    | _CONTRACTED
    | QUESTION_WORDS
    | QUESTION_SHAPE
    | _ASKERS_VERBS
    | _DATE_WORDS
    | IRREGULAR_PARTICIPLES
)
_MIN_PREFIX = 4
# A place, product or service that a may-I question ends on ("… business class to New
# York?", "… my flight on Expedia?", "… customer lists on my personal Dropbox?"): a policy
# states its rule for a kind of trip or service ("flights of 6 hours or more", "bookings
# made elsewhere", "consumer file-sharing services") and seldom names the instance, so the
# name is not asked for when the question's other topic words are there.
_CIRCUMSTANCE_NAME = re.compile(
    r"\b(?:to|in|on|at|from|via|through|into|with)\s+"
    r"(?:(?:the|a|an|my|our|your|their|his|her|its|this|that)\s+(?:[a-z][\w'’-]*\s+)?)?"
    r"(?P<name>[A-Z][\w'’.&-]*(?:\s+[A-Z][\w'’.&-]*)*)[\s?.!]*$"
)

# The verb the asker would do it with, right after "I"/"we"/a modal or "have to" ("can I
# push to prod", "can I spread the cost", "how many of us can sit with", "have I got to
# query it"): how the asker puts it, not what the question is about; the passage says it
# its own way ("deploys", "payment plan", "visitors per bed"). Excused like the asker's
# situation: only when another topic word is there.
_ASKER = frozenset("i we you they".split())
_MODALS = frozenset("can could will would should must may might".split())
_HAVE_TO = frozenset("have has had got".split())
_ADVERBS = frozenset("still just also even ever really only not actually".split())
Quote = tuple[str, SourceChunk]
# A capitalised word after "the", "my", … and the lower-case word after it, ending the
# phrase ("on the Standard plan?", "the Oak room for lunch"; not "the Board approve budgets").
_NAME_THEN_KIND = re.compile(
    r"\b(?:the|a|an|my|our|your|their|this|that)\s+([A-Z][a-z]+)\s+([a-z]{3,})"
    r"(?=\s*(?:[?.!,;:]|$)|\s+(?:for|with|in|on|at|to|of|and|or|if|when|while|before|after)\b)"
)


def _passage(chunk: SourceChunk) -> str:
    return " ".join(x for x in (chunk.document_title, chunk.section_heading, chunk.chunk_text) if x)


def topic_words(question: str) -> list[str]:
    """The question's candidate topic words: content words, not question shape, not
    numbers, dates or the currency of an amount, not adverbs, past participles or verbs with
    a particle, not "open" or "close" in a question asking when (in order, first form kept).

    >>> topic_words("How much do I get for setting up my home office?")
    ['home', 'office']
    """
    seen: dict[str, str] = {}
    verbs = {w for m in _PHRASAL_VERB.finditer(question.lower()) for w in m.groups() if w}
    ignored = _IGNORED | _HOURS_WORDS if question_focus(question) == "date" else _IGNORED
    if _names_amount(question):
        ignored = ignored | _CURRENCY_WORDS
    for word in content_words(question, ignored):
        if word in verbs or any(ch.isdigit() for ch in word) or len(word) < 3:
            continue
        if word.endswith(("ly", "ed")):
            continue
        seen.setdefault(stem(word), word)
    return list(seen.values())


def _names_amount(question: str) -> bool:
    """Whether the question names a number ("150 euros", "a hundred dollars")."""
    return any(ch.isdigit() for ch in question) or any(
        w in NUMBER_WORDS for w in words(question.lower())
    )


def circumstance_name(question: str) -> set[str]:
    """The words of the name a may-I question ends on (`_CIRCUMSTANCE_NAME`), or none.

    >>> sorted(circumstance_name("Can I fly business class to New York?"))
    ['new', 'york']
    """
    if question_focus(question) != "permission":
        return set()
    found = _CIRCUMSTANCE_NAME.search(question)
    return set(words(found.group("name"))) if found else set()


def asker_verbs(question: str) -> set[str]:
    """The words in a verb's place after the asker, a modal or "have to" (`_ASKER`,
    `_MODALS`, `_HAVE_TO`), an adverb between them skipped.

    >>> sorted(asker_verbs("Can I push to prod on a Friday?"))
    ['push']
    """
    tokens_ = words(question.lower())
    named = {w.lower() for w in tokens(question)[1:] if w[:1].isupper()}  # "will HomeShield"
    found = set()
    for i, word in enumerate(tokens_):
        if word in _ASKER or word in _MODALS or word in _ADVERBS or word in STOPWORDS:
            continue
        if word in named:
            continue
        j = i - 1
        while j >= 0 and tokens_[j] in _ADVERBS:
            j -= 1
        before = tokens_[j] if j >= 0 else ""
        after_to = before == "to" and j > 0 and tokens_[j - 1] in _HAVE_TO
        if before in _ASKER or before in _MODALS or after_to:
            found.add(word)
    return found


def name_kinds(question: str, known: set[str]) -> set[str]:
    """The lower-case words right after a name the passages hold, naming its kind ("plan"
    in "… on the Standard plan?" where the passages write "Standard"): documents name their
    plans, rooms and tiers without the kind word.

    >>> sorted(name_kinds("Can a friend come if I'm on the Standard plan?", {"standard"}))
    ['plan']
    """
    return {
        m.group(2) for m in _NAME_THEN_KIND.finditer(question) if stem(m.group(1).lower()) in known
    }


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
    cited = {w for _, c in quotes for w in words(_passage(c))}
    vocabulary = cited.union(*(words(p) for p in passages), *(_joined(p) for p in passages))
    known = {stem(w) for w in vocabulary}  # each distinct word stemmed once
    near = cache(lambda: {w for quote, c in quotes for w in words(_around(quote, c))})
    parts = question_parts(question)
    if len(parts) > 1:
        missing = [_missing(part, cited, known, near, embedder) for part in parts]
        return [w for m in missing for w in m] if all(missing) else []
    return _missing(question, cited, known, near, embedder)


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


def _written_lower(word: str, question: str) -> bool:
    """Whether the question writes `word` in lower case: a misspelt common word ("anual"),
    not a name, where one letter makes another name ("Swank" is not "swan")."""
    return re.search(rf"\b{re.escape(word)}\b", question) is not None


def _excused(absent: list[str], topics: list[str], excusable: set[str]) -> list[str]:
    """`absent` without the `excusable` words (the place a may-I question ends on, the
    asker's situation) when a topic word outside them is there: the rest of the question
    is about the passages' subject."""
    if excusable and any(w not in absent and w not in excusable for w in topics):
        return [w for w in absent if w not in excusable]
    return absent


def _missing(
    question: str,
    cited: set[str],
    known: set[str],
    near: Callable[[], set[str]],
    embedder: Embedder,
) -> list[str]:
    """`missing_subject` for one question (part): `cited` the quoted passages' words,
    `known` the stems of every retrieved passage's words and of the cited ones, `near`
    the words around the quotes (`_around`), where a synonym must stand (read only when
    a word is missing)."""
    kinds = {stem(w) for w in answer_kind_words(question)}
    if asked_contact(question):  # "phone", "number", "ring": the contact check reads them
        kinds |= CONTACT_WORDS
    topics = topic_words(question)
    absent = [
        w
        for w in topics
        if stem(w) not in known
        and stem(w) not in kinds
        and not _prefix_match(w, cited)
        and not (_written_lower(w, question) and typo_of(w, cited))
        and not any(stem(kin) in known for kin in _KIN.get(w.lower(), ()))
    ]
    if not absent:
        return []
    absent = _excused(absent, topics, circumstance_name(question))
    absent = [w for w in absent if w not in name_kinds(question, known)]
    absent = _excused(absent, topics, set(words(leading_statement(question))))
    absent = _excused(absent, topics, asker_verbs(question))
    if not absent:
        return []
    salience = _salience(question, absent, embedder)
    salient = [w for w, s in zip(absent, salience, strict=True) if s >= MIN_SALIENCE]
    if not salient and len(absent) > 1:  # "kennel fees for our dog": each says the other
        together = _salience_together(question, absent, embedder)
        salient = absent if together >= JOINT_SALIENCE else []
    if not salient:
        return []
    covered = _synonym(salient, near(), embedder)
    return [w for w, ok in zip(salient, covered, strict=True) if not ok]
