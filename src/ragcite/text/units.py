"""Units of measure a question spells out and its passages abbreviate after a number.

"How much is a fir around 9 feet?" over a price list of "8ft to 10ft" rows: the passages
never write "feet", yet they state heights in it. `spelled_units` reads the abbreviations
a text writes after a number ("8ft", "27 kg", "500ml") and gives the words a question may
use for them, so the subject check finds the question's unit there.

    >>> sorted(spelled_units("8ft to 10ft — Fraser Fir: £52.00"))
    ['feet', 'foot']
"""

from __future__ import annotations

import re

# An abbreviation written after a number = the words for its unit, singular and plural.
_SPELLED: dict[str, tuple[str, ...]] = {
    "ft": ("feet", "foot"),
    "in": ("inch", "inches"),
    "cm": ("centimetre", "centimetres", "centimeter", "centimeters"),
    "mm": ("millimetre", "millimetres", "millimeter", "millimeters"),
    "m": ("metre", "metres", "meter", "meters"),
    "km": ("kilometre", "kilometres", "kilometer", "kilometers"),
    "kg": ("kilo", "kilos", "kilogram", "kilograms"),
    "kgs": ("kilo", "kilos", "kilogram", "kilograms"),
    "g": ("gram", "grams"),
    "lb": ("pound", "pounds"),
    "lbs": ("pound", "pounds"),
    "ml": ("millilitre", "millilitres", "milliliter", "milliliters"),
    "l": ("litre", "litres", "liter", "liters"),
    "ltr": ("litre", "litres", "liter", "liters"),
}
# A number, then an abbreviation ending the word ("8ft", "27 kg"; not "5 in the morning":
# "in" counts only glued to its number or followed by a quote mark or full stop).
_ABBREVIATED = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?(?:\s?(ft|cm|mm|km|kgs?|lbs?|ml|ltr|m|g|l)|(in))(?![\w'’])",
    re.IGNORECASE,
)


def spelled_units(text: str) -> set[str]:
    """The words for the units `text` abbreviates after a number ("8ft": feet and foot)."""
    found = {(a or b).lower() for a, b in _ABBREVIATED.findall(text)}
    return {word for abbreviation in found for word in _SPELLED[abbreviation]}
