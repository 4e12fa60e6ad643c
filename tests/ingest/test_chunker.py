from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from ragcite.ingest.chunker import chunk_text
from ragcite.ingest.loaders import load_document
from ragcite.ingest.types import ExtractedText, PageSpan, SectionSpan, TextChunk
from ragcite.text.sentences import split_sentences


def assert_verbatim(extracted: ExtractedText, chunks: list[TextChunk]) -> None:
    for chunk in chunks:
        assert chunk.text == extracted.text[chunk.char_start : chunk.char_end]
        assert chunk.text == chunk.text.strip() and chunk.text


def chunk_with(chunks: list[TextChunk], phrase: str) -> TextChunk:
    return next(c for c in chunks if phrase in c.text)


def long_paragraphs(count: int, sentences_each: int) -> str:
    paragraphs = []
    for p in range(count):
        paragraphs.append(
            " ".join(
                f"Rule {p}.{s} says that staff must file form {p * 10 + s} within {s + 3} days."
                for s in range(sentences_each)
            )
        )
    return "\n\n".join(paragraphs)


def test_sample_documents_chunk_verbatim(
    data_dir: Path, handbook_pdf: Path, security_docx: Path
) -> None:
    for path in (
        data_dir / "handbook.md",
        data_dir / "store-page.html",
        data_dir / "remote-work.txt",
        handbook_pdf,
        security_docx,
    ):
        extracted = load_document(path)
        chunks = chunk_text(extracted, chunk_size=200, chunk_overlap=40)
        assert chunks, path
        assert_verbatim(extracted, chunks)


def test_pdf_page_numbers_and_sections(handbook_pdf: Path) -> None:
    extracted = load_document(handbook_pdf)
    chunks = chunk_text(extracted)
    leave = chunk_with(chunks, "25 days of paid annual leave")
    assert (leave.page_number, leave.section_heading) == (2, "2. Leave and Holidays")
    assert leave.text.startswith("2. Leave and Holidays")  # the heading is in its first chunk
    receipts = chunk_with(chunks, "within 30 days of the purchase")
    assert (receipts.page_number, receipts.section_heading) == (3, "3. Expenses")
    # Nothing before the first heading has a section.
    assert chunks[0].text == "Northwind Employee Handbook"
    assert (chunks[0].page_number, chunks[0].section_heading) == (1, None)


def test_chunks_never_cross_pages_or_sections(handbook_pdf: Path) -> None:
    extracted = load_document(handbook_pdf)
    boundaries = {s.char_start for s in extracted.sections}
    for page in extracted.pages:
        boundaries.update((page.char_start, page.char_end))
    for chunk in chunk_text(extracted, chunk_size=2000):
        assert not any(chunk.char_start < b < chunk.char_end for b in boundaries)


def test_markdown_section_headings(data_dir: Path) -> None:
    extracted = load_document(data_dir / "handbook.md")
    chunks = chunk_text(extracted)
    assert chunk_with(chunks, "16 weeks").section_heading == "Parental leave"
    assert chunk_with(chunks, "16 weeks").text.startswith("Parental leave\n\n")
    assert chunk_with(chunks, "25 days").section_heading == "Leave"
    assert chunk_with(chunks, "setup.sh").section_heading == "Tools"
    assert all(c.page_number is None for c in chunks)


def test_heading_only_sections_make_no_chunk() -> None:
    text = "Policy\n\nLeave\n\nTake 25 days."
    extracted = ExtractedText(
        text=text,
        sections=(SectionSpan("Policy", 1, 0), SectionSpan("Leave", 2, text.index("Leave"))),
    )
    chunks = chunk_text(extracted)
    assert [(c.text, c.section_heading) for c in chunks] == [("Leave\n\nTake 25 days.", "Leave")]


def test_sizes_respect_the_limit() -> None:
    text = long_paragraphs(count=6, sentences_each=9)
    extracted = ExtractedText(text=text)
    for size, overlap in ((300, 0), (300, 80), (800, 100), (120, 30)):
        chunks = chunk_text(extracted, chunk_size=size, chunk_overlap=overlap)
        assert_verbatim(extracted, chunks)
        assert all(len(c.text) <= size * 1.25 for c in chunks)
        assert all(len(c.text) <= size for c in chunks[:-1])
        # Every sentence is in some chunk.
        for a, b in split_sentences(text):
            assert any(c.char_start <= a and b <= c.char_end for c in chunks)


def test_paragraphs_are_packed_whole() -> None:
    text = "First paragraph here.\n\nSecond paragraph here.\n\nThird paragraph is a bit longer."
    chunks = chunk_text(ExtractedText(text=text), chunk_size=50, chunk_overlap=0)
    assert [c.text for c in chunks] == [
        "First paragraph here.\n\nSecond paragraph here.",
        "Third paragraph is a bit longer.",
    ]


def test_overlap_repeats_trailing_whole_sentences() -> None:
    text = long_paragraphs(count=1, sentences_each=20)
    extracted = ExtractedText(text=text)
    chunks = chunk_text(extracted, chunk_size=300, chunk_overlap=120)
    assert len(chunks) > 3
    sentence_starts = {a for a, _ in split_sentences(text)}
    for previous, chunk in itertools.pairwise(chunks):
        assert chunk.char_start in sentence_starts
        overlap = previous.char_end - chunk.char_start
        assert 0 < overlap <= 120
        assert chunk.text.startswith(text[chunk.char_start : previous.char_end])


def test_no_overlap_when_the_last_sentence_is_too_long() -> None:
    text = long_paragraphs(count=1, sentences_each=20)
    chunks = chunk_text(ExtractedText(text=text), chunk_size=300, chunk_overlap=30)
    for previous, chunk in itertools.pairwise(chunks):
        assert chunk.char_start >= previous.char_end


def test_long_sentence_is_split_at_word_boundaries() -> None:
    text = " ".join(f"word{i}" for i in range(200))  # one 1,289-character sentence
    chunks = chunk_text(ExtractedText(text=text), chunk_size=100, chunk_overlap=0)
    assert_verbatim(ExtractedText(text=text), chunks)
    assert all(len(c.text) <= 125 for c in chunks)
    words = set(text.split())
    assert all(set(c.text.split()) <= words for c in chunks)
    assert " ".join(c.text for c in chunks) == text


def test_tiny_tail_merges_into_previous_chunk() -> None:
    text = "A" * 10 + " " + "x" * 80 + ".\n\nShort tail."
    chunks = chunk_text(ExtractedText(text=text), chunk_size=100, chunk_overlap=0)
    assert [c.text for c in chunks] == [text]


def test_page_number_of_text_without_pages_is_none_and_pages_map_starts() -> None:
    text = "Page one text.\n\nPage two text."
    pages = (PageSpan(1, 0, 14), PageSpan(2, 16, len(text)))
    chunks = chunk_text(ExtractedText(text=text, pages=pages))
    assert [(c.text, c.page_number) for c in chunks] == [
        ("Page one text.", 1),
        ("Page two text.", 2),
    ]
    assert chunk_text(ExtractedText(text=text))[0].page_number is None


def test_deterministic(data_dir: Path) -> None:
    extracted = load_document(data_dir / "handbook.md")
    assert chunk_text(extracted, chunk_size=120) == chunk_text(
        load_document(data_dir / "handbook.md"), chunk_size=120
    )


@pytest.mark.parametrize(
    ("size", "overlap", "bad"),
    [(0, 0, "chunk_size must be > 0, but got 0"), (100, 100, "but got 100"), (100, -1, "got -1")],
)
def test_invalid_arguments(size: int, overlap: int, bad: str) -> None:
    with pytest.raises(ValueError, match=bad):
        chunk_text(ExtractedText(text="x"), chunk_size=size, chunk_overlap=overlap)
