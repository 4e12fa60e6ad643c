"""An FAQ's questions: which question on a line of its own each sentence answers.

Support and policy documents are full of FAQs: a question written on a line of its own
("Can I buy software with my corporate card?"), then its answer ("No. Software must always
be purchased through the IT portal."). The answer seldom repeats the question's words, so
the question is what tells a reader, and ragcite, what the answer is about. A question
counts when it is a whole line and ends with "?"; it governs the paragraph that follows it
(the answer's lines up to the next blank line, or the next such question).

    >>> text = "Can I buy software with my card?\\nNo. Use the IT portal.\\n\\nOther text."
    >>> from ragcite.text.sentences import split_sentences
    >>> spans = split_sentences(text)
    >>> [None if q is None else text[slice(*spans[q])] for q in answered_questions(text, spans)]
    [None, 'Can I buy software with my card?', 'Can I buy software with my card?', None]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_CLOSERS = "\"'”’)]*_"
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _is_question_line(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] ends with "?" and is a whole line."""
    if not text[start:end].rstrip(_CLOSERS).endswith("?"):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    before = text[line_start:start].strip(" \t*_#>-")
    after = text[end : len(text) if line_end < 0 else line_end].strip(" \t*_")
    return not before and not after


def answered_questions(text: str, spans: Sequence[tuple[int, int]]) -> list[int | None]:
    """For each sentence span of `text`, the index (into `spans`) of the question on a line
    of its own that it answers, or None: a sentence answers the nearest such question
    before it when no blank line has closed the answer since its first line."""
    out: list[int | None] = []
    asked: int | None = None
    answer_began = False
    previous_end = 0
    for index, (start, end) in enumerate(spans):
        if asked is not None and answer_began and _BLANK_LINE.search(text, previous_end, start):
            asked = None  # a blank line after the answer's first paragraph ends it
        if _is_question_line(text, start, end):
            out.append(None)
            asked, answer_began = index, False
        else:
            out.append(asked)
            answer_began = answer_began or asked is not None
        previous_end = end
    return out
