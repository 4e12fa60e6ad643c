"""Questions asking a price, and sentences stating one."""

from __future__ import annotations

import pytest

from ragcite.text.prices import (
    asks_discount,
    asks_price,
    prices_the_other_case,
    states_discount,
    states_price,
)


@pytest.mark.parametrize(
    "sentence",
    [
        "The standard fee is £185 per week.",
        "Grass pitch — Low season: GBP 18.00; High season: GBP 26.00",
        "A fee of EUR 550 applies.",
        "The charge is 40 USD a month.",
        "Members get 10% off.",
        "Parking is free of charge.",
        "Shoe hire is included.",
        "We do not charge late payment fees.",  # that there is none is the price
        "There is no early repayment fee.",
        "We don't charge for a second key.",
    ],
)
def test_a_price_is_stated(sentence: str) -> None:
    assert states_price(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Premium members get 2 free guest passes each month.",
        "Claims must be made within 60 days.",
        "Room GBP-2 is on the first floor.",
        "There is no reason to pay before the visit.",
    ],
)
def test_no_price_is_stated(sentence: str) -> None:
    assert not states_price(sentence)


def test_questions_asking_a_price() -> None:
    assert asks_price("Is there a fee if I drop the car off at a different branch?")
    assert asks_price("how much a night roughly?")
    assert not asks_price("How many days of leave do I get?")
    assert asks_price("what's the pay as you go price for a single session?")
    assert not asks_price("what's the deadline for the price review?")


def test_the_next_sentence_prices_what_the_one_before_says_is_free() -> None:
    free = (
        "You may transfer to a different class or time slot free of charge during the first "
        "three weeks of term, subject to space."
    )
    after = "Transfers after week 3 carry a £15 administration fee."
    question = "is there a charge for that?"
    assert prices_the_other_case(question, free, after)
    # not a price question, nothing free before it, or about something else
    assert not prices_the_other_case("can I change class?", free, after)
    assert not prices_the_other_case(question, "Transfers need a form.", after)
    assert not prices_the_other_case(question, free, "Lockers cost £15 a year.")


@pytest.mark.parametrize(
    ("sentence", "discount"),
    [
        ("Residents aged 70 or over pay half price for all visitor hours.", True),
        ("Students with a valid student card receive 10% off labour.", True),
        ("Group discount: organisations booking five or more places save 10%.", True),
        ("Pensioners pay the concession rate.", True),
        ("Pay for a year upfront and get 13 cleans for the price of 12.", True),
        ("IBSP member - full conference (3 days) — Early Bird: £495; Standard: £595", False),
        ("Access tower 5.2m — Day: £66; Weekend: £99; Week: £132; Deposit: £250", False),
    ],
)
def test_a_discount_is_stated_by_a_reduction_not_by_a_price(sentence: str, discount: bool) -> None:
    assert states_discount(sentence) is discount


def test_a_question_naming_a_discount_asks_about_one() -> None:
    assert asks_discount("Is there a discount for retired members?")
    assert asks_discount("How much is the staff discount on fees?")
    assert not asks_discount("How much is a week's hire of the access tower?")
