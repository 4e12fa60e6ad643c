from __future__ import annotations

import pytest

from ragcite.text.units import spelled_units


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("8ft to 10ft — Fraser Fir: £52.00", {"feet", "foot"}),
        ("a case of up to 27 kg", {"kilo", "kilos", "kilogram", "kilograms"}),
        ("Handmade fresh wreath, 14in: £30.00", {"inch", "inches"}),
        ("within 250 m of the site", {"metre", "metres", "meter", "meters"}),
        ("500ml bottles only", {"millilitre", "millilitres", "milliliter", "milliliters"}),
    ],
)
def test_an_abbreviation_after_a_number_gives_its_units_words(text: str, words: set[str]) -> None:
    assert spelled_units(text) == words


@pytest.mark.parametrize(
    "text",
    [
        "Drop-off is open from 5 in the morning.",  # "in" apart from its number: a word
        "ft and kg mean nothing here without a number",
        "Call 0808 1234 ext 5",
        "15 mins",
    ],
)
def test_no_unit_without_a_number_abbreviated_before_it(text: str) -> None:
    assert spelled_units(text) == set()
