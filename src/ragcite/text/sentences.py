"""Sentence spans in extracted text: a fast regex scan, no models.

Used by the chunker (split over-long paragraphs), the extractive generator (candidate claims)
and the verifier (sentence-level alignment), so it runs on every retrieved chunk at ask time.

    >>> text = "Dr. Lee approved it, e.g. for travel. The fee is $1,200.00 per year."
    >>> [text[a:b] for a, b in split_sentences(text)]
    ['Dr. Lee approved it, e.g. for travel.', 'The fee is $1,200.00 per year.']
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragcite.text.table_rows import table_row_spans


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Words that take a period without ending a sentence (compared lower-cased, period removed).
# Initialisms such as "U.S." and "i.e." are caught by a rule, not listed.
_ABBREVIATIONS = _word_set(
    """
    mr mrs ms mx dr prof sr jr st rev fr gen col capt lt sgt cmdr hon pres gov sen rep
    inc ltd corp co llc plc bros dept univ assn vs etc al approx appx cf viz incl excl
    jan feb apr jun jul aug sep sept oct nov dec
    """
)
# These are abbreviations only before a number: "No. 5", "p. 12"; "No. We don't." ends.
_NUMBER_ABBREVIATIONS = _word_set(
    """
    no nos p pp vol vols ch chap fig figs eq eqs sec secs art arts para paras ref refs ca
    """
)
# Heading-like lines do not end on these words: such a line is a wrapped sentence.
_FUNCTION_WORDS = _word_set(
    """
    a an the of to in on at by for from with and or but nor as is are was were be been
    that which who whom whose this these those than then if when while our your their its
    his her my we you they it not no may must shall will can should would could
    """
)

_CANDIDATE = re.compile(r"(?P<term>[.!?…]+[\"'”’)\]*_]*)(?=\s)|\n")
_INITIALISM = re.compile(r"(?:[A-Za-z]\.)*[A-Za-z]")
_ENUMERATOR = re.compile(r"\d{1,3}|[ivxlcdm]{1,6}|[IVXLCDM]{1,6}|[A-Za-z]")
_BLANK_REST = re.compile(r"[ \t\r\f\v]*(?:\n|$)")
_BULLETS = "[-*+•▪◦‣–]"
_BULLET_OR_HEADING = re.compile(
    rf"[ \t]*(?:{_BULLETS}\s|\(?(?:\d{{1,3}}|[a-zA-Z]|[ivxIVX]{{1,4}})[.)]\s|#{{1,6}}\s|>)"
)
# A list item's bullet opening a line is the list's, not the sentence's: "- Devices must be
# locked." is the sentence "Devices must be locked." (numbered items keep their number).
_BULLET = re.compile(rf"{_BULLETS}[ \t]+(?=\S)")
_BULLET_BEFORE = re.compile(rf"[ \t]*{_BULLETS}[ \t]+")
_NUMBERED = re.compile(r"(?:\(?\d{1,2}[.)]|\(?(?:[a-z]|[ivx]{2,4})\))[ \t]+\S")
# A line a heading may stand above: a clause number, then a capital ("3.2 Parental leave",
# "1) Fees"); not a wrapped line that opens on an amount ("50%.", "14 days").
_NUMBERED_LINE = re.compile(r"\(?\d{1,3}(?:\.\d{1,3})*[.)]?[ \t]+[\"'“‘(]*[A-Z]")
_NEXT_START = re.compile(r"\s*[\"'“‘(\[]*(?P<c>\S)?")
_LAST_WORD = re.compile(r"(\w+)\W*$")
_LEADER = "...."  # four dots or more lead the eye along a line; an ellipsis has three
_TERMINAL_PUNCTUATION = frozenset(".!?…:;,")

_MAX_HEADING_LINE = 80
_CACHED_CHARS = 20_000


def split_sentences(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Sentence spans `(char_start, char_end)` in `text[start:end]`, offsets into `text`.

    Each span is stripped of surrounding whitespace, and of the bullet of a list item that
    opens its line. A blank line, or a line break followed by a list item or heading, always
    ends a sentence; so does a short heading-like line (no final punctuation) that starts a
    sentence and is followed by a capitalised line.

        >>> split_sentences("Pay 3.5% now.\\n- Item one\\n- Item two")
        [(0, 13), (16, 24), (27, 35)]
    """
    if len(text) > _CACHED_CHARS:  # a whole document, split once by the chunker
        return _split(text, start, end)
    # At ask time the reranker, the generator and the gate split the same retrieved chunks:
    # the spans of recent texts are remembered (a copy is returned each time).
    return list(_split_cached(text, start, end))


@lru_cache(maxsize=4096)
def _split_cached(text: str, start: int, end: int | None) -> tuple[tuple[int, int], ...]:
    return tuple(_split(text, start, end))


def _split(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    if end is None:
        end = len(text)
    end = min(end, len(text))
    if start >= end:
        return []
    rows = table_row_spans(text, start, end)
    if not rows:
        return _prose_sentences(text, start, end)
    # A table row ("Team — Storage: 100 GB; Users: 25") is one unit, never cut or joined.
    spans: list[tuple[int, int]] = []
    cursor = start
    for row_start, row_end in rows:
        spans.extend(_prose_sentences(text, cursor, row_start))
        spans.append((row_start, row_end))
        cursor = row_end
    spans.extend(_prose_sentences(text, cursor, end))
    return spans


def _prose_sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if start >= end:
        return []
    spans: list[tuple[int, int]] = []
    sentence_start = start
    for match in _CANDIDATE.finditer(text, start, end):
        if match.group("term") is not None:
            if not _ends_sentence(text, match.start(), match.end(), start, end):
                continue
            boundary = match.end()
        else:
            newline = match.start()
            if not _line_break_ends_sentence(text, newline, sentence_start, end):
                continue
            boundary = newline
        _append_stripped(text, sentence_start, boundary, spans)
        sentence_start = boundary
    _append_stripped(text, sentence_start, end, spans)
    return spans


def _append_stripped(text: str, a: int, b: int, spans: list[tuple[int, int]]) -> None:
    piece = text[a:b]
    stripped = piece.strip()
    if stripped:
        a += len(piece) - len(piece.lstrip())
        end = a + len(stripped)
        bullet = _BULLET.match(text, a, end)
        if bullet is not None and _opens_line(text, a):
            a = bullet.end()
        spans.append((a, end))


def is_list_item(text: str, start: int, end: int) -> bool:
    """Whether the sentence span text[start:end] is a list item: it follows the bullet
    that opens its line (stripped from the span), or opens its line, indented or not, with
    a number or a letter that it keeps ("2. Collect your badge.", "(b) make the time up").

        >>> text = "Bring:\\n- a laptop.\\n2. Collect your badge."
        >>> [is_list_item(text, a, b) for a, b in split_sentences(text)]
        [False, True, True]
    """
    line_start = text.rfind("\n", 0, start) + 1
    if line_start < start and not text[line_start:start].isspace():
        return _BULLET_BEFORE.fullmatch(text, line_start, start) is not None
    return _NUMBERED.match(text, start, end) is not None


def _opens_line(text: str, at: int) -> bool:
    """Whether only spaces stand between the line's start and `at`."""
    line_start = text.rfind("\n", 0, at) + 1
    return not text[line_start:at].strip(" \t")


def begins_line(text: str, start: int) -> bool:
    """Whether the sentence span starting at `start` begins its line: only spaces, or the
    bullet of a list item (stripped from the span), stand before it on that line."""
    line_start = text.rfind("\n", 0, start) + 1
    return _opens_line(text, start) or _BULLET_BEFORE.fullmatch(text, line_start, start) is not None


def _ends_sentence(text: str, punct_start: int, punct_end: int, start: int, end: int) -> bool:
    """Whether terminal punctuation at text[punct_start:punct_end] ends a sentence."""
    nxt = _NEXT_START.match(text, punct_end, end)
    next_char = nxt.group("c") if nxt else None
    if next_char is None:
        return True
    if next_char.islower():
        return False
    if (
        nxt is not None
        and text.startswith(_LEADER, punct_start)
        and "\n" not in text[punct_end : nxt.start("c")]
    ):
        return False  # dot leaders go on to the line's value: "Key fob ........ GBP 25"
    if text[punct_start] != "." or (punct_end - punct_start > 1 and text[punct_start + 1] == "."):
        return True  # "!", "?", "…" or an ellipsis followed by a capital
    lo = max(start, punct_start - 40)
    token_start = max(text.rfind(" ", lo, punct_start), text.rfind("\n", lo, punct_start)) + 1
    token = text[max(token_start, lo) : punct_start].lstrip("\t\"'“‘([.-")
    if not token:
        return True
    lowered = token.lower()
    if lowered in _NUMBER_ABBREVIATIONS:
        return not next_char.isdigit()
    if lowered in _ABBREVIATIONS or _INITIALISM.fullmatch(token):
        return False
    if _ENUMERATOR.fullmatch(token):
        # "1." or "iv." opening a line is a list enumerator, not a sentence end.
        line_start = text.rfind("\n", start, punct_start) + 1
        line_start = max(line_start, start)
        if not text[line_start : punct_start - len(token)].strip(" \t(-*•"):
            return False
    return True


def _line_break_ends_sentence(text: str, newline: int, sentence_start: int, end: int) -> bool:
    after = newline + 1
    if _BLANK_REST.match(text, after, end) or after >= end:
        return True
    if _BULLET_OR_HEADING.match(text, after, end):
        return True
    return _is_heading_line(text, sentence_start, newline, end)


def _is_heading_line(text: str, sentence_start: int, newline: int, end: int) -> bool:
    """A short line without final punctuation that forms the whole sentence so far, from
    the start of its line: a sentence that began after another on the same line is a wrapped
    one ("… by 1 April. Those who pay by 28" over "February …")."""
    if newline - sentence_start > 2 * _MAX_HEADING_LINE:
        return False
    first = newline - len(text[sentence_start:newline].lstrip())  # its first character
    if text[text.rfind("\n", 0, first) + 1 : first].strip():
        return False
    line = text[sentence_start:newline]
    if "\n" in line.strip():
        return False
    line = line.strip()
    if not line or len(line) > _MAX_HEADING_LINE or line[-1] in _TERMINAL_PUNCTUATION:
        return False
    if not (line[0].isupper() or line[0].isdigit() or line[0] == "#"):
        return False
    last_word = _LAST_WORD.search(line)
    if last_word and last_word.group(1).lower() in _FUNCTION_WORDS:
        return False
    nxt = _NEXT_START.match(text, newline + 1, end)
    next_char = nxt.group("c") if nxt else None
    if nxt is None or next_char is None:
        return False
    if next_char.isdigit():  # "1. …", not a wrapped "50%." or "14 days"
        return _NUMBERED_LINE.match(text, nxt.start("c"), end) is not None
    return next_char.isupper()
