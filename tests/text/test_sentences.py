from __future__ import annotations

import pytest

from ragcite.text.sentences import split_sentences


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Dr. Lee approved it, e.g. for travel. The fee is $1,200.00 per year.",
            ["Dr. Lee approved it, e.g. for travel.", "The fee is $1,200.00 per year."],
        ),
        (
            "The U.S. office of Acme Inc. is closed. See No. 5 for details. No. We do not.",
            [
                "The U.S. office of Acme Inc. is closed.",
                "See No. 5 for details.",
                "No.",
                "We do not.",
            ],
        ),
        (
            "Rates rose 3.5 percent, i.e. more than planned. Mr. Smith agreed.",
            ["Rates rose 3.5 percent, i.e. more than planned.", "Mr. Smith agreed."],
        ),
        (
            'He said "Stop." Then he left. (It was late.) Was it? Yes!',
            ['He said "Stop."', "Then he left.", "(It was late.)", "Was it?", "Yes!"],
        ),
        ("The limit is 30. Employees must wait.", ["The limit is 30.", "Employees must wait."]),
    ],
)
def test_abbreviations_decimals_amounts_and_quotes(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_a_list_bullet_opening_a_line_is_not_part_of_the_sentence() -> None:
    text = (
        "Warranty\n\n- All devices have a 2-year warranty.\n"
        "  * Water damage is not covered.\n• Keep the receipt."
    )
    spans = split_sentences(text)
    assert [text[a:b] for a, b in spans] == [
        "Warranty",
        "All devices have a 2-year warranty.",
        "Water damage is not covered.",
        "Keep the receipt.",
    ]


def test_a_dash_inside_a_line_or_before_a_number_stays() -> None:
    assert sentences("The range is 5 - 7 days. - Not a list item.") == [
        "The range is 5 - 7 days.",
        "- Not a list item.",
    ]
    assert sentences("-5 degrees is cold.") == ["-5 degrees is cold."]


def test_bullets_and_blank_lines_always_end_a_sentence() -> None:
    text = (
        "Bring the following:\n- a laptop\n- your badge\n1. Sign in\n2. Collect keys\n\n"
        "No period here\n\nNext."
    )
    assert sentences(text) == [
        "Bring the following:",
        "a laptop",
        "your badge",
        "1. Sign in",
        "2. Collect keys",
        "No period here",
        "Next.",
    ]


def test_heading_lines_stand_alone_but_wrapped_lines_do_not() -> None:
    text = (
        "3. Leave and Holidays\n3.2 Parental leave\nEmployees may take 16 weeks. The employee "
        "must submit the\nForm A today."
    )
    assert sentences(text) == [
        "3. Leave and Holidays",
        "3.2 Parental leave",
        "Employees may take 16 weeks.",
        "The employee must submit the\nForm A today.",
    ]


def test_offsets_point_into_the_text_within_start_and_end() -> None:
    text = "Skip this. Keep one. Keep two. Skip too."
    start = text.index("Keep")
    end = text.index(" Skip too")
    spans = split_sentences(text, start, end)
    assert [text[a:b] for a, b in spans] == ["Keep one.", "Keep two."]
    assert all(start <= a < b <= end for a, b in spans)


def test_whitespace_and_empty_input() -> None:
    assert split_sentences("") == []
    assert split_sentences("   \n\n ") == []
    assert sentences("  One sentence without a stop  ") == ["One sentence without a stop"]


def test_a_wrapped_line_that_opens_on_an_amount_is_no_heading_below_it() -> None:
    """A PDF wraps "… we refund\\n50%." mid-sentence: the line before is no heading, though
    short, unpunctuated and followed by a digit; a clause number after a heading still is."""
    text = "Between 72 and 24 hours before, we refund\n50%. No-shows are not refunded."
    assert sentences(text) == [
        "Between 72 and 24 hours before, we refund\n50%.",
        "No-shows are not refunded.",
    ]
    assert sentences("Fees and charges\n1. Booking fee: 5 pounds.") == [
        "Fees and charges",
        "1. Booking fee: 5 pounds.",
    ]


def test_a_sentence_begun_mid_line_and_wrapped_is_no_heading() -> None:
    """A PDF line "… 1 April. Berth holders who pay by 28" wraps onto "February receive …":
    the short unpunctuated part after the first sentence is the start of the next one, not a
    heading, since a heading opens its line."""
    text = (
        "Annual fees are due by 1 April. Berth holders who pay in full by 28\n"
        "February receive a discount of 5%.\nFees\nThe fee is 5 pounds."
    )
    assert sentences(text) == [
        "Annual fees are due by 1 April.",
        "Berth holders who pay in full by 28\nFebruary receive a discount of 5%.",
        "Fees",
        "The fee is 5 pounds.",
    ]


def test_dot_leaders_keep_a_price_line_whole() -> None:
    text = (
        "Extras\n"
        "    Replacement or additional key fob ................. GBP 25\n"
        "    Pitch swap at customer's request .................. GBP 15\n"
        "Wait... Then the fee is due."
    )
    assert [text[a:b] for a, b in split_sentences(text)] == [
        "Extras",
        "Replacement or additional key fob ................. GBP 25",
        "Pitch swap at customer's request .................. GBP 15",
        "Wait...",
        "Then the fee is due.",
    ]
