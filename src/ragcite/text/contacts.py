"""Questions that ask for a way to reach someone, and the sentences that give one.

"What's the phone number for AFCA?", "What number do I ring?", "What is the email address
for payroll?" and "What's the website?" ask for a phone number, an email address or a web
address (not "What happens if the website is down?", which only mentions one); a sentence
gives a phone number when it holds six digits or more in one run, or a short number right
after "call", "dial" or "extension" (`_PHONE_NUMBER`), an email address when it holds an
"@" address, a web address when it holds one.

    >>> asked_contact("What's the phone number for AFCA?")
    'a phone number'
    >>> gives_contact("a phone number", "You can call AFCA on 1800 931 678.")
    True
"""

from __future__ import annotations

import re

from ragcite.text.labels import label_of
from ragcite.text.words import content_stems

# The words of a contact's label ("Phone: …", "Email: …") and of a question asking for one,
# as stems.
CONTACT_LABELS = content_stems("phone telephone tel mobile helpline hotline email fax")
CONTACT_WORDS = CONTACT_LABELS | content_stems("ring call number contact address write website")

# A question asking for a way to reach someone ("What's the phone number for AFCA?", "What
# number do I ring?", "What is the email address of payroll?", "Is there a phone number for
# the payments team?", "Do you have an email address?"), and what a sentence giving it
# holds: a phone number (`_PHONE_NUMBER`), an address with "@", a web address.
_ASKS_FOR = (
    r"^\s*(?:(?:what|which)(?:\s+(?:is|are)|['’]s|s)\s+(?:the\s+|your\s+|its\s+|their\s+)?|"
    r"(?:is|are)\s+there\s+(?:a|an|any)\s+|(?:do|does)\s+\w+\s+have\s+(?:a|an|any)\s+)"
    r"(?:[\w-]+\s+){0,2}?"
)
# A phone number: six digits or more in one run, spaced, dotted or bracketed ("01632 960 455",
# "(02) 9123 4567"), or a short number after the word for calling it ("dial 111", "on
# extension 4455"); not a time ("4.30pm"), an amount ("£1.50") or a year ("2025").
_PHONE_NUMBER = re.compile(
    r"\d(?:[\s().-]?\d){5,}|"
    r"\b(?:call|ring|dial|phone|text|telephone|extension|ext|tel)\b[^.\d]{0,20}?\b\d{3,5}\b(?!\d|[.,:]\d|%)",
    re.IGNORECASE,
)
_CONTACTS = (
    (
        "a phone number",
        re.compile(
            _ASKS_FOR + r"(?:(?:phone|telephone|mobile|fax|contact)\s+number|"
            r"extension|number\s+(?:to\s+[a-z]+|for))\b|^\s*(?:what|which)\s+number\s+(?:do|should|can|shall)\s+(?:i|we|you)\s+"
            r"(?:call|ring|phone|dial|text)\b",
            re.IGNORECASE,
        ),
        _PHONE_NUMBER,
    ),
    (
        "an email address",
        re.compile(_ASKS_FOR + r"e-?mail(?:\s+address)?\s*(?:\?|$|for|of|to)", re.IGNORECASE),
        re.compile(r"[\w.+-]@[\w-]"),
    ),
    (
        "a web address",
        re.compile(
            _ASKS_FOR + r"(?:website|web\s+address|url)\s*(?:\?|$|for|of|to)", re.IGNORECASE
        ),
        re.compile(r"\bwww\.|https?://|\b[\w-]+\.(?:com|org|net|gov|edu|io|info)\b", re.IGNORECASE),
    ),
)


# "Who do I ring if …?", "Who should I call about …?", "Who do I email?": a phone number or
# an email address answers, but so may a team or a role the passage names without one, so
# this is no reason to decline.
_WHO_DO_I = (
    r"^\s*(?:who|what|which\s+\w+)\s+(?:do|should|can|shall)\s+(?:i|we|you)\s+"
    r"(?:(?:actually|just|then|now|best|need\s+to|have\s+to)\s+)?"  # "who do I actually ring"
)
# "Is there anyone at the uni I can ring?", "is there someone we can call tonight?"
_ANYONE_I_CAN = (
    r"^\s*(?:is|are)\s+there\s+(?:anyone|anybody|someone|somebody|a\s+number)\b[^?]{0,40}?"
    r"\b(?:i|we)\s+(?:can|could|should)\s+"
)
_WHO_TO_RING = re.compile(
    rf"(?:{_WHO_DO_I}|{_ANYONE_I_CAN})(?:call|ring|phone|dial)\b", re.IGNORECASE
)
_WHO_TO_EMAIL = re.compile(_WHO_DO_I + r"e-?mail\b", re.IGNORECASE)


def wanted_contact(question: str) -> str | None:
    """The kind of contact that answers `question` best: `asked_contact`'s, a phone number
    for "who do I ring?", an email address for "who do I email?"; None otherwise.

    >>> wanted_contact("Who do I ring if the chain snaps?")
    'a phone number'
    """
    if _WHO_TO_RING.search(question):
        return "a phone number"
    if _WHO_TO_EMAIL.search(question):
        return "an email address"
    return asked_contact(question)


def asked_contact(question: str) -> str | None:
    """The kind of contact `question` asks for ("a phone number", "an email address", "a web
    address"), or None."""
    return next((kind for kind, asks, _ in _CONTACTS if asks.search(question)), None)


def gives_contact(kind: str, sentence: str) -> bool:
    """Whether `sentence` holds a contact of `kind` (`asked_contact`)."""
    return any(given.search(sentence) for name, _, given in _CONTACTS if name == kind)


def is_contact_line(sentence: str) -> bool:
    """Whether `sentence` is a line labelled as a contact ("Phone: 01632 960 418")."""
    label = content_stems(label_of(sentence))
    return bool(label) and label <= CONTACT_LABELS
