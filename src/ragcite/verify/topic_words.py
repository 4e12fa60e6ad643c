"""Which of a question's words name its topic, for the subject check
(`ragcite.verify.subject`).

A topic word is one of the question's content words that is not a question's shape ("how
soon", "what is the deadline", "the previous policy"), not a number, date or currency of an
amount, not an adverb, past participle or verb with a particle (`topic_words`). Some topic
words are excused when the question's other ones are there: the place or product a may-I
question ends on (`circumstance_name`), the kind word after a name the passages hold
(`name_kinds`), the rank word before a number where the passages rank by another ("band 1"
over "Grade 1": `label_kinds`) and the verb the asker would do it with (`asker_verbs`).

    >>> topic_words("Does our health insurance include dental cover?")
    ['health', 'insurance', 'include', 'dental', 'cover']
"""

from __future__ import annotations

import re

from ragcite.generate.focus import question_focus
from ragcite.text.stems import stem
from ragcite.text.words import (
    HEDGES,
    IRREGULAR_PARTICIPLES,
    QUESTION_WORDS,
    STOPWORDS,
    UNAPOSTROPHISED,
    content_words,
    tokens,
    words,
)
from ragcite.verify.support.quantities import NUMBER_WORDS

# Words that shape a question (how soon, what deadline, which version, how far in
# advance, for myself, licences nobody uses, the biggest payload, do I need permission, is
# there anything cheaper) without naming what it is about; the passage that answers rarely
# repeats them ("Max payload: 50 MB").
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
    itself
    detail details info information thing things stuff without within particular specific
    certain money permission ok okay cheaper cheapest dearer trouble option options
    anyone anybody anything somebody everyone everybody everything nobody nothing nowhere
    somewhere anywhere everywhere guy guys bloke blokes fella fellas chap chaps lad lads
    lady ladies enough ahead mind luck
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
    forget forgets forgot forgotten forgetting ring rings ringing chase chasing
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
# Dates and times of day go with the passage's own dates and hours ("at midnight" over
# "between 22:00 and 06:00"), as the question's numbers do.
_DATE_WORDS = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday today yesterday tomorrow "
    "year years month months week weeks day days weekend weekends midnight noon midday "
    "morning mornings afternoon afternoons evening evenings night nights overnight "
    "christmas xmas easter".split()
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
# How people type in a hurry: contractions without their apostrophe ("he didnt live here",
# "whats the fee", "cant find it") and the hedges and courtesies around a question ("its
# quite old i think", "maybe", "please", "cheers"). None names what the question is about.
_CASUAL = UNAPOSTROPHISED | frozenset(
    """
    quite think thinking reckon guess wondering wonder maybe perhaps probably
    please thanks thank cheers hello hiya sorry basically chance
    """.split()
)
# Irregular past participles shape a question like "stored" and "retained" do: "How long is
# CCTV footage kept?" and "Who bought the rights?" ask with them; the passage says
# "Retention: 30 days" or "purchased".
_IGNORED = (
    STOPWORDS
    | _CONTRACTED
    | _CASUAL
    | QUESTION_WORDS
    | QUESTION_SHAPE
    | _ASKERS_VERBS
    | _DATE_WORDS
    | IRREGULAR_PARTICIPLES
    | {"getting", "gotten"}  # like "get" and "got" ("late getting my son")
)
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
_ADVERBS = HEDGES | {"not"}
_BE = frozenset("m re am are".split())  # "I'm", "we're" as the tokenizer cuts them
# A capitalised word after "the", "my", … and the lower-case word after it, ending the
# phrase ("on the Standard plan?", "the Oak room for lunch"; not "the Board approve budgets").
_NAME_THEN_KIND = re.compile(
    r"\b(?:the|a|an|my|our|your|their|this|that)\s+([A-Z][a-z]+)\s+([a-z]{3,})"
    r"(?=\s*(?:[?.!,;:]|$)|\s+(?:for|with|in|on|at|to|of|and|or|if|when|while|before|after)\b)"
)


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


# What the asker would bring something for, at the end of a may-I question ("can I bring my
# dog down to watch?", "… my own generator to run the fridge?"): the rule is about bringing
# the thing, and the passages seldom name the purpose.
_PURPOSE = re.compile(
    r"\b(?:[Bb]ring|[Tt]ake)\b[^?]*?\bto\s+"
    r"(?P<purpose>(?!(?:the|a|an|my|our|your|his|her|their|this|that|these|those)\b)[a-z]+"
    r"(?:\s+[a-z]+){0,3})[\s?.!]*$",  # a verb's infinitive, not a place ("to the campsite")
)


def purpose_words(question: str) -> set[str]:
    """The words of the purpose a may-I question about bringing something ends on
    (`_PURPOSE`), or none.

    >>> sorted(purpose_words("can I bring my own generator to run the fridge"))
    ['fridge', 'run', 'the']
    """
    if question_focus(question) != "permission":
        return set()
    found = _PURPOSE.search(question)
    return set(words(found.group("purpose").lower())) if found else set()


def asker_verbs(question: str) -> set[str]:
    """The words in a verb's place after the asker, a modal or "have to" (`_ASKER`,
    `_MODALS`, `_HAVE_TO`), an adverb between them skipped, and the -ing word after "I'm"
    or "we're".

    >>> sorted(asker_verbs("Can I push to prod on a Friday?"))
    ['push']
    """
    tokens_ = words(question.lower())
    named = {w.lower() for w in tokens(question)[1:] if w[:1].isupper()}  # "will HomeShield"
    found = set()
    for i, word in enumerate(tokens_):
        if word in _ASKER or word in _MODALS or word in _ADVERBS or word in _BE:
            continue
        if word in STOPWORDS:
            continue
        if word in named:
            continue
        j = i - 1
        while j >= 0 and tokens_[j] in _ADVERBS:
            j -= 1
        before = tokens_[j] if j >= 0 else ""
        after_to = before == "to" and j > 0 and tokens_[j - 1] in _HAVE_TO
        # "I'm running late", "we're still running 5.7": what the asker is doing
        doing = before in _BE and j > 0 and tokens_[j - 1] in _ASKER and word.endswith("ing")
        if before in _ASKER or before in _MODALS or after_to or doing:
            found.add(word)
    return found


# Words that name a rank or row by its number ("band 6", "grade 1", "tier 2", "zone 3"):
# organisations call the same scale by different names, and a question's "band 1" is the
# passage's "Grade 1".
_LABEL_KINDS = frozenset(
    "band bands grade grades level levels tier tiers zone zones scale step steps class "
    "category group".split()
)
_LABEL_KIND_STEMS = frozenset(stem(w) for w in _LABEL_KINDS)
# The number or capital letter after it ("band 6", "tier 2a", "zone B"; not "level a").
_LABEL_KIND_THEN_NUMBER = re.compile(r"\b((?i:[a-z]+))\s+(?:\d+[a-zA-Z]?|[A-H])\b")


def label_kinds(question: str, known: set[str]) -> set[str]:
    """The rank words before a number in the question ("band" in "band 1 support worker")
    when the passages rank by another one (`known`: the stems they hold).

    >>> sorted(label_kinds("band 1 support worker, whats the rate?", {stem("grade")}))
    ['band']
    """
    if not known & _LABEL_KIND_STEMS:
        return set()
    return {
        m.group(1).lower()
        for m in _LABEL_KIND_THEN_NUMBER.finditer(question)
        if m.group(1).lower() in _LABEL_KINDS
    }


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
