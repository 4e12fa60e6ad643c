"""Structure-first chunking into verbatim slices of the extracted text.

Section starts and page boundaries cut the text into segments that no chunk crosses. Within a
segment, whole paragraphs are packed up to `chunk_size`; an over-long paragraph is split at
sentence boundaries, an over-long sentence at word boundaries. A chunk after the first in a
segment starts with the previous chunk's trailing whole sentences that fit in `chunk_overlap`.
A table row ("Team — Storage: 100 GB; Users: 25") is a sentence to the splitter, so a table is
cut between rows only, and every row names its headers, so no chunk loses the header context.

    >>> chunks = chunk_text(load_document(Path("returns.md")), chunk_size=800)
    >>> chunks[0].section_heading, chunks[0].text[:26]
    ('Returns and Refunds Policy', 'Returns and Refunds Policy')
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from ragcite.ingest.types import ExtractedText, SectionSpan, TextChunk
from ragcite.text.sentences import split_sentences

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_WHITESPACE = re.compile(r"\s+")
_NON_SPACE = re.compile(r"\S")
# A last chunk adding fewer new characters than this joins the previous one.
_MIN_TAIL_CHARS = 80
_TAIL_MERGE_FACTOR = 1.25


@dataclass(frozen=True)
class _Span:
    start: int
    end: int


def chunk_text(
    extracted: ExtractedText,
    *,
    chunk_size: int = 800,
    chunk_overlap: int = 100,
    check: Callable[[], None] | None = None,
) -> list[TextChunk]:
    """Split `extracted.text` into chunks with exact offsets, page numbers and sections.

    `check` is called throughout (per segment, paragraph and sentence) and may raise to
    abandon the work, e.g. `LoadLimits.check_time` once a file's time is up."""
    check = check or _no_check
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be > 0, but got {chunk_size}")
    if not 0 <= chunk_overlap < chunk_size:
        raise ValueError(
            f"chunk_overlap must be >= 0 and < chunk_size ({chunk_size}), but got {chunk_overlap}"
        )
    text = extracted.text
    sections = sorted(extracted.sections, key=lambda s: s.char_start)
    section_starts = [s.char_start for s in sections]
    pages = sorted(extracted.pages, key=lambda p: p.char_start)
    page_starts = [p.char_start for p in pages]

    chunks: list[TextChunk] = []
    for segment in _segments(extracted):
        if _only_heading(text, segment, sections, section_starts):
            continue  # a heading directly followed by a subsection: nothing to cite
        check()
        for span in _chunk_segment(text, segment, chunk_size, chunk_overlap, check):
            page_index = bisect.bisect_right(page_starts, span.start) - 1
            section_index = bisect.bisect_right(section_starts, span.start) - 1
            chunks.append(
                TextChunk(
                    text=text[span.start : span.end],
                    char_start=span.start,
                    char_end=span.end,
                    page_number=pages[max(page_index, 0)].page_number if pages else None,
                    section_heading=sections[section_index].heading if section_index >= 0 else None,
                )
            )
    return chunks


def _segments(extracted: ExtractedText) -> list[_Span]:
    """Stripped, non-empty spans between section starts and page boundaries."""
    text = extracted.text
    cuts = {0, len(text)}
    cuts.update(s.char_start for s in extracted.sections)
    for page in extracted.pages:
        cuts.update((page.char_start, page.char_end))
    bounds = sorted(c for c in cuts if 0 <= c <= len(text))
    segments: list[_Span] = []
    for start, end in itertools.pairwise(bounds):
        stripped = _strip(text, start, end)
        if stripped is not None:
            segments.append(stripped)
    return segments


def _only_heading(
    text: str, segment: _Span, sections: list[SectionSpan], section_starts: list[int]
) -> bool:
    index = bisect.bisect_right(section_starts, segment.start) - 1
    if index < 0:
        return False
    heading = sections[index].heading
    return _WHITESPACE.sub(" ", text[segment.start : segment.end]) == heading


def _chunk_segment(
    text: str, segment: _Span, size: int, overlap: int, check: Callable[[], None]
) -> list[_Span]:
    units = _units(text, segment, size, check)
    chunks: list[_Span] = []
    current: _Span | None = None
    for unit in units:
        check()
        if current is None:
            current = unit
        elif unit.end - current.start <= size:
            current = _Span(current.start, unit.end)
        else:
            chunks.append(current)
            start = _overlap_start(text, current, overlap)
            if start is None or unit.end - start > size:
                start = unit.start
            current = _Span(start, unit.end)
    if current is not None:
        chunks.append(current)
    return _merge_tiny_tail(chunks, size)


def _units(text: str, segment: _Span, size: int, check: Callable[[], None]) -> list[_Span]:
    """Paragraphs that fit; else their sentences that fit; else word-bounded pieces."""
    units: list[_Span] = []
    for paragraph in _paragraphs(text, segment):
        check()
        if paragraph.end - paragraph.start <= size:
            units.append(paragraph)
            continue
        for start, end in split_sentences(text, paragraph.start, paragraph.end):
            check()
            if end - start <= size:
                units.append(_Span(start, end))
            else:
                units.extend(_word_pieces(text, _Span(start, end), size))
    return units


def _no_check() -> None:
    return None


def _paragraphs(text: str, segment: _Span) -> list[_Span]:
    paragraphs: list[_Span] = []
    start = segment.start
    for match in _PARAGRAPH_BREAK.finditer(text, segment.start, segment.end):
        stripped = _strip(text, start, match.start())
        if stripped is not None:
            paragraphs.append(stripped)
        start = match.end()
    stripped = _strip(text, start, segment.end)
    if stripped is not None:
        paragraphs.append(stripped)
    return paragraphs


def _word_pieces(text: str, sentence: _Span, size: int) -> list[_Span]:
    """Pieces of at most `size` characters, cut at whitespace (mid-word only for huge words)."""
    pieces: list[_Span] = []
    start = sentence.start
    while sentence.end - start > size:
        limit = start + size
        cut = max(text.rfind(" ", start, limit + 1), text.rfind("\n", start, limit + 1))
        if cut <= start:
            cut = limit
        piece = _strip(text, start, cut)
        if piece is not None:
            pieces.append(piece)
        # Find where the rest starts without copying it: on one huge line (1 MB, no breaks)
        # copying the remainder at every cut made this quadratic.
        rest = _NON_SPACE.search(text, cut, sentence.end)
        if rest is None:
            return pieces
        start = rest.start()
    pieces.append(_Span(start, sentence.end))
    return pieces


def _overlap_start(text: str, previous: _Span, overlap: int) -> int | None:
    """Start of the previous chunk's trailing whole sentences that fit in `overlap` chars."""
    if overlap == 0:
        return None
    start: int | None = None
    for sentence_start, _ in reversed(split_sentences(text, previous.start, previous.end)):
        if previous.end - sentence_start > overlap or sentence_start == previous.start:
            break
        start = sentence_start
    return start


def _merge_tiny_tail(chunks: list[_Span], size: int) -> list[_Span]:
    if len(chunks) < 2:
        return chunks
    previous, last = chunks[-2], chunks[-1]
    threshold = min(_MIN_TAIL_CHARS, size // 4)
    if (
        last.end - previous.end < threshold
        and last.end - previous.start <= size * _TAIL_MERGE_FACTOR
    ):
        return [*chunks[:-2], _Span(previous.start, last.end)]
    return chunks


def _strip(text: str, start: int, end: int) -> _Span | None:
    """The span with surrounding whitespace removed, or None if it is all whitespace."""
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return None
    start += len(piece) - len(piece.lstrip())
    return _Span(start, start + len(stripped))
