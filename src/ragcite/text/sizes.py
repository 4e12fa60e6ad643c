"""Sizes of two dimensions: "9m x 12m", "12 x 24", "15 x 15 ft", "3.5m×2m", "12 by 9".

A marquee, shed or pitch row labelled "9m x 18m" is a size, not a range from 9 to 18: it
fits a question that names the same size in any of these forms, in either order.

    >>> sizes("9m x 12m frame") == sizes("how much is a 12 by 9 marquee?")
    True
"""

from __future__ import annotations

import re

_SIZE = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:m|ft|cm|mm|metres?|meters?|feet|foot|')?\s*(?:[x×]|by)\s*"
    r"(\d+(?:\.\d+)?)(?![\d.])",
    re.IGNORECASE,
)


def sizes(text: str) -> set[frozenset[float]]:
    """The two-dimension sizes `text` states, each as its pair of numbers in either order."""
    return {frozenset((float(a), float(b))) for a, b in _SIZE.findall(text)}
