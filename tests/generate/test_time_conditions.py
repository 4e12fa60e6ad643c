"""The side of a time threshold that holds the asker's time answers: "If you cancel at least
14 days before …" for a course starting in three weeks, "If you cancel later than that …"
for one starting in ten days (`ragcite.generate.conditions`).

Real MiniLM embedder and the shipped sentence-choice model, over chunks built here.
"""

from __future__ import annotations

from ragcite.embed.base import Embedder
from ragcite.generate.conditions import condition_holds, days_settled
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.generate.fits import range_fit, row_fit
from ragcite.generate.focus import states_focus
from ragcite.generate.joining import Candidate
from ragcite.text.counted_words import in_digits
from ragcite.text.month_ranges import month_bound_holds
from tests.generate.chunks import passage_chunk

WORKSHOPS = passage_chunk(
    "c_course0001",
    "Our weekend workshops cost £180 and include all materials. If you cancel at least 21 "
    "days before the first session, we refund the fee minus a £25 booking charge. We do "
    "not refund cancellations made after that, but you may move your place to a later "
    "workshop once. Under-16s must come with a booked adult.",
    heading="Workshops",
    title="Riverside Glass Studio terms",
)


def _claims(embedder: Embedder, question: str) -> list[str]:
    draft = ExtractiveGenerator(embedder).generate(question, [WORKSHOPS])
    return [c.claim_text for c in draft.claims]


def test_a_condition_holds_for_a_time_on_its_side_in_any_unit() -> None:
    refund = "If you cancel at least 21 days before the first session, we refund the fee."
    assert condition_holds(refund, "the workshop starts in 4 weeks, can I get a refund?")
    assert condition_holds(refund, "it starts in ten days, do I get my money back?") is False
    late = "If your instructor is more than 15 minutes late, you get a free lesson."
    assert condition_holds(late, "my instructor turned up 20 minutes late")
    assert condition_holds(late, "they were 5 minutes late") is False


def test_no_condition_is_read_from_a_requirement_or_a_far_off_time() -> None:
    notice = "You must give at least 14 days' notice before you cancel."
    assert condition_holds(notice, "I need to cancel, it's in 10 days") is None
    payday = "Claims are paid on the 15th if they reach Finance at least 5 working days before."
    assert condition_holds(payday, "my receipts are from four months ago") is None
    assert condition_holds(payday, "can I claim for my receipts?") is None


def test_the_side_holding_the_askers_time_answers(embedder: Embedder) -> None:
    early = _claims(embedder, "booked a workshop but can't go now, it starts in 4 weeks. refund?")
    assert any("minus a £25 booking charge" in c for c in early)
    late = _claims(embedder, "booked a workshop but can't go, it starts in 9 days. refund?")
    assert any("move your place to a later workshop" in c for c in late)


def test_a_range_without_a_unit_of_time_holds_no_span_of_time() -> None:
    """ "Under-16s" is an age: a course starting in 3 weeks does not fall in it."""
    assert range_fit("Under-16s must come with a booked adult.", "it starts in 3 weeks") == 0
    assert range_fit("Under-16s must come with a booked adult.", "my son is 12") == 1
    assert range_fit("Children under 12 may not enter.", "can my 10 year old come?") == 1


SOFT_PLAY = passage_chunk(
    "c_play000002",
    "Entry is £6.50 per child and adults go free. At weekends and during school holidays, "
    "play sessions are limited to 2 hours and we recommend booking. On weekdays in term "
    "time there is no time limit.",
    heading="Soft play",
    title="Tumble Barn prices",
)


def test_the_sentence_for_the_kind_of_day_asked_answers(embedder: Embedder) -> None:
    """Saturday is a weekend: "On weekdays …" beside "At weekends …" is the other case."""
    generator = ExtractiveGenerator(embedder)
    saturday = generator.generate(
        "coming on saturday with the kids, is there a time limit?", [SOFT_PLAY]
    )
    assert "limited to 2 hours" in saturday.claims[0].claim_text
    tuesday = generator.generate(
        "coming on a tuesday in term time, is there a time limit?", [SOFT_PLAY]
    )
    assert "no time limit" in tuesday.claims[0].claim_text


def test_a_range_with_a_unit_on_both_bounds_holds_a_time_between() -> None:
    """ "between 24 hours and 2 hours before" holds "about 5 hours before"."""
    charge = "If you cancel between 24 hours and 2 hours before the start, we charge 50%."
    assert range_fit(charge, "if I cancel about 5 hours before it starts, am I charged?") == 1
    assert range_fit(charge, "if I cancel 30 hours before, am I charged?") == 0


def test_sat_and_sun_are_words_unless_capitalised() -> None:
    """ "I sat in the sun" names no day; "Open Sat 10-4" does."""
    texts = ["At weekends sessions are limited to 2 hours.", "On weekdays there is no limit."]
    window = [Candidate(0, i, 0, t, t, "c1", 0.5) for i, t in enumerate(texts)]
    assert days_settled("I sat in the sun for an hour, is there a limit?", window) == window
    settled = days_settled("coming Sat morning, is there a limit?", window)
    assert [(c.fit, c.other_case) for c in settled] == [(1, False), (0, True)]


TRAVEL = passage_chunk(
    "c_travel0001",
    "Our base is in Ludcombe. There is no travel charge for addresses within 20 miles of "
    "Ludcombe. Beyond 20 miles we add £1.00 per mile for the extra distance, counted one way. "
    "We do not travel more than 40 miles from Ludcombe.",
    heading="Travel charges",
    title="Ember and Flue prices",
)
GIVING = passage_chunk(
    "c_giving0001",
    "You can change or stop your donation at any time on PeopleHub. Changes made on or "
    "before the 10th of the month take effect in that month's payroll. Changes made after "
    "the 10th take effect from the following month.",
    heading="Payroll giving",
    title="Staff policy",
)


def test_the_sentence_whose_distance_holds_the_askers_answers(embedder: Embedder) -> None:
    """30 miles is beyond 20 and within 40; 12 miles within 20."""
    generator = ExtractiveGenerator(embedder)
    far = "I'm about 30 miles outside Ludcombe, do you charge extra to come out that far?"
    assert any("£1.00 per mile" in c.claim_text for c in generator.generate(far, [TRAVEL]).claims)
    near = "I'm 12 miles outside Ludcombe, do you charge extra to come out?"
    claims = [c.claim_text for c in generator.generate(near, [TRAVEL]).claims]
    assert any("no travel charge" in c for c in claims)
    assert not any("per mile" in c for c in claims)


SURVEYS = passage_chunk(
    "c_survey0001",
    "All work starts with a site visit by one of our arborists. Surveys are free for "
    "properties within 15 miles of our Ludlow yard. Further afield we charge a survey fee of "
    "£45.00, which we deduct from your final invoice if you accept the quote.",
    heading="Surveys and quotations",
    title="Tree surgery terms",
)


def test_further_afield_is_the_other_side_of_a_distance(embedder: Embedder) -> None:
    asked = "we're maybe 20 miles from ludlow. do i have to pay for someone to look at the trees?"
    draft = ExtractiveGenerator(embedder).generate(asked, [SURVEYS])
    assert "survey fee of £45.00" in draft.claims[0].claim_text


def test_the_sentence_whose_day_of_the_month_holds_the_askers_answers(
    embedder: Embedder,
) -> None:
    generator = ExtractiveGenerator(embedder)
    late = "changed my payroll giving amount on the 15th, when will the new amount start?"
    claims = [c.claim_text for c in generator.generate(late, [GIVING]).claims]
    assert any("from the following month" in c for c in claims)
    early = "changed my payroll giving amount on the 3rd, when will the new amount start?"
    claims = [c.claim_text for c in generator.generate(early, [GIVING]).claims]
    assert any("that month's payroll" in c for c in claims)
    assert not any("following month" in c for c in claims)


HUTS = passage_chunk(
    "c_huts000001",
    "You may give up an annual licence at any time by writing to the Beach Services Office. "
    "If you give notice before 1 July, we will refund the fee for the remaining whole months "
    "of the licence year, minus a £40.00 administration fee. From 1 July onwards, no refund "
    "is made.",
    heading="Giving up your licence",
    title="Beach hut licence terms",
)


def test_a_month_condition_holds_for_the_month_asked() -> None:
    assert month_bound_holds("From 1 July onwards, no refund is made.", 9)
    assert month_bound_holds("If you give notice before 1 July, we refund the fee.", 9) is False
    assert month_bound_holds("If you give notice before 1 July, we refund the fee.", 4)
    both = "The full £150.00 if they start before 1 August, or £75.00 on or after 1 August."
    assert month_bound_holds(both, 9) and month_bound_holds(both, 3)
    assert month_bound_holds("From 1 July onwards, no refund is made.", 7) is None
    assert month_bound_holds("Open daily.", 7) is None


def test_the_sentence_whose_month_holds_the_askers_answers(embedder: Embedder) -> None:
    generator = ExtractiveGenerator(embedder)
    late = "I want to hand back my annual hut in september, will i get any money back?"
    claims = [c.claim_text for c in generator.generate(late, [HUTS]).claims]
    assert any("no refund is made" in c for c in claims)
    assert not any("we will refund the fee" in c for c in claims)
    early = "I want to hand back my annual hut in june, will i get any money back?"
    claims = [c.claim_text for c in generator.generate(early, [HUTS]).claims]
    assert any("we will refund the fee" in c for c in claims)


LAUNDRY = passage_chunk(
    "c_laundry001",
    "We keep finished orders for 28 days from the date they were ready. On day 29 we send a "
    "reminder text to the number on the order. If the order is still not collected within a "
    "further 14 days, the items are donated to the hospice charity shop and the order is "
    "closed. We do not refund orders that have been donated.",
    heading="Uncollected items",
    title="Launderette terms",
)


def test_what_becomes_of_the_thing_answers_what_happens(embedder: Embedder) -> None:
    """ "the items are donated" is what happens after the reminder text, not the text."""
    assert states_focus("consequence", "the items are donated to the charity shop")
    assert states_focus("consequence", "we will report it to the police as missing")
    assert not states_focus("consequence", "On day 29 we send a reminder text.")
    asked = "what happens if I still dont come and get my washing after you send the reminder text"
    claims = [c.claim_text for c in ExtractiveGenerator(embedder).generate(asked, [LAUNDRY]).claims]
    assert any("the items are donated" in c for c in claims)


CASTLES = passage_chunk(
    "c_castles0001",
    "You can cancel by phone or email. The amount you get back depends on how much notice "
    "you give before the hire date:\n"
    "- More than 14 days' notice: your deposit is refunded less a £10.00 admin fee.\n"
    "- Between 14 days and 48 hours' notice: the deposit is kept but nothing else is charged.\n"
    "- Less than 48 hours' notice: the deposit is kept and you must also pay 50% of the hire "
    "charge.",
    heading="Cancellations and changes",
    title="Bouncy castle hire terms",
)


def test_a_band_of_time_holds_a_time_between_its_bounds_in_their_own_units() -> None:
    band = "Between 14 days and 48 hours' notice: the deposit is kept."
    assert condition_holds(band, "it's 10 days away, do we get our deposit back?")
    assert condition_holds(band, "it's 3 weeks away, do we get our deposit back?") is False
    assert range_fit(band, "it's 10 days away, do we get our deposit back?") == 1
    assert range_fit(band, "it's 30 hours away, do we get our deposit back?") == 0
    weeks = "Between 8 and 12 weeks before the ceremony: half of the fee is refunded."
    assert condition_holds(weeks, "we're cancelling about 10 weeks before")


def test_of_a_list_of_bands_the_one_holding_the_askers_time_answers_alone(
    embedder: Embedder,
) -> None:
    """10 days is not "More than 14 days' notice": that band is the other case, and no
    other case joins the answer."""
    asked = "booked a castle but have to cancel, it's 10 days away. do we get our deposit back?"
    claims = [c.claim_text for c in ExtractiveGenerator(embedder).generate(asked, [CASTLES]).claims]
    assert any("nothing else is charged" in c for c in claims)
    assert not any("refunded less a £10.00" in c for c in claims)


CEREMONY = passage_chunk(
    "c_ceremony001",
    "You may change the date or time of your ceremony once free of charge, as long as you ask "
    "at least 3 months before the original date. Any later change, or any second change, "
    "costs £60.00 each time, and is subject to registrars being available.",
    heading="Changing your booking",
    title="Ceremony fees and booking conditions",
)


def test_any_later_change_is_the_other_side_of_a_time_condition(embedder: Embedder) -> None:
    asked = "we need to move our wedding date and its only 5 weeks away now, will that cost more"
    draft = ExtractiveGenerator(embedder).generate(asked, [CEREMONY])
    assert "£60.00" in draft.claims[0].claim_text
    early = "we need to move our wedding date, it's 5 months away, will that cost anything"
    draft = ExtractiveGenerator(embedder).generate(early, [CEREMONY])
    assert "once free of charge" in draft.claims[0].claim_text


def test_a_row_label_states_an_open_range_of_time_in_words() -> None:
    """ "an hour and a half late" is within "Late by up to 2 hours", not "more than 2 hours";
    "3 days a week" is no length of service, and "up to 203 cm" no weight."""
    asked = "trains were cancelled and I got in about an hour and a half late. will I lose pay?"
    assert in_digits(asked).endswith("about 1.5 hour late. will I lose pay?")
    assert in_digits("half an hour late") == "0.5 hour late"
    assert range_fit("Late by up to 2 hours — Pay: Paid in full", asked) == 1
    assert range_fit("Late by more than 2 hours — Pay: Hours worked", asked) == 0
    assert range_fit("Late by more than 2 hours.", "I was 3 hours late") == 0  # a sentence
    service = "6 months to less than 2 years — Volunteering days: 2"
    assert range_fit(service, "I work 3 days a week, been here 3 years") == 0
    assert range_fit("Oversize bag (up to 203 cm) — Online: £45", "a 23 kg suitcase") == 0


def test_a_size_is_not_a_range_and_fits_the_size_asked() -> None:
    rows = [
        "9m x 12m frame — Seated guests: 80; Weekend hire: £1,890",
        "9m x 18m frame — Seated guests: 120; Weekend hire: £2,640",
    ]
    assert [row_fit(r, "how much is a 9x12 marquee?") for r in rows] == [2, 0]
    assert [row_fit(r, "how much is a 12 by 9 marquee?") for r in rows] == [2, 0]
    assert [row_fit(r, "a marquee for 100 guests?") for r in rows] == [0, 0]


WEDDING_CARS = passage_chunk(
    "c_cars000001",
    "Cancellations must be made in writing. The following applies:\n\n"
    "- More than 6 months before the wedding: you lose the booking fee only. If you have "
    "paid more than the booking fee, the rest is refunded.\n"
    "- Between 6 months and 8 weeks before the wedding: you pay 50% of the package price.\n"
    "- Less than 8 weeks before the wedding: you pay the full package price.",
    heading="If you cancel",
    title="Wedding car hire terms",
)


def test_a_list_of_bands_brings_only_the_band_holding_the_askers_time(
    embedder: Embedder,
) -> None:
    asked = "if we cancel about 4 months before the wedding how much do we lose"
    draft = ExtractiveGenerator(embedder).generate(asked, [WEDDING_CARS])
    claims = [c.claim_text for c in draft.claims]
    assert any("you pay 50% of the package price" in c for c in claims)
    assert not any("full package price" in c or "booking fee only" in c for c in claims)


SURF_CANCELLING = passage_chunk(
    "c_surf000006",
    "If you cancel more than 72 hours before the lesson, we refund everything you have paid, "
    "less an admin fee of £10.00 per booking. Between 72 and 24 hours before the lesson: we "
    "do not give a refund, but we will give you a credit note for the full amount. Less than "
    "24 hours before the lesson: no refund and no credit note.",
    heading="6. If you cancel",
    title="Polgwidden Surf School terms",
)


def test_the_day_after_tomorrow_and_a_fortnight_are_spans_of_days(embedder: Embedder) -> None:
    assert in_digits("its the day after tomorrow") == "its 2 days"
    assert in_digits("my lesson is tomorrow") == "my lesson is 1 day"
    assert in_digits("we're away for a fortnight") == "we're away for 2 weeks"
    asked = "need to cancel our surf lesson, its the day after tomorrow. do we get our money back?"
    draft = ExtractiveGenerator(embedder).generate(asked, [SURF_CANCELLING])
    assert any("credit note for the full amount" in c.claim_text for c in draft.claims)
