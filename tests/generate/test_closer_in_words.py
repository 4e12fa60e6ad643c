"""`joining.closer_in_words`: the sentence nearly as relevant as the best one that holds
the question word every chosen sentence lacks."""

from __future__ import annotations

from ragcite.generate.joining import Candidate, closer_in_words
from tests.generate.chunks import passage_chunk

PASSAGE = passage_chunk("c1", "…", heading="Cancelling", title="Membership terms")


def _sentence(position: int, text: str, score: float, choice: float = 0.6) -> Candidate:
    return Candidate(0, position, position * 100, text, text, "c1", score, choice=choice)


def test_the_close_sentence_holding_the_missing_word_joins_past_a_closer_one() -> None:
    """ "Cancelling your Direct Debit …" scores higher but names nothing new; "… by phone"
    holds the word the question turns on."""
    best = _sentence(0, "If you cancel on 15 May, your membership ends on 30 June.", 0.69)
    debit = _sentence(1, "Cancelling your Direct Debit does not cancel your membership.", 0.69)
    phone = _sentence(2, "We cannot accept cancellations by phone.", 0.66)
    question = "Can I just phone up to cancel my membership?"
    assert closer_in_words(question, [best], [best, debit, phone], PASSAGE) is phone


def test_a_sentence_well_below_the_best_one_does_not_join() -> None:
    best = _sentence(0, "If you cancel on 15 May, your membership ends on 30 June.", 0.69)
    phone = _sentence(2, "We cannot accept cancellations by phone.", 0.60)
    question = "Can I just phone up to cancel my membership?"
    assert closer_in_words(question, [best], [best, phone], PASSAGE) is None
