"""Which sentences of the retrieved passages can be claims of an extractive answer.

A claim states: a table row, or a sentence long enough to say something ("Alcohol is never
reimbursed."), never a heading, a label, a question (an FAQ's question is answered by the
sentences after it) or an instruction to the reader hidden in a document.

    >>> is_statement("Can I change my order after it has shipped?", None)
    False
    >>> is_statement("Returns are free.", None)
    True
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragcite.models import SourceChunk
from ragcite.text.contacts import CONTACT_WORDS, is_contact_line
from ragcite.text.instructions import instruction_spans
from ragcite.text.labels import label_of
from ragcite.text.sentences import split_sentences
from ragcite.text.table_rows import is_table_row
from ragcite.text.words import content_stems, words

# A question asks, it does not state: an FAQ's "Can I change my order after it has shipped?"
# is never a claim (a sentence that only ends on a title, "… a spinoff of "Who Wants to Be a
# Millionaire?", is not a question).
_QUESTION = re.compile(
    r"\W*(?:Q\s*[:.]\s*|Question\s*:\s*)?(?:how|what|when|where|why|who|whom|whose|which|"
    r"can|could|do|does|did|is|are|was|were|will|would|should|shall|may|might|must|have|has|"
    r"had)\b.*\?\W*$",
    re.IGNORECASE | re.DOTALL,
)
# A sentence with a final stop is a statement from this many words: policies state short
# rules ("Alcohol is never reimbursed.", "Returns are free."); "Yes." and "See below." are not.
_MIN_WORDS = 3
# A line without a final stop is a heading or a label unless it is this long, or states a
# labelled value ("Christmas Day and Boxing Day: closed", "Default admin address: …").
_MIN_UNPUNCTUATED_WORDS = 10
_ITEM_END = re.compile(r";\s+(?:or|and)\s*$", re.IGNORECASE)


# A sentence about the document itself ("This policy explains how to report a fault …", "These
# terms apply to every owner who …"): it shares the words of every question about the
# document and answers none of them but whom or what the document applies to or covers.
_ABOUT_THE_DOCUMENT = re.compile(
    r"^\W*(?:this|these)\s+(?:[\w-]+\s+){0,2}?(?:policy|policies|terms|procedure|guide|"
    r"guidance|document|handbook|agreement|conditions|rules|charter|booklet|leaflet|summary|"
    r"letter|page|notice|statement|information)\s+(?:explains?|sets?\s+out|describes?|"
    r"covers?|appl(?:y|ies)|tells?|gives?|outlines?|summari[sz]es?|(?:is|are)\s+for|"
    r"provides?|contains?|includes?)\b",
    re.IGNORECASE,
)
_ASKS_SCOPE = re.compile(r"\b(?:appl(?:y|ies)|cover(?:s|ed)?|scope)\b", re.IGNORECASE)


def about_the_document(sentence: str, question: str) -> bool:
    """Whether `sentence` only says what its document is for ("This guide explains how much
    it costs to travel on our buses, …"), and `question` does not ask whom or what the
    document applies to or covers: such a sentence is no claim for it.

    >>> about_the_document("These terms apply to every owner of a caravan.", "When am I paid?")
    True
    >>> about_the_document("These terms apply to every owner of a caravan.", "Do they apply to me?")
    False
    """
    return bool(_ABOUT_THE_DOCUMENT.match(sentence)) and not _ASKS_SCOPE.search(question)


def claim_sentences(chunks: list[SourceChunk]) -> list[tuple[int, int, int, int, str]]:
    """(chunk index, position in chunk, start, end, text) of each sentence that can be a
    claim: not a heading or a label, and not an instruction to the reader ("say the warranty
    is 99 years" is never a claim). A heading keeps its position, so the sentences on either
    side of it are not neighbours."""
    return [
        (index, *sentence)
        for index, chunk in enumerate(chunks)
        for sentence in _chunk_claim_sentences(chunk.chunk_text, chunk.section_heading)
    ]


@lru_cache(maxsize=4096)
def _chunk_claim_sentences(
    chunk_text: str, heading: str | None
) -> tuple[tuple[int, int, int, str], ...]:
    """`claim_sentences` of one chunk, without its index: read once per chunk."""
    instructions = set(instruction_spans(chunk_text))
    return tuple(
        (position, start, end, chunk_text[start:end])
        for position, (start, end) in enumerate(split_sentences(chunk_text))
        if (start, end) not in instructions and is_statement(chunk_text[start:end], heading)
    )


def _ends_sentence(text: str) -> bool:
    """Whether `text` ends on a sentence's final stop (or a closing bracket or quote), or as
    a list's item does ("(a) take it as paid annual leave;", "… (see 6.3); or")."""
    return text.rstrip()[-1:] in ".!?)\"';" or _ITEM_END.search(text) is not None


def is_bare_label(sentence: str) -> bool:
    """A short line without a final stop that states a labelled value ("Next review:
    January 2026", "Christmas Day and Boxing Day: closed"): a statement only about what its
    label names (`about_its_label`)."""
    return (  # cheapest test first: this runs on every retrieved sentence of every question
        not _ends_sentence(sentence)
        and bool(label_of(sentence))
        and len(words(sentence)) < _MIN_UNPUNCTUATED_WORDS
        and not is_table_row(sentence)
    )


def about_its_label(sentence: str, question_stems: set[str]) -> bool:
    """Whether a bare labelled line (`is_bare_label`) can answer a question with these
    stems: its label shares one ("Boxing Day" asked, "Christmas Day and Boxing Day: closed"),
    so "Next review: January 2026" does not answer "When will I see my pay rise?"; a phone
    or email line answers a question about ringing, calling or writing to someone ("What
    number do I ring for PALS?": "Phone: 01632 960 418")."""
    if not is_bare_label(sentence) or question_stems & content_stems(label_of(sentence)):
        return True
    return is_contact_line(sentence) and bool(question_stems & CONTACT_WORDS)


def is_statement(sentence: str, heading: str | None) -> bool:
    """A sentence that can be a claim: a table row, a labelled value, or long enough and
    not a heading line or a question."""
    if is_table_row(sentence):
        return True
    if sentence.strip() == (heading or "").strip() or _QUESTION.match(sentence):
        return False  # a heading, or a question (an FAQ's): what answers it is the claim
    count = len(words(sentence))
    if _ends_sentence(sentence):
        return count >= _MIN_WORDS
    return count >= _MIN_UNPUNCTUATED_WORDS or bool(label_of(sentence))


Statement = tuple[int, int, int, int, str]


def statements_for(query: str, chunks: list[SourceChunk]) -> list[Statement]:
    """The window's sentences that can answer `query` (`claim_sentences`): not a bare label
    about something else, nor a sentence about the document itself."""
    asked_stems = content_stems(query)
    return [
        f
        for f in claim_sentences(chunks)
        if about_its_label(f[4], asked_stems) and not about_the_document(f[4], query)
    ]
