from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragcite.errors import IngestError, UnsupportedFormatError
from ragcite.ingest.loaders import SUPPORTED_EXTENSIONS, load_document
from ragcite.ingest.loaders.pdf import clean_page_text
from ragcite.ingest.types import DocumentMetadata, ExtractedText


def section_of(extracted: ExtractedText, phrase: str) -> str | None:
    """The innermost section heading at the first occurrence of `phrase`."""
    offset = extracted.text.index(phrase)
    current = None
    for section in sorted(extracted.sections, key=lambda s: s.char_start):
        if section.char_start <= offset:
            current = section.heading
    return current


# Markdown ------------------------------------------------------------------------------------


def test_markdown_front_matter_becomes_metadata(data_dir: Path) -> None:
    extracted = load_document(data_dir / "handbook.md")
    assert extracted.metadata == DocumentMetadata(
        title="Staff Handbook",
        document_id=None,
        url="https://intranet.example/handbook",
        version=3,
        effective_date=date(2024, 2, 1),
        access=("staff", "hr"),
    )
    assert extracted.pages == ()


def test_markdown_text_is_plain_and_keeps_lines(data_dir: Path) -> None:
    text = load_document(data_dir / "handbook.md").text
    assert text.startswith("Northwind Staff Handbook\n\nWelcome to Northwind.")
    assert "This handbook is for all employees; see the\nintranet for the full policies." in text
    for markup in ("**", "](", "logo", "---", "```", "## ", "title:"):
        assert markup not in text
    assert "- Use the leave-request form." in text
    assert "per year.\nUnused leave" in text
    # A code block stays verbatim; its '#' line is not a heading.
    assert "# install the tools\n./setup.sh --all" in text


def test_markdown_sections_follow_the_heading_hierarchy(data_dir: Path) -> None:
    extracted = load_document(data_dir / "handbook.md")
    assert [(s.heading, s.level) for s in extracted.sections] == [
        ("Northwind Staff Handbook", 1),
        ("Leave", 2),
        ("Parental leave", 3),
        ("Tools", 2),
        ("Setext Heading", 2),
    ]
    for section in extracted.sections:
        assert extracted.text.startswith(section.heading, section.char_start)
    assert section_of(extracted, "16 weeks") == "Parental leave"
    assert section_of(extracted, "install the tools") == "Tools"
    assert section_of(extracted, "$1,200.00") == "Setext Heading"


def test_markdown_title_falls_back_to_first_level_one_heading(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("Intro line.\n\n## Minor\n\n# Main Title\n\nBody.\n", encoding="utf-8")
    assert load_document(path).metadata.title == "Main Title"


# HTML ----------------------------------------------------------------------------------------


def test_html_keeps_main_text_and_drops_boilerplate(data_dir: Path) -> None:
    extracted = load_document(data_dir / "store-page.html")
    assert extracted.metadata.title == "Shipping Policy"
    assert "Express delivery takes 1 business day and costs £9.50 per order." in extracted.text
    for boilerplate in ("Cart (0)", "Products", "All rights reserved", "Privacy"):
        assert boilerplate not in extracted.text
    assert [s.heading for s in extracted.sections] == [
        "Shipping Policy",
        "Delivery times",
        "Lost parcels",
    ]
    assert section_of(extracted, "International delivery") == "Delivery times"


def test_tiny_html_page_falls_back_to_body_text(tmp_path: Path) -> None:
    path = tmp_path / "tiny.html"
    path.write_text(
        "<html><head><title>Tiny</title><style>p{}</style></head>"
        "<body><p>Hello world.</p><script>var x = 1;</script></body></html>",
        encoding="utf-8",
    )
    extracted = load_document(path)
    assert extracted.text == "Hello world."
    assert extracted.metadata.title == "Tiny"


# Plain text ----------------------------------------------------------------------------------


def test_txt_sections_from_numbered_headings(data_dir: Path) -> None:
    extracted = load_document(data_dir / "remote-work.txt")
    assert [s.heading for s in extracted.sections] == ["1. PURPOSE", "2. ELIGIBILITY"]
    assert section_of(extracted, "90-day probation") == "2. ELIGIBILITY"
    assert extracted.metadata.title == "Remote Work"  # from the file name


def test_txt_must_be_utf8(data_dir: Path) -> None:
    with pytest.raises(IngestError) as error:
        load_document(data_dir / "latin1-notes.txt")
    assert "latin1-notes.txt" in str(error.value)
    assert "not UTF-8 text (invalid byte 0xe9 at offset 3); convert it to UTF-8" in str(error.value)


def test_txt_bom_and_crlf_are_normalised(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfFirst line.\r\nSecond line.\r\n")
    assert load_document(path).text == "First line.\nSecond line.\n"


# PDF -----------------------------------------------------------------------------------------


def test_pdf_pages_cover_each_page_text(handbook_pdf: Path) -> None:
    extracted = load_document(handbook_pdf)
    assert [p.page_number for p in extracted.pages] == [1, 2, 3]
    text = extracted.text
    for page in extracted.pages:
        assert (
            text[page.char_start : page.char_end] == text[page.char_start : page.char_end].strip()
        )
    assert "\n\n".join(text[p.char_start : p.char_end] for p in extracted.pages) == text

    def page_of(phrase: str) -> int:
        offset = text.index(phrase)
        return next(p.page_number for p in extracted.pages if p.char_start <= offset < p.char_end)

    assert page_of("This handbook explains") == 1
    assert page_of("25 days of paid annual leave") == 2
    assert page_of("within 30 days of the purchase") == 3


def test_pdf_sections_from_numbered_heading_lines(handbook_pdf: Path) -> None:
    extracted = load_document(handbook_pdf)
    assert [s.heading for s in extracted.sections] == [
        "1. Introduction",
        "2. Leave and Holidays",
        "3. Expenses",
    ]
    assert section_of(extracted, "25 days") == "2. Leave and Holidays"
    assert extracted.metadata.title == "Northwind Employee Handbook"  # the first line


def test_pdf_sections_from_bookmarks(bookmarked_pdf: Path) -> None:
    extracted = load_document(bookmarked_pdf)
    assert [(s.heading, s.level) for s in extracted.sections] == [
        ("Introduction", 1),
        ("Leave and Holidays", 1),
        ("Expenses", 1),
    ]
    # The section starts at its heading line, numbering included.
    leave = extracted.sections[1]
    assert extracted.text.startswith("2. Leave and Holidays", leave.char_start)
    assert extracted.metadata.title == "Employee Handbook 2024"  # /Title


def test_corrupt_pdf_is_an_ingest_error(data_dir: Path) -> None:
    with pytest.raises(IngestError) as error:
        load_document(data_dir / "corrupt.pdf")
    assert "corrupt.pdf" in str(error.value)
    assert "not a readable PDF" in str(error.value)


def test_pdf_without_text_asks_for_ocr(blank_pdf: Path) -> None:
    with pytest.raises(IngestError, match="no text could be extracted; is it a scanned image"):
        load_document(blank_pdf)


# DOCX ----------------------------------------------------------------------------------------


def test_docx_paragraphs_tables_and_heading_sections(security_docx: Path) -> None:
    extracted = load_document(security_docx)
    assert extracted.text == (
        "Information Security Policy\n\n"
        "This policy applies to all employees and contractors.\n\n"
        "1. Passwords\n\n"
        "Passwords must be at least 14 characters long.\n\n"
        "Password managers\n\n"
        "Use the company password manager for every work account.\n\n"
        "VPN — Rotation: Every 90 days\n\n"
        "2. Devices\n\n"
        "Laptops must use full-disk encryption."
    )
    assert [(s.heading, s.level) for s in extracted.sections] == [
        ("Information Security Policy", 1),
        ("1. Passwords", 1),
        ("Password managers", 2),
        ("2. Devices", 1),
    ]
    assert section_of(extracted, "Every 90 days") == "Password managers"
    assert extracted.metadata.title == "Information Security Policy"  # the Title paragraph


def test_docx_title_from_core_properties(security_docx: Path, tmp_path: Path) -> None:
    import docx

    document = docx.Document(str(security_docx))
    document.core_properties.title = "InfoSec Policy v3"
    path = tmp_path / "core.docx"
    document.save(str(path))
    assert load_document(path).metadata.title == "InfoSec Policy v3"


def test_corrupt_docx_is_an_ingest_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.docx"
    path.write_bytes(b"PK\x03\x04 this is not really a zip archive")
    with pytest.raises(IngestError, match=r"broken\.docx: not a readable Word document"):
        load_document(path)


# Metadata precedence -------------------------------------------------------------------------


def test_sidecar_metadata(data_dir: Path) -> None:
    extracted = load_document(data_dir / "travel_policy-v2.txt")
    assert extracted.metadata == DocumentMetadata(
        title="Travel Policy",
        document_id="travel-policy",
        url="https://intranet.example/travel",
        version=2,
        effective_date=date(2023, 5, 1),
        access=("staff",),
    )


def test_caller_beats_sidecar_beats_front_matter_beats_file(tmp_path: Path) -> None:
    path = tmp_path / "policy.md"
    path.write_text(
        "---\ntitle: Front Title\nversion: 1\nurl: https://front.example\n---\n\n"
        "# H1 Title\n\nText.\n",
        encoding="utf-8",
    )
    assert load_document(path).metadata.title == "Front Title"
    (tmp_path / "policy.md.meta.yaml").write_text("title: Sidecar Title\nversion: 2\n")
    from_sidecar = load_document(path).metadata
    assert (from_sidecar.title, from_sidecar.version, from_sidecar.url) == (
        "Sidecar Title",
        2,
        "https://front.example",
    )
    caller = load_document(path, metadata=DocumentMetadata(version=7, document_id="p-1")).metadata
    assert (caller.title, caller.version, caller.document_id) == ("Sidecar Title", 7, "p-1")


def test_front_matters_date_is_the_effective_date_unless_one_is_given(tmp_path: Path) -> None:
    path = tmp_path / "policy.md"
    cases = [
        ("date: 2026-03-01\n", date(2026, 3, 1)),
        ("date: 2026-03-01T09:30:00Z\n", date(2026, 3, 1)),
        ("date: 2026-03-01\neffective_date: 2026-04-01\n", date(2026, 4, 1)),
        ("date: Spring 2026\n", None),  # free text in a key that is not ours: left out
    ]
    for front, expected in cases:
        path.write_text(f"---\n{front}---\n\n# Policy\n\nText.\n", encoding="utf-8")
        assert load_document(path).metadata.effective_date == expected, front


def test_title_from_filename_when_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "data-retention_policy.md"
    path.write_text("Just a paragraph.\n", encoding="utf-8")
    metadata = load_document(path).metadata
    assert metadata.title == "Data Retention Policy"
    assert metadata.document_id is None


def test_malformed_sidecar_names_the_sidecar(data_dir: Path) -> None:
    with pytest.raises(IngestError) as error:
        load_document(data_dir / "bad-sidecar.txt")
    assert error.value.path.endswith("bad-sidecar.txt.meta.yaml")
    assert "metadata sidecar is not valid YAML" in str(error.value)


@pytest.mark.parametrize(
    ("name", "key"), [("bad-version.md", "'version'"), ("bad-date.md", "'effective_date'")]
)
def test_bad_metadata_values_name_the_key(data_dir: Path, name: str, key: str) -> None:
    with pytest.raises(IngestError) as error:
        load_document(data_dir / name)
    assert name in str(error.value)
    assert f"metadata key {key}" in str(error.value)


# Errors --------------------------------------------------------------------------------------


def test_empty_document(data_dir: Path) -> None:
    with pytest.raises(IngestError, match=r"empty\.md: the file is empty: no text to index"):
        load_document(data_dir / "empty.md")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match=r"nowhere\.pdf: file not found"):
        load_document(tmp_path / "nowhere.pdf")


def test_unsupported_extension_lists_supported_ones(data_dir: Path) -> None:
    with pytest.raises(UnsupportedFormatError) as error:
        load_document(data_dir / "notes.rtf")
    message = str(error.value)
    assert "notes.rtf" in message and "'.rtf'" in message
    for extension in SUPPORTED_EXTENSIONS:
        assert extension in message
    expected = {".txt", ".md", ".markdown", ".html", ".htm", ".pdf", ".docx"}
    assert expected == SUPPORTED_EXTENSIONS


def test_pdf_page_text_loses_extraction_artefacts() -> None:
    raw = (
        "Data reten-\ntion is reviewed an\u00adnually by the \ufb01nance team.\n"
        "See pages 3-\n4 and COVID-\nOmicron."
    )
    assert clean_page_text(raw) == (
        "Data retention is reviewed annually by the finance team.\n"
        "See pages 3-\n4 and COVID-\nOmicron."  # digits and capitals: not a broken word
    )
