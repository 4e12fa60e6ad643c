"""Plain-text tables (fixed-width columns under a rule, or rows between pipes) become rows."""

from __future__ import annotations

from pathlib import Path

from ragcite.ingest.chunker import chunk_text
from ragcite.ingest.loaders import load_document
from ragcite.ingest.loaders.text_tables import tables_in_text
from ragcite.text.table_rows import is_table_row


def _rows(text: str) -> list[str]:
    return [line for line in tables_in_text(text).split("\n") if is_table_row(line)]


def test_columns_come_from_the_rules_runs_of_dashes() -> None:
    text = (
        "Prices per night:\n"
        "\n"
        "  Ticket type            Adult   Concession  Junior (under 18)\n"
        "  ---------------------  ------  ----------  -----------------\n"
        "  Single entry, peak     £14.50  £12.00      £9.50\n"
        "  10-visit pass          £120    £99         £80\n"
        "\n"
        "Peak times are weekdays from 5pm.\n"
    )
    assert _rows(text) == [
        "Single entry, peak — Adult: £14.50; Concession: £12.00; Junior (under 18): £9.50",
        "10-visit pass — Adult: £120; Concession: £99; Junior (under 18): £80",
    ]
    out = tables_in_text(text)
    assert out.startswith("Prices per night:\n\nSingle entry, peak — ")
    assert out.endswith("£80\n\nPeak times are weekdays from 5pm.\n")


def test_columns_come_from_the_header_under_a_single_rule() -> None:
    text = (
        "Unit size     Approx. floor area   Weekly rate\n"
        "----------------------------------------------\n"
        "Locker        10 sq ft             £7.50\n"
        "Medium        50 sq ft             £21.00\n"
    )
    assert _rows(text) == [
        "Locker — Approx. floor area: 10 sq ft; Weekly rate: £7.50",
        "Medium — Approx. floor area: 50 sq ft; Weekly rate: £21.00",
    ]


def test_columns_laid_out_with_tabs_are_read_where_they_show() -> None:
    text = (
        "Item\t\t\tCharge\tNotes\n----\t\t\t------\t-----\n"
        "Replacement card\t£10\tOne-off\nLate fee\t\t£15\tMonthly\n"
    )
    assert _rows(text) == [
        "Replacement card — Charge: £10; Notes: One-off",
        "Late fee — Charge: £15; Notes: Monthly",
    ]


def test_a_line_indented_past_the_first_column_goes_on_from_the_row_above() -> None:
    text = (
        "Change type  Approval needed              Lead time\n"
        "-----------  ---------------------------  -------------\n"
        "Standard     Pre-approved; peer review    None\n"
        "             of the pull request only\n"
        "Normal       Change Advisory Board (CAB)  1 working day\n"
    )
    assert _rows(text)[0] == (
        "Standard — Approval needed: Pre-approved, peer review of the pull request only; "
        "Lead time: None"
    )
    indented = (
        "  Pitch type                 Low season\n"
        "  -------------------------  ----------\n"
        "  Fully serviced (electric,  GBP 34.00\n"
        "    waste, TV point)\n"
        "  Glamping pod               GBP 55.00\n"
    )
    assert _rows(indented) == [
        "Fully serviced (electric, waste, TV point) — Low season: GBP 34.00",
        "Glamping pod — Low season: GBP 55.00",
    ]


def test_a_labels_second_line_between_two_rows_goes_on_from_the_row_above() -> None:
    text = (
        "  Type of reservation                  Adult card  Children's card\n"
        "  -----------------------------------  ----------  ---------------\n"
        "  Item from another library authority  4.50 GBP    1.00 GBP\n"
        "  (inter-library loan, UK)\n"
        "  Item from the British Library        12.00 GBP   12.00 GBP\n"
        "  Prices include VAT.\n"
    )
    assert _rows(text) == [
        "Item from another library authority (inter-library loan, UK) — Adult card: 4.50 GBP; "
        "Children's card: 1.00 GBP",
        "Item from the British Library — Adult card: 12.00 GBP; Children's card: 12.00 GBP",
    ]
    # the line after the last row is a note, kept as it was
    assert tables_in_text(text).endswith("\n\n  Prices include VAT.\n")


def test_a_header_wrapped_over_two_lines_is_joined() -> None:
    text = (
        "Plan       Monthly    Claims\n"
        "level      cost       per year\n"
        "---------  ---------  --------\n"
        "Essential  £6.99      2\n"
    )
    assert _rows(text) == ["Essential — Monthly cost: £6.99; Claims per year: 2"]


def test_pipe_and_grid_tables_become_rows() -> None:
    pipes = (
        "| Plan | Users | SSO |\n|------|-------|-----|\n| Free | 1 | No |\n| Team | 25 | Yes |\n"
    )
    assert _rows(pipes) == ["Free — Users: 1; SSO: No", "Team — Users: 25; SSO: Yes"]
    grid = (
        "+----------+----------------+\n"
        "| Severity | First response |\n"
        "+==========+================+\n"
        "| Sev 1    | 15 minutes,    |\n"
        "|          | day and night  |\n"
        "+----------+----------------+\n"
        "| Sev 2    | 4 hours        |\n"
        "+----------+----------------+\n"
    )
    assert tables_in_text(grid).strip().split("\n") == [
        "Sev 1 — First response: 15 minutes, day and night",
        "Sev 2 — First response: 4 hours",
    ]


def test_box_drawn_and_restructured_text_tables_become_rows() -> None:
    box = (
        "Plans:\n"
        "┌──────────┬────────┐\n"
        "│ Plan     │ Users  │\n"
        "├──────────┼────────┤\n"
        "│ Team     │ 25     │\n"
        "│ Business │ 150    │\n"
        "└──────────┴────────┘\n"
    )
    assert tables_in_text(box).split("\n")[2:4] == ["Team — Users: 25", "Business — Users: 150"]
    rst = "Intro.\n\n=====  =====\nPlan   Users\n=====  =====\nTeam   25\nFree   1\n=====  =====\n"
    assert tables_in_text(rst) == "Intro.\n\nTeam — Users: 25\nFree — Users: 1\n"
    # a heading's underline right above a table is the heading's, not the table's
    heading = "7. Arrival\n==========\nDay      Check-in\n-------  --------\nFriday   4:00pm\n"
    assert tables_in_text(heading) == "7. Arrival\n==========\n\nFriday — Check-in: 4:00pm\n"


def test_headings_underlined_with_dashes_and_prose_are_left_as_they_are() -> None:
    text = (
        "1. PRICE LIST\n"
        "-------------\n"
        "\n"
        "All prices include VAT at the standard rate.\n"
        "Monday to Friday:          05:30 – 22:30\n"
        "Saturday:                  07:00 – 20:00\n"
        "\n"
        "RELEASE NOTES  VERSION 6.4\n"
        "==========================\n"
        "Ledger 6.4 is a feature release.\n"
    )
    assert tables_in_text(text) == text


def test_two_columns_of_prose_are_no_table() -> None:
    text = (
        "Left column of a newsletter here   Right column with another story\n"
        "---------------------------------  -------------------------------\n"
        "The committee met on Tuesday evening to discuss the budget for next year and agreed "
        "to raise fees   while the garden group planted two hundred bulbs along the path by "
        "the village green\n"
    )
    assert tables_in_text(text) == text


def test_a_text_file_loads_its_table_as_rows_that_no_chunk_cuts(tmp_path: Path) -> None:
    path = tmp_path / "fees.txt"
    path.write_text(
        "FEES\n\nItem                        Charge\n"
        "--------------------------  ----------------\n"
        "Replacement access card     £10.00\n"
        "Late payment fee            £15.00\n\nFees are payable in advance.\n",
        encoding="utf-8",
    )
    extracted = load_document(path)
    row = "Late payment fee — Charge: £15.00"
    assert row in extracted.text.split("\n")
    assert [s.heading for s in extracted.sections] == ["FEES"]
    start = extracted.text.index(row)
    chunks = chunk_text(extracted, chunk_size=800, chunk_overlap=100)
    assert any(c.char_start <= start and start + len(row) <= c.char_end for c in chunks)


def test_a_tables_only_row_is_no_heading(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(
        "Intro line.\n\nPlan   Users\n-----  -----\nTeam   25\n\nMore text.\n", encoding="utf-8"
    )
    extracted = load_document(path)
    assert "Team — Users: 25" in extracted.text
    assert extracted.sections == ()
