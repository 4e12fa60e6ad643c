"""A list the question asks for as a whole: every item of it.

"What do I need before travelling?" over a section "What you need before travelling" with
the items "- An approved travel request.", "- A valid passport …", "- The emergency number
…" asks for the list, not for its best item. When the sentence that answers best is a list
item (a bulleted or numbered line) and the list's title — the lead-in line ending in ":"
right above the list, else the section heading — is what the question asks about (at
least two thirds of the title's words, by stem, are the question's), the other items of
that list answer too. A question about one rule in a list ("Can I install my own
software?" over "Company devices") does not name the list's title, and gets its one item.
A lead-in that answers best ("Every expense above the limits below must be approved:")
brings its list: it says the answer is there.

    >>> whole_list("What do I need before travelling?", chunk, position=2)  # doctest: +SKIP
    [1, 2, 3]
"""

from __future__ import annotations

from ragcite.generate.sentence_choice import stems
from ragcite.models import SourceChunk
from ragcite.text.sentences import is_list_item, split_sentences

_TITLE_SHARE = 2 / 3
# Words that introduce a list without saying what it is of ("Bring the following:").
_LIST_WORDS = frozenset("following follow below list items item includ these".split())


def whole_list(question: str, chunk: SourceChunk, position: int) -> list[int]:
    """The positions (sentence indices in `chunk`) of the items of the list the sentence at
    `position` belongs to, when the question asks for that list, or that it introduces
    (a lead-in ending in ":" says the list is its answer); else []."""
    text = chunk.chunk_text
    spans = split_sentences(text)
    items = [is_list_item(text, start, end) for start, end in spans]
    if not 0 <= position < len(spans):
        return []
    if not items[position]:
        introduced = position + 1 < len(spans) and items[position + 1]
        if not (introduced and text[slice(*spans[position])].rstrip().endswith(":")):
            return []
        last = position + 1
        while last + 1 < len(spans) and items[last + 1]:
            last += 1
        return list(range(position + 1, last + 1))
    first, last = position, position
    while first > 0 and items[first - 1]:
        first -= 1
    while last + 1 < len(spans) and items[last + 1]:
        last += 1
    lead = text[slice(*spans[first - 1])].rstrip() if first > 0 else ""
    title = lead if lead.endswith(":") else chunk.section_heading or ""
    wanted = stems(title) - _LIST_WORDS
    if not wanted or len(wanted & stems(question)) < _TITLE_SHARE * len(wanted):
        return []
    return list(range(first, last + 1))


def lead_ins(text: str, spans: list[tuple[int, int]]) -> list[int | None]:
    """For each sentence span, the index of the lead-in its list hangs from (the line
    ending in ":" right above the list, "Before your first day:"), or None when it is not
    an item of such a list."""
    items = [is_list_item(text, start, end) for start, end in spans]
    out: list[int | None] = []
    lead: int | None = None
    for index, item in enumerate(items):
        if not item:
            lead = None
            out.append(None)
            continue
        if index > 0 and not items[index - 1]:
            before = text[slice(*spans[index - 1])].rstrip()
            lead = index - 1 if before.endswith(":") else None
        out.append(lead)
    return out
