"""A version as a person writes it: a number ("5", "v5") or a free-text name ("2024-Q3").

A number sets the version's place in the order, as it always has. A name ("2024-Q3",
"Rev B", "2.1-draft") is kept and shown in the version label; its number is the next in
sequence when the version is stored.

    >>> parse_version("v5"), parse_version("Rev B")
    (VersionInput(number=5, name=None), VersionInput(number=None, name='Rev B'))
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ragcite.errors import InputError

MAX_VERSION_NAME = 64
_NUMBER = re.compile(r"[vV]?\s*([0-9]+)")


@dataclass(frozen=True)
class VersionInput:
    number: int | None = None
    name: str | None = None


def parse_version(text: str, *, what: str = "version") -> VersionInput:
    """The number or the name in `text`; InputError naming `what` and the text when it is
    empty, longer than MAX_VERSION_NAME characters, holds control characters, or is a
    number below 1."""
    name = text.strip()
    if not name:
        raise InputError(
            f"{what} is empty: give a number (5 or v5) or a name (e.g. 2024-Q3), or leave it out"
        )
    if len(name) > MAX_VERSION_NAME:
        raise InputError(
            f"{what} '{name[:40]}…' is {len(name)} characters long; a version name may have "
            f"at most {MAX_VERSION_NAME}"
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise InputError(
            f"{what} {name!r} holds control characters: use letters, digits, spaces and "
            "punctuation only"
        )
    number = _NUMBER.fullmatch(name)
    if number is None:
        return VersionInput(name=name)
    if int(number.group(1)) < 1:
        raise InputError(f"{what} '{name}' is not a version number: numbers start at 1")
    return VersionInput(number=int(number.group(1)))
