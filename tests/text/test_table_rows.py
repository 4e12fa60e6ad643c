"""Table rows as text: the one format every loader writes, and the splitter keeping it whole."""

from __future__ import annotations

from ragcite.generate.sentence_choice import focused_row
from ragcite.text.sentences import split_sentences
from ragcite.text.table_rows import (
    format_row,
    format_table,
    is_table_row,
    single_cell_rows,
    table_row_spans,
)


def test_a_row_names_its_headers() -> None:
    row = format_row(["Plan", "Storage", "Users", "SSO"], ["Team", "100 GB", "25", "yes"])
    assert row == "Team — Storage: 100 GB; Users: 25; SSO: yes"
    assert is_table_row(row)


def test_empty_cells_are_left_out_and_separators_in_cells_are_kept_apart() -> None:
    assert format_row(["Fee", "Amount", "Notes"], ["Wire", "$15", ""]) == "Wire — Amount: $15"
    row = format_row(["Item", "Rule"], ["Laptops", "encrypt; lock — always"])
    assert row == "Laptops — Rule: encrypt, lock - always"
    assert format_row(["A", "B"], ["", ""]) == ""


def test_a_table_is_one_line_per_body_row() -> None:
    table = format_table([["Record", "Kept"], ["Invoices", "7 years"], ["Logs", "90 days"]])
    assert table.split("\n") == ["Invoices — Kept: 7 years", "Logs — Kept: 90 days"]
    assert format_table([["Only", "a header"]]) == "Only | a header"


def test_prose_with_a_dash_and_a_colon_is_not_a_row_unless_shaped_like_one() -> None:
    assert not is_table_row("The fee is due on arrival.")
    assert not is_table_row("Keep it short — no more than a page.")


def test_the_splitter_keeps_rows_whole_even_with_stops_inside() -> None:
    text = (
        "Plans differ as follows.\n"
        "Team — Storage: 1.5 TB. Extra on request; Users: 25\n"
        "Business — Storage: 5 TB; Users: 150\n"
        "Prices exclude tax."
    )
    pieces = [text[a:b] for a, b in split_sentences(text)]
    assert pieces == [
        "Plans differ as follows.",
        "Team — Storage: 1.5 TB. Extra on request; Users: 25",
        "Business — Storage: 5 TB; Users: 150",
        "Prices exclude tax.",
    ]
    assert [text[a:b] for a, b in table_row_spans(text)] == pieces[1:3]


def test_a_row_focused_on_one_column_is_one_of_its_single_cell_rows() -> None:
    """What the generator embeds for a question naming one column is a form ingest stored."""
    row = "Team — Monthly price: $49; Storage: 100 GB; Users: 25; Support: Email"
    for question in ("How many users does Team allow?", "What storage does Team get?"):
        assert focused_row(row, question) in single_cell_rows(row)
    assert single_cell_rows("Team — Users: 25") == []


def test_a_row_focused_on_its_column_keeps_the_cells_that_name_what_the_question_does() -> None:
    """ "a picker job" is in the row's roles, not its label: the roles stay beside the bonus."""
    row = (
        "Band 1 — Typical roles: Warehouse operatives, pickers and packers; Referral bonus: £250; "
        "Paid after: 12 weeks"
    )
    question = "I put a mate forward for a picker job, how much referral bonus will I get?"
    assert focused_row(row, question) == (
        "Band 1 — Typical roles: Warehouse operatives, pickers and packers; Referral bonus: £250"
    )
    assert focused_row(row, "What referral bonus would I get?") == "Band 1 — Referral bonus: £250"
