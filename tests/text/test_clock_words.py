"""Clock times said in words are read in digits (`ragcite.text.clock_words`)."""

from __future__ import annotations

import pytest

from ragcite.text.clock_words import clock_digits
from ragcite.text.short_forms import spell_out


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("camp finishes at half 3 but i work till 5", "camp finishes at 3:30 but i work till 5"),
        ("I finished at half eleven", "I finished at 11:30"),
        ("can't collect my dog until quarter to seven?", "can't collect my dog until 6:45?"),
        ("back at a quarter past 9pm", "back at 9:15pm"),
        ("quarter to 1", "12:45"),
        ("half past twelve", "12:30"),
        # amounts and prices are no clock times
        ("is it half 2 hours or a full day?", "is it half 2 hours or a full day?"),
        ("do kids pay half price?", "do kids pay half price?"),
        ("a quarter of the fee", "a quarter of the fee"),
    ],
)
def test_clock_times_said_in_words_are_written_in_digits(question: str, expected: str) -> None:
    assert clock_digits(question) == expected


def test_the_question_the_pipeline_reads_has_its_clock_times_in_digits() -> None:
    passages = ["A late collection fee of £20 per half hour applies after 18:00."]
    asked = "What if I can't collect my dog until quarter to seven?"
    assert spell_out(asked, passages) == "What if I can't collect my dog until 6:45?"
