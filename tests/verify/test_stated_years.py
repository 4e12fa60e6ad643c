"""Years, decades and centuries a question sets, against those a passage states."""

from __future__ import annotations

from ragcite.verify.stated_years import asked_times, stated_times, year_unmatched

PAPER = (
    'The beginning of systematic studies is attributed to the seminal paper "On the '
    'Computational Complexity of Algorithms" by Juris Hartmanis and Richard Stearns (1965).'
)


def test_years_decades_and_centuries_are_read_with_the_years_they_cover() -> None:
    found = {
        t.text: (t.first, t.last) for t in stated_times("in 1965, the 1970s, the 12th century")
    }
    assert found == {"1965": (1965, 1965), "1970s": (1970, 1979), "12th century": (1101, 1200)}
    assert [t.text for t in stated_times("the eleventh century")] == ["eleventh century"]


def test_amounts_codes_and_longer_numbers_are_not_years() -> None:
    assert stated_times("a fee of £2,000, code 1999/2000, 1500.50 litres, 12000 people") == []


def test_only_a_time_after_a_preposition_is_a_condition_of_the_question() -> None:
    assert [t.text for t in asked_times("What paper did Karp write in 1974?")] == ["1974"]
    assert [t.text for t in asked_times("What law was developed between 1000 and 1300?")] == [
        "1000",
        "1300",
    ]
    assert asked_times("Which 1999 French Open runner-up was born in Russia?") == []


def test_a_year_the_passage_never_states_conflicts_with_another_quoted_year() -> None:
    question = "What seminal paper was written by Hartmanis and Stearns in 1975?"
    assert year_unmatched(question, PAPER, PAPER) == ("1975", "1965")
    assert year_unmatched(question.replace("1975", "1965"), PAPER, PAPER) is None


def test_a_year_the_passage_covers_elsewhere_or_a_quote_without_years_does_not_conflict() -> None:
    passage = PAPER + " Its ideas spread in 1975 to other fields."
    question = "What seminal paper was written by Hartmanis and Stearns in 1975?"
    assert year_unmatched(question, passage, PAPER) is None
    undated = "The paper laid out the definitions of time and space complexity."
    assert year_unmatched(question, undated, undated) is None


def test_a_decade_or_century_covers_the_years_inside_it() -> None:
    said = "In 1972, Richard Karp published his landmark paper."
    assert year_unmatched("What did Karp publish in the 1970s?", said, said) is None
    assert year_unmatched("What did Karp publish in the 20th century?", said, said) is None
    assert year_unmatched("What did Karp publish in the 1960s?", said, said) == ("1960s", "1972")


def test_a_time_inside_a_longer_phrase_describes_a_name_and_sets_no_condition() -> None:
    question = "Which team relegated in the 1962–63 Segunda División season was founded in 1958?"
    assert [t.text for t in asked_times(question)] == ["1958"]
    described = "Who was sold to Chelsea during the 2004–05 Marseille season?"
    assert asked_times(described) == []
