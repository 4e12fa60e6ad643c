"""What kind of answer a question expects, and whether a sentence holds one.

"How long ..." expects a duration, "when ..." a date, "how much ..." an amount, "who ..."
a person or a role, "is/does/can ..." a yes or a no. A sentence that answers a "how long"
question but names no duration rarely answers it: the answerability decision reads this.

    >>> expected_type("How long do we keep customer PII?")
    'duration'
    >>> holds_type("duration", "PII is kept for three (3) years.", "How long is PII kept?")
    True
"""

from __future__ import annotations

import itertools
import re

from ragcite.text.stems import stem
from ragcite.text.table_rows import is_table_row, row_cells
from ragcite.text.words import words

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    "eighty|ninety|hundred|thousand|million|billion|trillion|dozen|half|several|few"
)
_NUMBER = rf"(?:\d[\d,.]*|(?:{_NUMBER_WORDS}))"
_UNIT = r"(?:second|minute|hour|day|week|fortnight|month|quarter|year|decade|century|centuries)"
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|"
    "december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_PATTERNS = {
    "duration": re.compile(rf"\b{_NUMBER}[\s-]+(?:\(\d+\)\s+)?{_UNIT}s?\b|\b{_UNIT}s?\b", re.I),
    "date": re.compile(
        rf"\b(?:1[0-9]{{3}}|20[0-9]{{2}})s?\b|\b(?:{_MONTHS})\b|\b(?:{_WEEKDAYS})\b|"
        r"\b\d{1,2}(?:st|nd|rd|th)\b|\bcentur(?:y|ies)\b|\b(?:annually|daily|weekly|monthly|"
        r"quarterly|yearly|before|after|until|within|during|since|ago)\b",
        re.I,
    ),
    "amount": re.compile(
        rf"[$€£¥]\s?\d|\b\d[\d,.]*\s?%|\bpercent\b|\b{_NUMBER}\b|\b(?:no|none|all|every)\b",
        re.I,
    ),
}
_ROLE = re.compile(
    r"\b(?:officer|manager|director|team|department|head|lead|owner|president|chair|"
    r"committee|board|staff|employee|administrator|admin|king|queen|duke|emperor|"
    r"minister|leader|founder|author|company|government|council|group|who)s?\b",
    re.I,
)
_YES_NO_START = {
    "is", "are", "was", "were", "do", "does", "did", "can", "could", "will", "would",
    "should", "shall", "has", "have", "had", "must", "may", "am",
}  # fmt: skip
TYPES = ("duration", "date", "amount", "person", "place", "yesno", "other")


def expected_type(question: str) -> str:
    """One of TYPES: the kind of answer `question` asks for."""
    q = " ".join(words(question))
    first = q.split(" ", 1)[0] if q else ""
    checks = (
        ("duration", r"\bhow long\b|\bhow many (?:days|weeks|months|years|hours|minutes)\b"),
        ("date", r"\bwhen\b|\bwhat (?:year|date|day|month|time|century|decade)\b|\bwhich "
         r"(?:year|date|day|month|century|decade)\b|\bhow often\b|\bby what date\b"),
        ("amount", r"\bhow (?:much|many|old|far|large|big|high|tall|fast|often)\b|\bwhat "
         r"(?:percentage|percent|amount|number|share|size|cost|price|rate)\b"),
        ("person", r"\bwho\b|\bwhom\b|\bwhose\b"),
        ("place", r"\bwhere\b|\bwhat (?:country|city|region|place)\b"),
    )  # fmt: skip
    for kind, pattern in checks:
        if re.search(pattern, q):
            return kind
    if first in _YES_NO_START:
        return "yesno"
    return "other"


_COPULA = frozenset({"is", "are", "was", "were"})
_LEADERS = frozenset(
    "the a an one two three four five this these that those its their his her".split()
)
# Words that end the noun phrase after a question word: auxiliaries, prepositions,
# relative words, determiners.
_PHRASE_END = (
    _YES_NO_START
    | _LEADERS
    | frozenset(
        """
    be been being of in on for to by with from at which who whom whose when where why how
    as than between among about into during after before under over against within without
    """.split()
    )
)
_PHRASE_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*['’]?")
_MAX_PHRASE = 5


def answer_kind_words(question: str) -> set[str]:
    """The words naming what kind of thing the answer is: the last word of the noun
    phrase after "what", "which", "whose" or "how many/much" ("what disease", "which
    mutual occupation", "how many passengers"), or after "what/who is/was the"
    ("what is the birthdate of ...", "who was the Normans' main enemy in ..."; not
    "what is a sabbatical?", where the phrase is what the question is about).
    The answer supplies that kind; a document names the answer ("diabetes", "a tennis
    player"), seldom the kind, so the subject check does not ask for these words.

    >>> sorted(answer_kind_words("Jacques Tourneur and Alex Cox have which mutual occupation?"))
    ['occupation']
    >>> sorted(answer_kind_words("Who was the Normans' main enemy in Italy?"))
    ['enemy']
    """
    tokens = [t.casefold() for t in _PHRASE_WORD.findall(question)]
    kinds: set[str] = set()
    for i, token in enumerate(tokens):
        many = token == "how" and i + 1 < len(tokens) and tokens[i + 1] in ("many", "much")
        if token not in ("what", "which", "whose", "who") and not many:
            continue
        j = i + (2 if many else 1)
        copula = j < len(tokens) and tokens[j] in _COPULA and not many
        if copula:
            j += 1
            while j < len(tokens) and tokens[j] in _LEADERS:
                j += 1
        elif token == "who":
            continue  # "who founded ...": no noun names the answer's kind
        phrase = list(itertools.takewhile(lambda w: w not in _PHRASE_END, tokens[j:]))
        if not phrase or len(phrase) > _MAX_PHRASE:
            continue
        if copula and j + len(phrase) == len(tokens):
            continue  # "what is a sabbatical?": the phrase is what the question is about
        kinds.add(phrase[-1].rstrip("'’").removesuffix("'s").removesuffix("’s"))
    return kinds


def _new_proper_noun(sentence: str, question: str) -> bool:
    """A capitalised word (not the sentence's first) that the question does not use."""
    asked = set(words(question))
    tokens = re.findall(r"[^\W\d_][\w'’-]*", sentence)
    return any(t[0].isupper() and t.casefold() not in asked for t in tokens[1:])


def names_someone_new(sentence: str, question: str) -> bool:
    """Whether `sentence` names a person or role the question does not: a capitalised word
    past its first, or a role word ("manager", "team") that the question does not use.
    When the question itself names a role ("Who is the Head of Operations?"), only a name
    answers it: another role ("Owner: Customer Operations") does not."""
    if _new_proper_noun(sentence, question):
        return True
    if any(m.group(0).lower() != "who" for m in _ROLE.finditer(question)):
        return False
    asked = {w.removesuffix("s") for w in words(question)}
    roles = (m.group(0).lower().removesuffix("s") for m in _ROLE.finditer(sentence))
    return any(r not in asked for r in roles)


# A run of capitalised words, "of", "and" or "&" allowed inside ("Head of Kennels").
_CAPITALISED_RUN = re.compile(r"[A-Z][\w'’-]*(?:\s+(?:(?:of|and|&|for)\s+)?[A-Z][\w'’-]*)*")


# Days and months, capitalised but no one's name ("Mon-Fri", "January").
_CALENDAR = frozenset(
    [
        *_MONTHS.split("|"),
        *_WEEKDAYS.split("|"),
        *"mon tue tues wed thu thur thurs fri sat sun".split(),
    ]
)


def names_a_person(sentence: str, question: str) -> bool:
    """Whether `sentence` gives a name the question does not: a run of capitalised words
    (not the sentence's first word alone) with no role word in it and not the question's
    own words. "Dana Whitfield" is a name; "Head of Kennels", "the Operations Manager" are
    titles ("What's the name of the kennel manager?" asks for a name, which a title is not).
    """
    asked = {stem(w) for w in words(question)}
    if is_table_row(sentence):  # a row's headers ("Contact details:") name no one
        label, cells = row_cells(sentence)
        sentence = " ".join([label, *(cell.partition(": ")[2] or cell for cell in cells)])
    for match in _CAPITALISED_RUN.finditer(sentence):
        run = match.group(0)
        if match.start() == len(sentence) - len(sentence.lstrip()) and " " not in run:
            continue  # the sentence's first word, capitalised as every first word is
        if _ROLE.search(run) or all(w.lower() in _CALENDAR for w in words(run)):
            continue
        if any(stem(w) not in asked for w in words(run)):
            return True
    return False


def type_spans(kind: str, sentence: str) -> list[str]:
    """The pieces of `sentence` that could answer a question of kind `kind`: durations,
    dates or amounts as written, capitalised words (past the first) for a person or a
    place, and role words for a person; empty for yesno/other."""
    if kind in _PATTERNS:
        return [m.group(0) for m in _PATTERNS[kind].finditer(sentence)]
    if kind not in ("person", "place"):
        return []
    names = [t for t in re.findall(r"[^\W\d_][\w'’-]*", sentence)[1:] if t[0].isupper()]
    roles = [m.group(0) for m in _ROLE.finditer(sentence)] if kind == "person" else []
    return names + roles


def holds_type(kind: str, sentence: str, question: str) -> bool:
    """True when `sentence` contains an answer of kind `kind` (always for yesno/other)."""
    if kind in _PATTERNS:
        return bool(_PATTERNS[kind].search(sentence))
    if kind == "person":
        return _new_proper_noun(sentence, question) or bool(_ROLE.search(sentence))
    if kind == "place":
        return _new_proper_noun(sentence, question)
    return True
