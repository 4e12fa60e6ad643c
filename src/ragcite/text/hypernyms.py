"""Broader words for a noun, from WordNet: a question names the thing, a policy its kind.

"Can we bring our spaniel?" is about dogs; "You lost my wool jacket" about a garment;
"before the lorry can go back into service" about a vehicle. For each one-word noun whose
commonest sense in WordNet 3.1 is a thing (an animal, an artifact, a food, a plant or a
substance), the table holds the one-word nouns up to four steps above that sense, leaving
out the most general ones ("object", "artifact", "organism"). Acts, possessions and places
have none: "a discount" is not a "price", nor "Berlin" any "city" a policy names. Built by
`scripts/build_hypernyms.py` (WordNet 3.1, Princeton University's licence:
`assets/WORDNET-LICENSE`); 0.12 MB, read on first use.

    >>> broader_words("spaniels")
    ('canid', 'canine', 'dog', 'animal', 'pet')
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib import resources


@cache
def _table() -> dict[str, tuple[str, ...]]:
    source = resources.files("ragcite.text").joinpath("assets/hypernyms.tsv.gz")
    lines = gzip.decompress(source.read_bytes()).decode("utf-8").splitlines()
    return {word: tuple(rest) for word, *rest in (line.split("\t") for line in lines)}


def _singulars(word: str) -> tuple[str, ...]:
    """`word` and the singulars it could be the plural of ("boxes": "boxe", "box")."""
    forms = [word]
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    if word.endswith("es"):
        forms.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        forms.append(word[:-1])
    return tuple(forms)


# An animal of these classes is an "animal", and a "pet" where people keep one: what a
# policy calls it ("a rabbit": "Registered pets", "any animal"). WordNet's steps from
# "rabbit" to "animal" are more than four, and "pet" is no class of its own.
_ANIMAL_CLASSES = frozenset(
    {"mammal", "bird", "reptile", "amphibian", "fish", "rodent", "canine", "feline"}
)
_ANIMAL = ("animal", "pet")


def broader_words(word: str) -> tuple[str, ...]:
    """The broader nouns of `word` (lower case, singular or plural); empty when WordNet
    does not know it as a noun. An animal of a class people keep ("rabbit": a mammal) is
    also an "animal" and a "pet"."""
    table = _table()
    for form in _singulars(word.lower()):
        if form in table:
            kinds = table[form]
            if "animal" in kinds or _ANIMAL_CLASSES.intersection(kinds):
                return kinds + tuple(k for k in _ANIMAL if k not in kinds)
            return kinds
    return ()
