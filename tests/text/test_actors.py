"""Who does what: the organisation's "we" doing the asker's act is the other case."""

from __future__ import annotations

import doctest

import pytest

import ragcite.text.actors
from ragcite.text.actors import the_other_party_acts

CANCEL = "I need to cancel my appointment this morning. Will I be charged?"


@pytest.mark.parametrize(
    ("sentence", "question", "other"),
    [
        ("If we cancel with less than 24 hours' notice, you get a free session.", CANCEL, True),
        ("Where we have to cancel your booking, we refund it in full.", CANCEL, True),
        ("If you cancel with less than 24 hours' notice, we charge 50% of the fee.", CANCEL, False),
        ("Cancellations with less than 24 hours' notice: 50% of the fee.", CANCEL, False),
        # "be charged": the asker is not the one who charges
        ("We charge a £10 admin fee for every change.", "Will I be charged for a change?", False),
        # "keep paying", "can't get used to": no act of the asker's to compare
        ("We will keep your times for 14 days.", "Do we keep paying for her visits?", False),
        ("We can remake them once.", "I can't get used to my new glasses, what can you do?", False),
        ("If we move your appointment, we will tell you.", "Can I move my appointment?", True),
        # what the organisation can do is a service to the asker, not its own act
        ("We can exchange an item for a different colour.", "Can I exchange it?", False),
        # "still" is no act: "can i still get …" and "we will still release …"
        ("We will still release the item.", "lost my ticket, can i still get my boots?", False),
        # ending a service, said another way: "stop" asked, "end" said
        (
            "We may end the service with 2 weeks' notice.",
            "How much notice do I need to give to stop my regular cleaning?",
            True,
        ),
        (
            "You may end your regular service by giving us 2 weeks' notice.",
            "How much notice do I need to give to stop my regular cleaning?",
            False,
        ),
    ],
)
def test_the_organisation_doing_the_askers_act_is_the_other_case(
    sentence: str, question: str, other: bool
) -> None:
    assert the_other_party_acts(sentence, question) is other


def test_the_documented_examples_hold() -> None:
    assert doctest.testmod(ragcite.text.actors).failed == 0
