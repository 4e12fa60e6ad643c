"""Tables in every format become rows with their headers, and no chunk cuts a row."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcite.ingest.chunker import chunk_text
from ragcite.ingest.loaders import load_document
from ragcite.ingest.types import ExtractedText
from ragcite.text.table_rows import is_table_row

DEMO = Path(__file__).resolve().parents[2] / "demo"


@pytest.mark.parametrize(
    ("name", "row"),
    [
        (
            "plans-and-pricing.md",
            "Team — Monthly price: $49; Storage: 100 GB; Users: 25; Single sign-on (SSO): No; "
            "Support: Email, next business day",
        ),
        (
            "fee-schedule.html",
            "Account reactivation — Fee: $50; Notes: After suspension for non-payment",
        ),
        (
            "purchasing-approval-matrix.docx",
            "$10,001 to $50,000 — Approver: Finance Director; Quotes required: Two written quotes; "
            "Purchase order: Required",
        ),
        (
            "records-retention-schedule.pdf",
            "CCTV footage — Retention period: 31 days; Owner: Facilities",
        ),
    ],
)
def test_each_format_writes_a_row_as_one_line_with_its_header(name: str, row: str) -> None:
    extracted = load_document(DEMO / name)
    lines = extracted.text.split("\n")
    assert row in lines
    start = extracted.text.index(row)
    # The row's offsets point at it, so a page can highlight exactly the row.
    assert extracted.text[start : start + len(row)] == row
    chunks = chunk_text(extracted, chunk_size=800, chunk_overlap=100)
    holding = [c for c in chunks if c.char_start <= start and start + len(row) <= c.char_end]
    assert holding and all(c.text[start - c.char_start :].startswith(row) for c in holding)


def test_the_pdf_table_keeps_its_page_and_the_prose_around_it() -> None:
    extracted = load_document(DEMO / "records-retention-schedule.pdf")
    row = "Visitor logs — Retention period: 2 years; Owner: Facilities"
    start = extracted.text.index(row)
    page = next(p for p in extracted.pages if p.char_start <= start < p.char_end)
    assert page.page_number == 2
    assert "A legal hold suspends this schedule" in extracted.text


def test_the_chunker_cuts_a_long_table_between_rows_only() -> None:
    rows = [
        f"Region {n} — Storage: {n * 10} GB; Users: {n * 5}; Support: email and chat"
        for n in range(40)
    ]
    text = "Limits by region\n\n" + "\n".join(rows)
    extracted = ExtractedText(text=text)
    chunks = chunk_text(extracted, chunk_size=300, chunk_overlap=80)
    assert len(chunks) > 5
    for chunk in chunks[1:]:
        for line in chunk.text.split("\n"):
            assert is_table_row(line), line  # whole rows only: none cut in the middle
    covered = {line for chunk in chunks for line in chunk.text.split("\n")}
    assert set(rows) <= covered


def test_an_html_tables_caption_is_a_line_before_its_rows(tmp_path: Path) -> None:
    """A <caption> left inside the table was read as its header row, and the real header
    row as data."""
    page = tmp_path / "plans.html"
    prose = "".join(
        f"<p>Rule {i}: bikes must be parked in a marked bay and locked before the ride ends.</p>"
        for i in range(8)
    )
    page.write_text(
        f"<html><body><h1>Plans</h1>{prose}<p>Ride as you go or buy a plan.</p><table>"
        "<caption>Plans (prices from 1 March)</caption>"
        "<thead><tr><th>Plan</th><th>Price</th><th>Included riding</th></tr></thead>"
        "<tbody><tr><td>Day Pass</td><td>£6.50 per 24 hours</td><td>Rides of up to 30 minutes"
        "</td></tr><tr><td>Monthly Rider</td><td>£14.99 per month</td><td>600 minutes</td>"
        "</tr></tbody></table><p>Prices include VAT.</p></body></html>",
        encoding="utf-8",
    )
    text = load_document(page).text
    assert "Plans (prices from 1 March)" in text
    assert (
        "Day Pass — Price: £6.50 per 24 hours; Included riding: Rides of up to 30 minutes" in text
    )
    assert "Plan — Price" not in text


def test_an_html_page_without_a_declared_charset_is_read_as_utf8(tmp_path: Path) -> None:
    """Read as Latin-1 by libxml2, "£" became "Â£"."""
    page = tmp_path / "fees.html"
    body = "".join(f"<p>Item {i}: the café fee is £{i}.50 a month.</p>" for i in range(10))
    page.write_text(f"<html><body><h1>Fees</h1>{body}</body></html>", encoding="utf-8")
    text = load_document(page).text
    assert "the café fee is £3.50 a month" in text and "Â" not in text
