"""Dot-leader price lists in plain text and PDF become rows under their heading."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from ragcite.ingest.loaders import load_document
from ragcite.ingest.loaders.leader_rows import leader_rows
from ragcite.text.table_rows import is_table_row

PRICES = (
    "All prices include VAT at 20%.\n\n"
    "  Outdoor storage - monthly (minimum 3 months)\n"
    "    Any caravan or trailer tent ....................... GBP 55 per month\n"
    "    Any motorhome or campervan ........................ GBP 70 per month\n\n"
    "  Extras\n"
    "    Replacement or additional key fob ................. GBP 25\n"
    "    Pitch swap at customer's request .................. GBP 15\n"
    "Payment is due in advance.\n"
)


def test_leader_lines_under_a_heading_become_rows_with_it() -> None:
    rows = [line for line in leader_rows(PRICES).split("\n") if is_table_row(line)]
    assert rows == [
        "Any caravan or trailer tent — Outdoor storage - monthly (minimum 3 months): "
        "GBP 55 per month",
        "Any motorhome or campervan — Outdoor storage - monthly (minimum 3 months): "
        "GBP 70 per month",
        "Replacement or additional key fob — Extras: GBP 25",
        "Pitch swap at customer's request — Extras: GBP 15",
    ]
    assert "Payment is due in advance." in leader_rows(PRICES).split("\n")


def test_a_lone_leader_line_a_sentence_above_or_an_ellipsis_stays_as_it_is() -> None:
    lone = "Extras\n  Key fob ........ GBP 25\nPayment is due in advance.\n"
    assert leader_rows(lone) == lone
    after_sentence = "We charge for these.\n  Key fob ........ GBP 25\n  Swap ..... GBP 15\n"
    assert leader_rows(after_sentence) == after_sentence
    ellipsis = "Extras\nWait... then pay.\nAnd... then go.\n"
    assert leader_rows(ellipsis) == ellipsis


def test_a_text_file_loads_its_price_list_as_rows(tmp_path: Path) -> None:
    path = tmp_path / "prices.txt"
    path.write_text(PRICES, encoding="utf-8")
    text = load_document(path).text
    assert "Replacement or additional key fob — Extras: GBP 25" in text.split("\n")


def test_a_pdf_loads_its_price_list_as_rows(tmp_path: Path) -> None:
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for line in PRICES.split("\n"):
        pdf.cell(0, 6, line.strip(), new_x="LMARGIN", new_y="NEXT")
    path = tmp_path / "prices.pdf"
    pdf.output(str(path))
    text = load_document(path).text
    assert "Replacement or additional key fob — Extras: GBP 25" in text.split("\n")
