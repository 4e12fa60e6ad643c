"""Month ranges: a table of seasons answers by the range that holds the month asked."""

from __future__ import annotations

import pytest

from ragcite.generate.fits import candidate_fit
from ragcite.text.month_ranges import month_range_holds, months_asked, named_day_stated


def test_the_months_a_question_names() -> None:
    assert months_asked("can I take my caravan out in December?") == {12}
    assert months_asked("are you open over Christmas or in early January?") == {12, 1}
    # "may" and "march" written lower case are words, not months
    assert months_asked("may I march in with my dog?") == frozenset()
    assert months_asked("How much is it in May?") == {5}


@pytest.mark.parametrize(
    ("text", "month", "holds"),
    [
        ("1 November to 31 March — Access: 8am to 6pm", 12, True),
        ("1 November to 31 March — Access: 8am to 6pm", 7, False),
        ("1 April to 31 October — Access: 7am to 9pm", 7, True),
        ("Winter Elopement (Nov - Feb) — Mon - Thu: £1,450", 1, True),
        ("Open from April until the end of September.", 9, True),
        ("Open from April until the end of September.", 10, False),
    ],
)
def test_a_range_holds_the_months_between_its_ends(text: str, month: int, holds: bool) -> None:
    assert month_range_holds(text, frozenset({month})) is holds


def test_a_seasons_row_fits_the_month_asked() -> None:
    winter = "1 November to 31 March — Self-access hours: 8am to 6pm, every day"
    summer = "1 April to 31 October — Self-access hours: 7am to 9pm, every day"
    asked = "what time can I get onto the site to take my caravan out in December?"
    assert candidate_fit(winter, asked, is_row=True) == (1, False)
    assert candidate_fit(summer, asked, is_row=True) == (0, False)


def test_a_season_asked_is_its_months() -> None:
    """ "In the winter months" is answered by "from 1 October to 31 March"; "a spring" is no
    season."""
    winter = months_asked("what time does the park shut in the winter months?")
    assert winter == {12, 1, 2}
    hours = "From 1 April to 30 September we close at 8pm; from 1 October to 31 March at 4.30pm."
    assert month_range_holds(hours, winter)
    assert not month_range_holds("Open 1 April to 30 September only.", winter)
    assert months_asked("is the pool open in the spring?") == {3, 4, 5}
    assert months_asked("my mattress has a broken spring, can I return it?") == frozenset()


def test_a_day_called_by_name_is_its_date() -> None:
    """ "Boxing Day" is 26 December, "New Year's Eve" 31 December, in either order of day and
    month; another day is not."""
    shifts = "Shifts worked on 25 December and 26 December are paid at double time."
    assert named_day_stated(shifts, "I worked on boxing day, what's my rate?")
    assert named_day_stated("Closed on December 31st.", "Are you open on New Year’s Eve?")
    assert not named_day_stated(shifts, "I worked on New Year's Day, what's my rate?")
    assert not named_day_stated(shifts, "I worked on a Tuesday, what's my rate?")
