"""The forms of a chunk's sentences that the ask-time stages embed.

The reranker and the extractive generator embed each sentence with its section heading
("Customer records: They are kept 3 years."); the gate embeds claims on one line and
evidence sentences stripped and cut to `EVIDENCE_CHARS`; for a question that names one
column of a table, the generator embeds the row cut to its label and that cell ("Plans:
Team — Users: 25"). Ingest embeds every form once and stores the vectors with the chunk,
so at ask time these strings are already known.

    >>> chunk_sentence_forms("Kept 3 years.\\nThen erased.", "Records")
    ['Records: Kept 3 years.', 'Kept 3 years.', 'Records: Then erased.', 'Then erased.']
"""

from __future__ import annotations

from functools import lru_cache

from ragcite.text.sentences import split_sentences
from ragcite.text.table_rows import is_table_row, single_cell_rows

EVIDENCE_CHARS = 300  # the gate embeds the start of a web page's very long "sentence" only


def in_context(heading: str | None, sentence: str) -> str:
    """A sentence prefixed by its section heading: "Customer records: They are kept 3 years."."""
    return f"{heading}: {sentence}" if heading else sentence


def one_line(sentence: str) -> str:
    """A claim's wording without the source's line breaks."""
    return " ".join(sentence.split())


def chunk_sentence_forms(chunk_text: str, heading: str | None, *, cells: bool = True) -> list[str]:
    """Every distinct string the ask-time stages may embed for this chunk's sentences,
    in a fixed order (the stored vectors follow it): each sentence's forms, then (with
    `cells`) its table rows' single-cell forms (`table_cell_forms`). A store written
    before the cell forms holds the vectors of the forms without them."""
    return list(_sentence_forms(chunk_text, heading, cells))


@lru_cache(maxsize=4096)
def _sentence_forms(chunk_text: str, heading: str | None, cells: bool) -> tuple[str, ...]:
    """`chunk_sentence_forms`, read once per chunk (every `ask` reads its chunks' forms to
    match their stored vectors)."""
    forms: dict[str, None] = {}
    for _, _, sentence_forms in sentences_with_forms(chunk_text, heading):
        for form in sentence_forms:
            forms.setdefault(form, None)
    for form in table_cell_forms(chunk_text, heading) if cells else ():
        forms.setdefault(form, None)
    return tuple(forms)


def table_cell_forms(chunk_text: str, heading: str | None) -> list[str]:
    """Each table row of the chunk cut to its label and one of its cells, with the
    heading: what the extractive generator compares with a question naming that column.

    >>> table_cell_forms("Team — Storage: 100 GB; Users: 25", "Plans")
    ['Plans: Team — Storage: 100 GB', 'Plans: Team — Users: 25']
    """
    forms: list[str] = []
    for start, end in split_sentences(chunk_text):
        sentence = chunk_text[start:end]
        if is_table_row(sentence):
            forms.extend(in_context(heading, row) for row in single_cell_rows(sentence))
    return forms


def sentences_with_forms(
    chunk_text: str, heading: str | None
) -> list[tuple[int, int, tuple[str, str, str]]]:
    """Each non-blank sentence of the chunk: its [start, end) in `chunk_text` and its forms
    (with its heading, stripped and cut for the gate, on one line), in reading order.

    >>> sentences_with_forms("Kept 3 years.", None)
    [(0, 13, ('Kept 3 years.', 'Kept 3 years.', 'Kept 3 years.'))]
    """
    found = []
    for start, end in split_sentences(chunk_text):
        sentence = chunk_text[start:end]
        stripped = sentence.strip()
        if stripped:
            forms = (in_context(heading, sentence), stripped[:EVIDENCE_CHARS], one_line(sentence))
            found.append((start, end, forms))
    return found
