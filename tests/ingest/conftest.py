"""Sample documents for the ingest tests: files under tests/data/ingest and generated ones."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from fpdf import FPDF

DATA = Path(__file__).resolve().parents[1] / "data" / "ingest"

# (heading, bookmark title, body paragraphs) per page of the generated handbook PDF.
PDF_PAGES = [
    (
        "1. Introduction",
        "Introduction",
        [
            "This handbook explains how Northwind Analytics works. It applies to all "
            "permanent employees in every office.",
        ],
    ),
    (
        "2. Leave and Holidays",
        "Leave and Holidays",
        [
            "Employees receive 25 days of paid annual leave per calendar year. Leave must be "
            "approved by your manager at least two weeks in advance.",
        ],
    ),
    (
        "3. Expenses",
        "Expenses",
        [
            "Receipts must be submitted within 30 days of the purchase. Claims above $500.00 "
            "need the approval of a director.",
        ],
    ),
]


@pytest.fixture
def data_dir() -> Path:
    return DATA


def _write_pdf(path: Path, *, bookmarks: bool, title: str | None) -> Path:
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    if title:
        pdf.set_title(title)
    for index, (heading, bookmark, paragraphs) in enumerate(PDF_PAGES):
        pdf.add_page()
        pdf.set_font("Helvetica", size=11)
        if index == 0:
            pdf.set_font("Helvetica", style="B", size=16)
            pdf.cell(0, 10, "Northwind Employee Handbook", new_x="LMARGIN", new_y="NEXT")
        if bookmarks:
            pdf.start_section(bookmark, level=0)
        pdf.set_font("Helvetica", style="B", size=13)
        pdf.cell(0, 8, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        for paragraph in paragraphs:
            pdf.multi_cell(0, 6, paragraph, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


@pytest.fixture
def handbook_pdf(tmp_path: Path) -> Path:
    """Three pages, numbered headings, no bookmarks, no /Title."""
    return _write_pdf(tmp_path / "handbook.pdf", bookmarks=False, title=None)


@pytest.fixture
def bookmarked_pdf(tmp_path: Path) -> Path:
    """The same pages with an outline (bookmark titles without numbers) and a /Title."""
    return _write_pdf(tmp_path / "bookmarked.pdf", bookmarks=True, title="Employee Handbook 2024")


@pytest.fixture
def blank_pdf(tmp_path: Path) -> Path:
    """A page with no text at all, like a scan without OCR."""
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 50, 50)
    path = tmp_path / "scan.pdf"
    pdf.output(str(path))
    return path


@pytest.fixture
def security_docx(tmp_path: Path) -> Path:
    """Title, Heading 1/2 paragraphs and a table, in that order."""
    document = docx.Document()
    document.add_heading("Information Security Policy", level=0)
    document.add_paragraph("This policy applies to all employees and contractors.")
    document.add_heading("1. Passwords", level=1)
    document.add_paragraph("Passwords must be at least 14 characters long.")
    document.add_heading("Password managers", level=2)
    document.add_paragraph("Use the company password manager for every work account.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "System"
    table.cell(0, 1).text = "Rotation"
    table.cell(1, 0).text = "VPN"
    table.cell(1, 1).text = "Every 90 days"
    document.add_heading("2. Devices", level=1)
    document.add_paragraph("Laptops must use full-disk encryption.")
    document.core_properties.title = ""
    path = tmp_path / "security-policy.docx"
    document.save(str(path))
    return path
