"""Broader words from WordNet: the kind a policy names for the thing a question names."""

from __future__ import annotations

import doctest

import pytest

import ragcite.text.hypernyms
from ragcite.text.hypernyms import broader_words


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("spaniel", "dog"),
        ("spaniels", "dog"),
        ("jacket", "garment"),
        ("lorries", "vehicle"),
        ("yacht", "vessel"),
        ("wardrobe", "furniture"),
        ("gelding", "horse"),
        ("whisky", "alcohol"),
        ("boxes", "container"),
    ],
)
def test_a_thing_has_its_kind(word: str, kind: str) -> None:
    assert kind in broader_words(word)


@pytest.mark.parametrize("word", ["discount", "wages", "compensation", "parking", "berlin"])
def test_an_act_a_possession_or_a_place_has_no_kind(word: str) -> None:
    """ "a discount" is asked about as itself, never as the "price" it reduces."""
    assert broader_words(word) == ()


def test_the_most_general_words_are_never_a_kind() -> None:
    kinds = {
        k for w in ("dog", "bike", "kettle", "sofa", "parrot", "jacket") for k in broader_words(w)
    }
    assert kinds.isdisjoint({"entity", "object", "whole", "artifact", "organism", "thing"})


@pytest.mark.parametrize("word", ["rabbit", "spaniel", "kitten", "hamster", "parrot", "tortoise"])
def test_an_animal_people_keep_is_an_animal_and_a_pet(word: str) -> None:
    """ "can I register my rabbit?" over "Registered pets …"; a shirt or a sofa is neither."""
    assert {"animal", "pet"} <= set(broader_words(word))


def test_a_thing_that_is_no_animal_is_no_pet() -> None:
    assert "pet" not in broader_words("shirt") and "pet" not in broader_words("sofa")


def test_a_word_wordnet_does_not_know_has_no_kind() -> None:
    assert broader_words("zzyzx") == () and broader_words("") == ()


def test_the_documented_examples_hold() -> None:
    assert doctest.testmod(ragcite.text.hypernyms).failed == 0
