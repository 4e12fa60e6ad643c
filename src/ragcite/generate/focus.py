"""What a question asks for, and whether a sentence has that kind of answer in it.

"What happens when an upload exceeds its limit?" asks for a consequence; the sentence that
repeats the limit resembles the question, the next one ("the API returns 413 and the client
retries after 60 seconds") answers it. The focus is read from the question's opening words;
a sentence matches it when it holds the kind of words such an answer needs: a number with a
time unit for "how long", a modal or a prohibition for "can I", a date for "when".

    >>> question_focus("How long are invoices kept?")
    'duration'
    >>> focus_match("duration", "Invoices are kept for seven years.")
    1.0
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragcite.text.prices import COSTS_IT
from ragcite.text.table_rows import is_table_row
from ragcite.text.words import IRREGULAR_PARTICIPLES

FOCI = (
    "consequence",
    "permission",
    "date",
    "amount",
    "role",
    "duration",
    "reason",
    "place",
    "yes_no",
    "other",
)
# Questions a negated sentence or an opposite state answers ("Can I …?": "You may not …").
ANSWERED_BY_NO = frozenset({"yes_no", "permission", "consequence"})

_I = re.IGNORECASE
_QUESTION_FOCUS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "consequence",
        re.compile(
            r"\bwhat\s+(?:happens|will\s+happen|would\s+happen|is\s+the\s+(?:consequence|"
            r"result|penalty|outcome)|are\s+the\s+(?:consequences|penalties))|\bwhat\s+if\b|"
            r"\bwhat\s+(?:does|do)\s+\w+(?:\s+\w+)?\s+(?:do|return|send)\b",
            _I,
        ),
    ),
    (
        "duration",
        re.compile(
            r"\bhow\s+(?:long|fast|quickly|soon|many\s+(?:days|weeks|months|years|hours)|"
            r"much\s+(?:notice|warning|time)|far\s+(?:ahead|in\s+advance))\b|"
            r"\bwhat(?:\s+is|['’]s)\s+the\s+(?:maximum\s+|minimum\s+|max\s+|min\s+|usual\s+)?"
            r"(?:length|duration)\s+of\s+(?:(?:a|an|the|my|your|our)\s+)?(?:[\w-]+\s+){0,3}?"
            r"(?:period|trial|term|leave|stay|contract|loan|probation|suspension|notice|course|"
            r"tenancy|membership|placement|lease)s?\b",
            _I,
        ),
    ),
    (
        "amount",
        re.compile(
            r"\bhow\s+(?:much|many|large|big|often)\b|\bwhat(?:\s+is|['’]s)?\s+(?:the\s+)?"
            r"(?:amount|fee|cost|price|limit|rate|percentage|number)\b|"
            r"\b(?:phone|telephone|fax)\s+number\b|\bwhat(?:\s+is|['’]s)\s+\w+\s+extension\b|"
            r"\bwhat\s+(?:extra\s+|more\s+)?(?:do|does|will|would|should|must)\s+\w+\s+"
            r"(?:have\s+to\s+|need\s+to\s+)?pay\b(?!\s+(?:attention|tribute|a\s+visit))|"
            + COSTS_IT,
            _I,
        ),
    ),
    (
        "date",
        re.compile(
            r"\bwhen\b|\bwhat\s+(?:date|year|day|time|month|century)\b|"
            r"\bby\s+what\s+date\b|\bdeadline\b|\bcut-?off\b",
            _I,
        ),
    ),
    (
        "role",
        re.compile(
            r"\b(?:who|whom|whose)\b|\bwhich\s+(?:team|role|person|department|"
            r"group|manager|people|company|organi[sz]ation)\b",
            _I,
        ),
    ),
    (
        "permission",
        re.compile(
            r"^\s*(?:can|may|could|am|are\s+\w+\s+allowed|is\s+it\s+"
            r"(?:allowed|possible|permitted))\b|\b(?:allowed|permitted)\b|"
            # "ok to sell those?", "alright if I park here?"
            r"\b(?:ok|okay|alright|all\s+right)\s+(?:to|if)\b|"
            # a requirement: "Do I need a receipt?", "Must we ...?", "Is a PO required?"
            r"^\s*(?:do|does)\s+(?:\w+\s+){1,3}?(?:need|have\s+to)\b|^\s*must\s+(?:i|we|you)\b|"
            r"^\s*(?:is|are)\s+(?:\w+\s+){1,4}?(?:required|mandatory|needed)\b",
            _I,
        ),
    ),
    ("reason", re.compile(r"\bwhy\b|\bwhat\s+(?:is\s+the\s+)?reason\b", _I)),
    ("place", re.compile(r"\bwhere\b|\bwhat\s+(?:country|city|region|location|place)\b", _I)),
    (
        "yes_no",
        re.compile(
            r"^\s*(?:is|are|does|do|did|was|were|will|would|should|has|have|"
            r"must)\b",
            _I,
        ),
    ),
)

_NUMBER = (
    r"\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|forty|fifty|sixty|ninety|hundred"
)
# What follows from a rule: an outcome ("is rejected", "returns 413", "will be locked").
_OUTCOME_WORDS = (
    r"[45]\d\d|returns?|rejects?|rejected|blocks?|blocked|suspend\w*|fails?|retr(?:y|ies)|"
    r"throttl\w*|will\s+be|lead\s+to|results?\s+in|otherwise|penalt\w*|charged|lock\w*|"
    r"disabled|deleted|escalat\w*|notif\w*|"
    r"(?:will\s+not|won['’]t)\s+(?:pay|refund|cover|reimburse|accept|be\s+(?:paid|refunded|covered))"
)
_SENTENCE_SIGNS: dict[str, re.Pattern[str]] = {
    "consequence": re.compile(rf"\b(?:{_OUTCOME_WORDS}|is\s+then|must|receives?)\b", _I),
    "permission": re.compile(
        r"\b(?:can(?:not)?|can't|may|must|allowed|permitted|prohibited|forbidden|only|never|"
        r"not\s+be|required|approval|unless)\b",
        _I,
    ),
    "date": re.compile(
        r"\b(?:1[5-9]\d\d|20\d\d|january|february|march|april|may|june|july|august|september|"
        r"october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
        r"century|within|before|after|by\s+the|deadline|\d{1,2}(?:st|nd|rd|th)|quarterly|"
        r"annually|daily|weekly|monthly)\b",
        _I,
    ),
    "amount": re.compile(rf"(?:[$€£¥]\s?\d|\d\s?%|\b(?:{_NUMBER})\b|\bpercent\b)", _I),
    "role": re.compile(
        r"\b(?:[A-Z][a-z]+\s+[A-Z][a-z]+|manager|team|officer|director|department|lead|owner|"
        r"approv\w*|CFO|CEO|CTO|HR|committee|board|administrator|admin|head|staff|employee|"
        r"he|she|they|king|duke|president|founded|led)\b"
    ),
    "duration": re.compile(
        rf"\b(?:{_NUMBER})[\s-]*(?:\(\d+\)\s*)?(?:business\s+|calendar\s+|working\s+)?"
        r"(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|centuries)\b",
        _I,
    ),
    "reason": re.compile(
        r"\b(?:because|due\s+to|so\s+that|in\s+order\s+to|since|reason|as\s+a\s"
        r"+result|to\s+(?:protect|prevent|ensure|avoid|reduce))\b",
        _I,
    ),
    "place": re.compile(
        r"\b(?:in|at|from|near)\s+[A-Z][a-z]+|\b(?:office|country|region|city|"
        r"located|EU|US|UK)\b"
    ),
    "yes_no": re.compile(r"\b(?:not|no|never|only|yes|all|must|always|cannot|can't|unless)\b", _I),
}


# What happens: a sentence that states an outcome, not one that only sets the rule ("must be
# reported within 2 hours" is the rule; "The device is then wiped remotely." what happens),
# or what becomes of the thing or the arrangement ("the items are donated", "your membership
# lapses", "we will report it to the police").
_OUTCOME = re.compile(
    rf"\b(?:{_OUTCOME_WORDS}|then|wiped|revoked|cancel\w*|donat(?:e|es|ed)|sold|"
    r"dispos(?:e|ed)\s+of|forfeit\w*|destroyed|towed|clamped|terminated|lapses|lapsed|"
    r"expires|expired|report(?:s|ed)?\s+(?:it\s+|them\s+)?to\s+the\s+police)\b",
    _I,
)
# Who: a passive sentence names its agent ("Badge photos are taken by reception.").
_AGENT = re.compile(
    rf"\b(?:\w+(?:ed|en|wn)|{'|'.join(sorted(IRREGULAR_PARTICIPLES | {'set', 'run', 'led'}))})"
    r"\s+by\s+(?!\d)\w",
    _I,
)


def states_focus(focus: str, sentence: str) -> bool:
    """Whether `sentence` states the kind of answer `focus` asks for; for a what-happens
    question an outcome ("is then wiped", "is rejected"), not a rule ("must", "receives");
    for a who question also the agent of a passive ("taken by reception").

    >>> states_focus("consequence", "A lost laptop must be reported within 2 hours.")
    False
    >>> states_focus("consequence", "The device is then wiped remotely.")
    True
    >>> states_focus("role", "Badge photos are taken by reception in the first week.")
    True
    """
    if focus == "consequence":
        return bool(_OUTCOME.search(sentence))
    if focus == "role" and _AGENT.search(sentence):
        return True
    return focus_match(focus, sentence) == 1.0


# A condition or a statement before the question proper ("If we charged someone by mistake,
# can they still get a refund?", "I'm 23 - do I have to pay extra?", "My daughter is 15,
# can she volunteer?", "We're on the Starter plan. Can we phone support?"): the focus is
# read from what follows it.
_CONDITION = r"(?:if|once|after|before|while|unless|in\s+case)\b"
_STARTS_WITH_CONDITION = re.compile(rf"\s*{_CONDITION}", _I)
# The words a question proper opens on.
_ASKING = (
    r"(?:can|may|could|do|does|did|am|is|are|was|were|will|would|should|must|has|have|"
    r"what|who|when|where|how|which|anything|any\s+(?:chance|way|idea))\b"
)
_LEADING_CONDITION = re.compile(
    rf"^\s*(?:{_CONDITION}[^,?]{{1,160}},\s*|"
    r"[^,?]{1,160}?(?:\s[-–—]\s+|,\s*|[.!]\s+)|"
    r"[^?.!]{1,200}?(?:[.!]\s+|\s[-–—]\s+))"
    rf"(?={_ASKING})",
    _I,
)
# A situation set off by a dash, a comma or a full stop before a conditional question ("I
# can't make it - if I cancel will I still have to pay?", "traffic is awful, if i get there
# at 8.20 what happens to my pitch?"); not a question itself ("What happens - if I …?").
_SITUATION_THEN_IF = re.compile(
    rf"^\s*(?!{_ASKING})(?:[^,?]{{1,160}}?\s[-–—]\s+|[^\s,?]+\s[^,?]{{1,160}}?,\s*|"
    rf"[^?.!]{{1,200}}?[.!]+\s+)(?=if\b)",
    _I,
)


def leading_statement(question: str) -> str:
    """The statement of the asker's situation before the question proper, if any ("I have
    dyslexia" of "I have dyslexia – can I have more time?", "I can't make it" of "I can't
    make it - if I cancel, do I pay?"); not a condition ("If …,")."""
    found = _LEADING_CONDITION.match(question) or _SITUATION_THEN_IF.match(question)
    if found is None or _STARTS_WITH_CONDITION.match(found.group(0)):
        return ""
    return found.group(0)


def question_proper(question: str) -> str:
    """`question` without the asker's situation before it (`leading_statement`): "can I have
    more time?" of "I have dyslexia – can I have more time?"."""
    return question[len(leading_statement(question)) :]


@lru_cache(maxsize=1024)  # the generator, the gate and the reading check ask it of each question
def question_focus(question: str) -> str:
    """The kind of answer `question` asks for: one of `FOCI`, read after a leading
    condition ("If …, can I …?").

    >>> question_focus("Can the region be changed later?")
    'permission'
    >>> question_focus("If a laptop is lost abroad, can I buy a new one?")
    'permission'
    """
    question = _LEADING_CONDITION.sub("", question, count=1)
    for focus, pattern in _QUESTION_FOCUS:
        if pattern.search(question):
            return focus
    return "other"


def focus_match(focus: str, sentence: str) -> float:
    """1.0 when `sentence` holds the kind of answer `focus` asks for, 0.0 when it does not,
    0.5 when the question has no recognised focus."""
    pattern = _SENTENCE_SIGNS.get(focus)
    if pattern is None:
        return 0.5
    if is_table_row(sentence) and focus in ("amount", "duration", "yes_no", "permission"):
        return 1.0  # a row's cells are the values its headers name
    return 1.0 if pattern.search(sentence) else 0.0
