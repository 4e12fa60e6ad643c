"""Sentences that join the best one though ranked a little below it: the one holding the
question word every chosen sentence lacks (`rivals.closer_in_words`), the one stating the
duration, amount or date asked for, or the time of day (`joining.states_what_is_asked`)."""

from __future__ import annotations

from ragcite.generate.joining import Candidate, states_what_is_asked
from ragcite.generate.rivals import closer_in_words
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


def test_the_close_sentence_stating_the_duration_asked_for_joins() -> None:
    question = "If I ring your support line, how long is the call recording kept?"
    best = _sentence(
        0, "Customer service records: recordings of phone calls to our support line.", 0.546, 0.19
    )
    row = _sentence(
        1, "Support call recordings — Retention period: 90 days; Reason: training", 0.496, 0.37
    )
    assert states_what_is_asked(question, [best], [best, row]) is row
    assert states_what_is_asked("Who records support calls?", [best], [best, row]) is None
    far = _sentence(1, "Support call recordings — Retention period: 90 days", 0.40, 0.37)
    assert states_what_is_asked(question, [best], [best, far]) is None


def test_a_sentence_giving_the_time_asked_for_joins_from_further_down() -> None:
    """A what-time answer without a time of day is declined, so a sentence that gives one
    joins from further below the best one than a date would, when it names something the
    question names beyond the time ("night", "hot"); the library's hours are no answer to
    when its cafe closes."""
    question = "what time does the hot food come round on the night shift"
    best = _sentence(0, "Part-time, shifts under 5 hours — Daily subsidy: £1.50", 0.63, 0.56)
    night = _sentence(
        1, "Night service — Days: Sunday to Thursday nights; Times: 01:00 to 02:30", 0.57, 0.40
    )
    assert states_what_is_asked(question, [best], [best, night]) is night
    far = _sentence(1, "Night service — Times: 01:00 to 02:30", 0.45, 0.40)
    assert states_what_is_asked(question, [best], [best, far]) is None
    closed = _sentence(0, "The Library is closed on public holidays.", 0.59, 0.44)
    hours = _sentence(1, "Term time — Monday-Friday: 9.00am - 7.00pm; Sunday: Closed", 0.57, 0.32)
    asked = "What time does the library cafe close?"
    assert states_what_is_asked(asked, [closed], [closed, hours]) is None
