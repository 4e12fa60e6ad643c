"""Labelled lines: the label that opens a line governs the sentences after it on that line.

Procedures and policies often write a list of cases as lines that open with a short label
and a colon, then say what applies in one or more sentences:

    Severity 1: customer data exposed. The executive team is informed within 2 hours.
    Severity 2: a single system degraded. The incident manager responds within 4 hours.

"The incident manager responds within 4 hours." says nothing of severity on its own: it
is about Severity 2 because it stands on that line. A sentence that follows a labelled
sentence on the same line (or on the wrapped lines of the same paragraph, up to the next
sentence that opens a line) hangs from that sentence, as a list's item hangs from its
lead-in and an FAQ's answer from its question.

    >>> text = "Severity 2: one system down. Respond within 4 hours.\\nOther line."
    >>> from ragcite.text.sentences import split_sentences
    >>> labelled_by(text, split_sentences(text))
    [None, 0, None]

So does a numbered clause's title that stands as its own sentence ("1.1 Hot Desk. Price:
£189 per month."): the price is the hot desk's; and a lettered item's ("e) Disturbance
allowance. A one-off payment of £1,500 …").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcite.text.sentences import begins_line
from ragcite.text.words import STOPWORDS

# A label: a capital letter first, at most five words and 40 characters, no sentence
# punctuation, then a colon and a space ("Severity 2:", "**Tier A:**", "Step 3:"); not a
# time ("10:30") or an address ("https://").
_LABEL = re.compile(r"[*_]*(?P<label>[A-Z][^\n:.?!;]{0,39}?)[*_]*:[*_]*[ \t]+\S")
_MAX_LABEL_WORDS = 5
# A numbered clause's title standing as its own sentence at the start of a line, the
# clause's text following on that line ("1.1 Hot Desk. Price: £189 per month."): one to
# four capitalised words after the clause number; after a list letter ("e)", "(b)",
# "iv)") also one to four words in lower case, without function words (`clause_title`); alone
# (a list item's run-in title), two to four capitalised words ("- Monthly Direct Debit.
# Customers paying this way receive a discount …").
_CLAUSE_TITLE = re.compile(
    r"\s*(?:\d+(?:\.\d+)*\.?|\(?[a-z]\)|\(?[ivx]+\))\s+"
    r"(?P<label>[A-Z][\w'’&/-]*(?:\s+(?:[A-Z&][\w'’&/-]*|and|of|or)){0,3})\.\s*"
    r"|\s*\(?(?:[a-z]|[ivx]+)\)\s+(?P<item>[A-Z][\w'’&/-]*(?:\s+[\w'’&/-]+){0,3})\.\s*"
    r"|\s*(?P<bare>[A-Z][\w'’&/-]*(?:\s+(?:[A-Z&][\w'’&/-]*|and|of|or)){1,3})\.\s*"
)


def label_of(sentence: str) -> str:
    """The label a sentence opens with ("Severity 2" of "Severity 2: one system down."), or ""."""
    match = _LABEL.match(sentence)
    if match is None or len(match.group("label").split()) > _MAX_LABEL_WORDS:
        return ""
    return match.group("label").strip()


def clause_title(sentence: str) -> str:
    """The title of a numbered clause when `sentence` is only that ("Hot Desk" of "1.1 Hot
    Desk."), or ""."""
    match = _CLAUSE_TITLE.fullmatch(sentence)
    if match is None:
        return ""
    if match.group("bare") is not None:  # "- Monthly Direct Debit. Customers paying …"
        return match.group("bare")
    item = match.group("item")
    if item is not None:  # "e) Disturbance allowance.", not "a) You must pay now."
        return "" if any(w.lower() in STOPWORDS for w in item.split()) else item
    return match.group("label")


def line_label(sentence: str) -> str:
    """What governs the sentences after `sentence` on its line: its label (`label_of`) or,
    for a numbered clause's title, the title (`clause_title`); "" when neither."""
    return label_of(sentence) or clause_title(sentence)


def labelled_by(text: str, spans: Sequence[tuple[int, int]]) -> list[int | None]:
    """For each sentence span of `text`, the index of the labelled sentence opening its
    line that it follows, or None (the labelled sentence itself, a sentence opening a line,
    or one on an unlabelled line)."""
    out: list[int | None] = []
    label: int | None = None
    for index, (start, end) in enumerate(spans):
        if begins_line(text, start):
            label = index if line_label(text[start:end]) else None
            out.append(None)
        else:
            out.append(label)
    return out


# A year in a label ("September 2025", "Spring 2026", "2025-26").
_YEAR = re.compile(r"\b(?:19|20)\d\d(?:[-/–]\d{2}(?:\d{2})?)?\b")


def undated(label: str, question: str) -> str:
    """A row's label without its year when the question names none: "in september pay"
    names the row "September 2025" of a pay-dates table (a label that is only a year stays).

    >>> undated("september 2025", "to get it in september pay")
    'september'
    """
    if _YEAR.search(question) or not _YEAR.search(label):
        return label
    rest = " ".join(_YEAR.sub(" ", label).split())
    return rest if len(rest) > 2 else label
