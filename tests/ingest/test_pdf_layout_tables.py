"""PDF tables read from pypdf's layout text: cells wrapped onto more lines are joined."""

from __future__ import annotations

from ragcite.ingest.loaders.pdf_tables import tables_from_layout

# A header whose cells wrap below it, and a first cell wrapped below its row (fpdf2's
# multi-line cells, top-aligned).
GREEN_FEES = """\
Members may bring up to three guests per round.

Round                             Weekday (Mon-Fri)      Weekend / Bank         Member's guest
                                                         Holiday
18 holes                          GBP 55                 GBP 70                 GBP 30
Twilight (after 3pm Apr-Sep,      GBP 35                 GBP 45                 GBP 20
after 12 noon Oct-Mar)
9 holes                           GBP 15                 GBP 18                 GBP 10

Green fees must be paid at the pro shop before teeing off.
"""

# A cell centred over three lines starts on the line above its row.
WARDS = """\
Area                      Visiting hours        Visitors     Notes
Birch Ward (Maternity)    3pm to 7pm daily      2            One partner may stay at any time
                                                             Parents and carers welcome 24
Robin Ward (Children)     10am to 7pm daily     3            hours; one parent may sleep at the
                                                             bedside
Ward 9 (Haematology)      2pm to 6pm daily      1            Visitors must wash hands
"""

# Two cells run together on one line ("…PensionMore than …"): that line is no wrap, and the
# rows under it are not a table headed by one of them.
RAN_TOGETHER = """\
Your age                  What you earn        What happens                  Company pays?
22 to State Pension age   More than £10,000    Enrolled automatically        Yes
16 to 21, or State PensionMore than £10,000    Not enrolled, but you         Yes
age to 74                                      can opt in
16 to 74                  £6,240 to £10,000    Not enrolled, but you         Yes
                                               can opt in
16 to 74                  £6,240 or less       You can ask to join           No
Under 16 or 75 and over   Any amount           Not eligible to join          No
"""


def test_wrapped_header_and_row_cells_are_joined() -> None:
    text = tables_from_layout(GREEN_FEES)
    assert text is not None
    assert (
        "18 holes — Weekday (Mon-Fri): GBP 55; Weekend / Bank Holiday: GBP 70; "
        "Member's guest: GBP 30"
    ) in text
    assert "Twilight (after 3pm Apr-Sep, after 12 noon Oct-Mar) — Weekday (Mon-Fri): GBP 35" in text
    assert text.startswith("Members may bring") and text.endswith("before teeing off.")


def test_a_cell_centred_over_three_lines_belongs_to_its_row() -> None:
    text = tables_from_layout(WARDS)
    assert text is not None
    birch = "Birch Ward (Maternity) — Visiting hours: 3pm to 7pm daily; Visitors: 2; Notes: "
    assert birch + "One partner may stay at any time\n" in text
    assert "Notes: Parents and carers welcome 24 hours, one parent may sleep at the bedside" in text


def test_rows_under_a_line_whose_cells_ran_together_head_no_table() -> None:
    text = tables_from_layout(RAN_TOGETHER) or RAN_TOGETHER
    assert "16 to 74 — £6,240 to £10,000" not in text
    assert "Under 16 or 75 and over — £6,240" not in text


def _laid_out(lines: list[tuple[str, ...]], starts: tuple[int, ...]) -> str:
    """Lines whose cells start at `starts`, as pypdf's layout mode prints a table."""
    out = []
    for cells in lines:
        line = ""
        for cell, start in zip(cells, starts, strict=False):
            line = f"{line:<{start}}{cell}" if cell else line
        out.append(line)
    return "\n".join(out) + "\n"


# Long cells wrapped over two or three lines (pypdf's layout of a Word table): each line's
# pieces are short, the joined cells are not.
LEAVING = "What happens to your option if you leave depends on the reason.\n\n" + _laid_out(
    [
        ("Reason for leaving", "What happens to your option", "Time allowed to buy shares"),
        (
            "Injury, disability, redundancy or",
            "You may buy shares using your savings up to the",
            "6 months from leaving date",
        ),
        ("retirement", "date you leave (plus any interest)"),
        ("Your employer or business is sold",),
        (
            "out of the Group (including a",
            "You may buy shares using your savings to date",
            "6 months from the transfer",
        ),
        ("TUPE transfer)",),
        (
            "Death",
            "Your personal representatives may buy shares",
            "12 months from the date of death",
        ),
        ("", "on your behalf"),
        (
            "Resignation, dismissal or any",
            "Your option lapses and your savings are returned",
            "Not applicable",
        ),
        ("other reason", "to you"),
    ],
    (0, 40, 96),
)

# Two columns of prose side by side: aligned, but every line runs full.
TWO_COLUMNS = _laid_out(
    [
        (
            "Staff who travel for work book through the portal",
            "Receipts are kept for six years and uploaded",
        ),
        (
            "and choose the cheapest fare that fits the meeting.",
            "to the expenses system within thirty days.",
        ),
        (
            "Rail is preferred for journeys under four hours, and",
            "Claims without a receipt are paid only when a",
        ),
        (
            "first class is allowed only when a manager approves",
            "line manager confirms the cost in writing and",
        ),
        (
            "it in writing before the journey is booked online.",
            "the amount is under twenty pounds in total.",
        ),
    ],
    (0, 56),
)


def test_long_cells_wrapped_over_lines_are_rows_of_a_table() -> None:
    text = tables_from_layout(LEAVING)
    assert text is not None
    assert (
        "Death — What happens to your option: Your personal representatives may buy shares on "
        "your behalf; Time allowed to buy shares: 12 months from the date of death"
    ) in text
    assert (
        "Your employer or business is sold out of the Group (including a TUPE transfer) — What "
        "happens to your option: You may buy shares using your savings to date"
    ) in text
    assert "Reason for leaving What happens" not in text


def test_two_columns_of_prose_are_no_table() -> None:
    assert tables_from_layout(TWO_COLUMNS) is None
