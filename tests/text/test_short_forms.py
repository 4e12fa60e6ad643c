"""Shortened words and everyday verbs a question uses, read in its passages' words."""

from __future__ import annotations

import pytest

from ragcite.text.plain_verbs import formal_verbs
from ragcite.text.plain_words import formal_words
from ragcite.text.short_forms import expand_short_forms, spell_out

PROCEDURE = [
    "Production access is granted after the security awareness course.",
    "Severity 2: a single system degraded. The incident manager responds within 4 hours.",
    "If you do not return to work for at least 3 months, the company may reclaim pay.",
    "Only the communications team may speak to the press.",
    "If nobody checks in within 10 minutes, the booking is released.",
    "Limits can be raised temporarily for up to 30 days.",
    "Breaches are reported to the IT security team.",
    "We do not offer direct exchanges.",
    "Nobody who reports a concern in good faith will be dismissed.",
    "Lost property is kept at reception for 28 days.",
    "Members can freeze their membership for up to 2 months.",
    "The annual subscription is due on 1 April.",
    "We respond to every request within 5 working days.",
    "You may be accompanied by a colleague or a trade union representative.",
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How do I get prod access?", "How do I get production access?"),
        ("How fast is a Sev 2 handled?", "How fast is a severity 2 handled?"),
        ("Can I bring my union rep?", "Can I bring my union representative?"),
        ("Whats the yearly sub?", "Whats the yearly subscription?"),
        ("What is the max fee?", "What is the max fee?"),  # the passages never say "maximum"
    ],
)
def test_a_shortened_word_is_read_as_the_passages_full_form(question: str, expected: str) -> None:
    assert expand_short_forms(question, PROCEDURE) == expected


def test_a_shortened_word_the_passages_use_is_kept() -> None:
    assert expand_short_forms("Who approves prod access?", ["Prod access needs approval."]) == (
        "Who approves prod access?"
    )


def test_a_word_in_capitals_is_an_acronym_not_a_shortening() -> None:
    assert expand_short_forms("Is DOC needed?", ["Each document is signed."]) == "Is DOC needed?"


def test_plurals_of_a_shortened_word_keep_their_number() -> None:
    assert expand_short_forms("Where are the docs?", ["All documents are in the portal."]) == (
        "Where are the documents?"
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What if I don't come back after leave?", "What if I don't return after leave?"),
        ("What if I came back early?", "What if I returned early?"),
        ("Can I talk to a reporter?", "Can I speak to a reporter?"),
        ("What if I don't show up?", "What if I don't check in?"),
        ("Can my limit be increased?", "Can my limit be raised?"),
        ("What happens if I break the IT policy?", "What happens if I breach the IT policy?"),
        ("Can I swap my jacket?", "Can I exchange my jacket?"),
        ("Can I get fired for reporting?", "Can I get dismissed for reporting?"),
        ("How long will you hang on to it?", "How long will you keep it?"),
        ("Can I pause my membership?", "Can I freeze my membership?"),
        ("When will you get back to me?", "When will you respond to me?"),
    ],
)
def test_an_everyday_verb_is_read_as_the_passages_formal_verb(question: str, expected: str) -> None:
    assert formal_verbs(question, PROCEDURE) == expected


def test_a_verb_spelled_alike_in_base_and_past_takes_the_past_after_has() -> None:
    """ "reception has shut" is "reception has closed", "when does it shut?" "close"."""
    rules = ["Late arrivals after reception closes: phone ahead."]
    assert formal_verbs("What if reception has shut?", rules) == "What if reception has closed?"
    assert formal_verbs("When does reception shut?", rules) == "When does reception close?"


def test_pick_is_choose_but_a_pick_up_is_no_verb() -> None:
    rules = ["You can choose a payment date of 1st, 8th, 15th or 22nd of the month."]
    asked = "Which dates can I pick for my Direct Debit?"
    assert formal_verbs(asked, rules) == "Which dates can I choose for my Direct Debit?"
    late = "I'll be 20 minutes late for pick-up, what will that cost?"
    assert formal_verbs(late, rules) == late


def test_veg_is_read_as_the_passages_vegetables() -> None:
    rules = ["Plots are for growing fruit, vegetables and flowers."]
    assert expand_short_forms("Can I grow veg?", rules) == "Can I grow vegetables?"


def test_respond_is_read_as_acknowledge_where_an_escalation_table_writes_it() -> None:
    table = ["SEV3 — Definition: Minor feature degraded; Acknowledge within: 4 business hours"]
    assert formal_verbs("How fast do I need to respond to a SEV3?", table) == (
        "How fast do I need to acknowledge a SEV3?"
    )
    assert formal_verbs("How fast do you respond?", PROCEDURE) == "How fast do you respond?"


def test_an_everyday_verb_the_passages_use_or_do_not_replace_is_kept() -> None:
    assert formal_verbs("Can I talk to a reporter?", ["Never talk to the press."]) == (
        "Can I talk to a reporter?"
    )
    assert formal_verbs("How do I set up MFA?", PROCEDURE) == "How do I set up MFA?"


def test_spell_out_reads_acronyms_shortenings_and_verbs_together() -> None:
    passages = [*PROCEDURE, "A Purchase Order is issued within three days."]
    assert spell_out("Can I come back to prod after a PO?", passages) == (
        "Can I return to production after a Purchase Order?"
    )


def test_everyday_shortenings_of_care_and_leave_are_read_in_full() -> None:
    vets = ["Annual cat booster vaccination: £55.", "Maternity leave is up to 52 weeks."]
    assert expand_short_forms("How much is my cat's booster jab?", vets) == (
        "How much is my cat's booster vaccination?"
    )
    assert expand_short_forms("Am I paid on mat leave?", vets) == "Am I paid on maternity leave?"
    assert expand_short_forms("Is the mat washable?", ["Each mat is washable."]) == (
        "Is the mat washable?"
    )


@pytest.mark.parametrize(
    ("question", "passage", "expected"),
    [
        ("How much deposit per head?", "£20 per person", "How much deposit per person?"),
        ("Do I wear my hi-vis?", "A high-visibility vest", "Do I wear my high-visibility?"),
        ("Can my mates come?", "Guests sign in.", "Can my guests come?"),
        ("Do you pay for petrol?", "Mileage: 45p per mile", "Do you pay for mileage?"),
        (
            "What's the fine?",
            "We charge a penalty of £20; the penalty doubles.",
            "What's the penalty?",
        ),
        # "fine" is a noun only after "the" or "a"; a word the passage uses stays
        ("I'm fine, do I report it?", "The penalty doubles.", "I'm fine, do I report it?"),
        ("Can my mate come?", "A mate may come; guests sign in.", "Can my mate come?"),
        ("Is a normal check-up free?", "Routine care is covered.", "Is a routine check-up free?"),
        ("What's the yearly fee?", "Annual management charge: 0.45%", "What's the annual fee?"),
        ("Is there a penalty?", "An early termination charge applies.", "Is there a charge?"),
        (
            "What's on the free tier?",
            "The Free plan includes 1,000 requests.",
            "What's on the free plan?",
        ),
        (
            "Can I object to next door's extension?",
            "Your neighbour is told of every application.",
            "Can I object to neighbour's extension?",
        ),
        (
            "Is it ready at the chemist?",
            "Collect it from the pharmacy.",
            "Is it ready at the pharmacy?",
        ),
        (
            "Can I pause my gym membership?",
            "The fitness suite opens at 7am.",
            "Can I pause my fitness suite membership?",
        ),
        (
            "How much is the 10 day bundle?",
            "10-day pack — Price: £295",
            "How much is the 10 day pack?",
        ),
        ("Do I bring my tablets?", "Bring all medicines you take.", "Do I bring my medicines?"),
        (
            "How much do I have to pay upfront to hold a place?",
            "A non-refundable deposit of 30% of the total fee is required to secure your booking.",
            "How much do I have to deposit to hold a place?",
        ),
        (
            "Can I get my money back?",
            "You have 14 days to cancel for a full refund.",
            "Can I get my refund?",
        ),
        (
            "Do I need a sick note?",
            "After seven days' absence you must send us a fit note from your GP.",
            "Do I need a fit note?",
        ),
        (
            "Can I bring the buggy on board?",
            "Infants may bring one pushchair and one car seat free of charge.",
            "Can I bring the pushchair on board?",
        ),
        (
            "Do I need to provide my own hoover?",
            "For regular cleans, you provide the vacuum cleaner, mop and bucket.",
            "Do I need to provide my own vacuum cleaner?",
        ),
        (
            "A passenger gave me a tenner, can I take it?",
            "You may accept a small gift, but you must not accept cash.",
            "A passenger gave me a cash, can I take it?",
        ),
        (
            "What if I bring the car back nearly empty?",
            "Return the car with a quarter of a tank, or we charge a GBP 15 low fuel fee.",
            "What if I bring the car back low?",
        ),
        (
            "Can my essay deadline be extended?",
            "Your coordinator can approve a coursework extension of up to 14 days.",
            "Can my coursework deadline be extended?",
        ),
        (
            "Can I take it to an ombudsman?",
            "After 8 weeks you can refer it to CISAS, our alternative dispute resolution scheme.",
            "Can I take it to an alternative dispute resolution?",
        ),
        (
            "can I bring a client in for a meeting?",
            "Members may bring up to 2 guests at a time. Every guest must sign in at reception.",
            "can I bring a guest in for a meeting?",
        ),
        (
            "I'm 8 months into a 12-month contract, can I get out of it?",
            "You may end your agreement early if you move more than 25 miles away.",
            "I'm 8 months into a 12-month agreement, can I get out of it?",
        ),
        (
            "where do we meet if the fire alarm goes off?",
            "In the event of fire, leave by the nearest exit. The assembly point is Car Park B.",
            "where do we meet if the fire goes off?",
        ),
        (
            "how long will you hang on to my fired pots?",
            "Fired pieces stay on the collection racks for 4 weeks.",
            "how long will you hang on to my fired pieces?",
        ),
        (
            "How long will you keep my dry cleaning if I don't collect it?",
            "Please collect your items within 90 days. We charge for cleaning by the item.",
            "How long will you keep my cleaning if I don't collect it?",
        ),
        (
            "Can I bring my labrador when I'm fishing the lake?",
            "Dogs are not allowed at Kingfisher Lake or Brook Pool.",
            "Can I bring my dogs when I'm fishing the lake?",
        ),
        (
            "How many times can the same friend come in as my guest?",
            "The same person can visit as a guest no more than 3 times in a calendar year.",
            "How many times can the same guest come in as my guest?",
        ),
        (
            "my kid woke up with a temperature, what do I need to do?",
            "Illness: if your child is unwell, tell us by 9am on the day of the lesson.",
            "my child woke up with unwell, what do I need to do?",
        ),
        (
            "will you give calpol if my little one gets a temperature?",
            "I do not give non-prescription medicines, except liquid paracetamol.",
            "will you give paracetamol if my little one gets a temperature?",
        ),
        (
            "is there a setup fee? there are 14 of us",
            "A one-off onboarding fee covers the audit of your systems.",
            "is there a onboarding fee? there are 14 of us",
        ),
        (
            "do I get my entry fee back?",
            "The registration fee is not refunded if the event is cancelled.",
            "do I get my registration fee back?",
        ),
        (
            "is there a joining fee on top?",
            "New members pay a joining fee of £50 in addition to the subscription.",
            "is there a joining fee in addition?",
        ),
        (
            "I pay by direct debit, do I get any money off?",
            "Customers paying this way receive a discount of £15.00 a year.",
            "I pay by direct debit, do I get any discount?",
        ),
        (
            "Can I pay it off in chunks?",
            "You can spread the cost over three instalments by Direct Debit.",
            "Can I pay it off instalments?",
        ),
        (
            "how much do you charge to sweep a log burner?",
            "Wood burner or multi-fuel stove sweep — Price: £85.00",
            "how much do you charge to sweep a wood burner?",
        ),
        (
            "can my brother have my place instead?",
            "If you cannot take part, you may transfer your place to someone else.",
            "can my brother transfer your place instead?",
        ),
        (
            "missed my pickup because I ended up in A&E, will that go down as a no show?",
            "A no-show is not counted if you were taken ill or admitted to hospital.",
            "missed my pickup because I ended up in hospital, will that go down as a no show?",
        ),
    ],
)
def test_everyday_words_are_read_in_the_passages_words(
    question: str, passage: str, expected: str
) -> None:
    assert formal_words(question, [passage]) == expected
    assert spell_out(question, [passage]) == expected


def test_a_phrasal_verb_split_by_its_object_is_read_joined() -> None:
    """ "bring it back" is "return it" where the passage writes "returned"; nothing changes
    where the passage has no formal verb for it."""
    recall = ["A recalled item must be returned within 7 days."]
    assert formal_verbs("How long have I got to bring it back?", recall) == (
        "How long have I got to return it?"
    )
    assert formal_verbs("Can I bring it back?", ["Opening hours"]) == "Can I bring it back?"
    assert formal_verbs("Can I fill it in online?", ["Complete the form online."]) == (
        "Can I complete it online?"
    )


def test_the_most_relevant_passage_decides_an_everyday_words_reading() -> None:
    """An airline's "normal allowance" further down does not keep "normal" from reading as
    the dental leaflet's "routine"; the passage that uses "normal" itself keeps it."""
    passages = ["Our Care Plan spreads the cost of routine care.", "Your normal allowance."]
    asked = "How much is a normal check-up?"
    assert formal_words(asked, passages) == "How much is a routine check-up?"
    assert formal_words(asked, passages[::-1]) == asked


def test_reply_is_read_as_the_passages_respond() -> None:
    assert formal_verbs("How long have we got to reply?", ["We must respond within a month."]) == (
        "How long have we got to respond?"
    )


def test_a_payment_that_bounces_fails_and_a_broken_thing_is_damaged() -> None:
    terms = ["If a payment fails, we will re-present it after 7 days."]
    assert formal_verbs("What if my payment bounces?", terms) == "What if my payment fails?"
    rules = ["If a team causes damage to props, the lead booker is charged the repair."]
    assert (
        formal_verbs("What if someone breaks a prop?", rules) == "What if someone damages a prop?"
    )


def test_everyday_phrasal_verbs_are_read_as_the_passages_verbs() -> None:
    """ "Cut me off", "pop out", "hang on to", "kick in": the passages write "suspend",
    "leave", "keep", "take effect"."""
    billing = ["While we investigate the disputed amount we will not suspend your service."]
    assert formal_verbs("will you cut me off?", billing) == "will you suspend me?"
    night = ["If you leave the building during a sleep-in, the payment is not made."]
    assert formal_verbs("what if I pop out to the shop?", night) == "what if I leave to the shop?"
    kept = ["Fired work is kept on the racks for 4 weeks."]
    assert formal_verbs("how long will you hang on to my pots?", kept) == (
        "how long will you keep my pots?"
    )
    change = ["A lower band takes effect at your next renewal."]
    assert (
        formal_verbs("when does the change kick in?", change) == "when does the change take effect?"
    )


def test_giving_something_up_is_the_passages_resigning_or_ending() -> None:
    """ "Give up my membership" is "resign" where the club's rules say so, "give up our berth"
    "end" where the marina's terms say "You may end an annual agreement"."""
    club = ["If you wish to resign, you must give written notice by 31 January."]
    assert formal_verbs("can I give up my membership?", club) == "can I resign my membership?"
    marina = ["You may end an annual agreement at any time by giving 30 days' written notice."]
    assert formal_verbs("we want to give up our berth", marina) == "we want to end our berth"


def test_going_bust_is_read_as_the_passages_closing() -> None:
    passage = "If the Club ever had to close, every member's balance would be returned."
    asked = "is my money safe if the club goes bust?"
    assert formal_verbs(asked, [passage]) == "is my money safe if the club closes?"


def test_getting_rid_of_something_is_the_passages_disposing_of_or_selling_it() -> None:
    held = ["After 60 days we may sell or donate the item to recover our costs."]
    asked = "left a coat with you months ago, have you got rid of it?"
    assert formal_verbs(asked, held) == "left a coat with you months ago, have you sold it?"
    disposed = ["Unclaimed items are disposed of after 28 days."]
    assert formal_verbs("will you get rid of my bike?", disposed) == (
        "will you dispose of my bike?"
    )


def test_minutes_hours_and_the_promenade_are_read_in_full() -> None:
    """ "20 mins late" is "minutes" where the terms say so, "2 hrs" "hours"; "prom" is the
    promenade where a beach's terms write that, and stays "prom" where a dress shop writes
    "prom dress"."""
    late = ["If you are more than 15 minutes late, your game is shortened."]
    assert spell_out("what if we're 20 mins late?", late) == "what if we're 20 minutes late?"
    hours = ["Sessions last 2 hours."]
    assert spell_out("is it 2 hrs long?", hours) == "is it 2 hours long?"
    huts = ["North Promenade — Weekly hire: £295.00"]
    assert spell_out("weekly price for a north prom hut?", huts) == (
        "weekly price for a north promenade hut?"
    )
    dresses = ["Bridal or prom dress hem — Price: from £95.00", "The Promenade shop"]
    assert spell_out("can you hem a prom dress?", dresses) == "can you hem a prom dress?"
    juice = ["Most apples give between 5 and 7 litres of juice per 10kg."]
    assert formal_words("how much juice from 30kg of bramleys?", juice) == (
        "how much juice from 30kg of apples?"
    )


def test_the_weather_grown_ups_and_a_shoot_are_read_in_the_passages_words() -> None:
    """ "too windy" is the terms' "high winds", "grown ups" their "adults", a newborn
    "shoot" a photographer's "session"; a passage that says "windy" keeps it."""
    wind = ["We will not set up in high winds, above 24 mph."]
    assert formal_words("what if it's too windy?", wind) == "what if it's too high winds?"
    assert formal_words("what if it's windy?", ["On windy days we close."]) == (
        "what if it's windy?"
    )
    adults = ["Adults must not bounce on children's inflatables."]
    assert formal_words("can the grown ups have a go?", adults) == "can the adults have a go?"
    sessions = ["A newborn session can be rearranged free of charge."]
    assert formal_words("can we move our newborn shoot?", sessions) == (
        "can we move our newborn session?"
    )


def test_bad_weather_is_the_policys_severe_weather() -> None:
    policy = ["Severe weather and travel disruption policy"]
    assert formal_words("does the bad weather policy cover me?", policy) == (
        "does the severe weather policy cover me?"
    )


def test_a_pensioner_prosecco_and_an_answer_are_read_in_the_passages_words() -> None:
    fares = ["Day Rover — Adult: £26.00; Senior (65+): £23.00"]
    assert formal_words("how much is a day rover for a pensioner", fares) == (
        "how much is a day rover for a senior"
    )
    grants = ["Grants never pay for alcohol of any kind."]
    assert formal_words("can our grant pay for prosecco?", grants) == (
        "can our grant pay for alcohol?"
    )
    swaps = ["We will give a decision within 42 days."]
    assert formal_words("how long until I get an answer?", swaps) == (
        "how long until I get a decision?"
    )


def test_video_is_filming_and_locals_are_residents() -> None:
    rules = ["No photography, filming or sound recording is allowed."]
    assert formal_words("can i video my daughter?", rules) == "can i filming my daughter?"
    saver = ["Resident Saver is for people whose main home is in the parish."]
    assert formal_words("is there a deal for locals?", saver) == "is there a deal for resident?"


def test_neighbours_a_bump_and_sandwiches_are_read_in_the_passages_words() -> None:
    hangars = ["A request must be supported by at least 6 residents."]
    assert formal_words("how many of us neighbours need to sign up?", hangars) == (
        "how many of us residents need to sign up?"
    )
    lease = ["Where the driver at the time of an accident is under 25, an excess applies."]
    assert formal_words("if she has a bump what's the excess?", lease) == (
        "if she has a accident what's the excess?"
    )
    party = ["No outside food may be brought into the party room."]
    assert formal_words("can we bring our own sandwiches?", party) == ("can we bring our own food?")


def test_a_stall_a_season_ticket_rain_and_pensioners_are_read_in_the_passages_words() -> None:
    boot_sale = [
        "Children under 14 must not run a pitch on their own.",
        "A car season pass costs £80.00.",
        "4. Bad weather: if the sale is cancelled before it opens, your fee is carried over.",
    ]
    assert formal_words("can my son do the stall by himself?", boot_sale) == (
        "can my son do the pitch by himself?"
    )
    assert formal_words("how much is the season ticket?", boot_sale) == (
        "how much is the season pass?"
    )
    assert formal_words("if it's chucking it down do I get my money back", boot_sale) == (
        "if it's bad weather do I get my money back"
    )
    drains = ["3.3 Customers aged 70 or over receive 10% off any job."]
    assert formal_words("do pensioners get any money off?", drains) == (
        "do aged 70 get any money off?"
    )
    shoot = ["You do not need a shotgun certificate to have a lesson with us."]
    assert formal_words("do I need a shotgun licence?", shoot) == (
        "do I need a shotgun certificate?"
    )


def test_coming_back_for_a_thing_is_collecting_it() -> None:
    terms = ["7.4 If you still do not collect or contact us, we may sell the instrument."]
    assert formal_verbs("what happens if I just never come back for my guitar", terms) == (
        "what happens if I just never collect my guitar"
    )
    leave = ["If you do not return to work after your leave, we will contact you."]
    assert formal_verbs("What if I don't come back after leave?", leave) == (
        "What if I don't return after leave?"
    )
    bins = [
        "If our crew missed your bin, we will come back within 3 working days. "
        "Bins are collected weekly."
    ]
    asked = "when will they come back for it?"  # the documents' own verb, without "for"
    assert formal_verbs(asked, bins) == asked


def test_rolling_over_and_carrying_over_are_read_in_the_documents_words() -> None:
    rooms = ["4.3 Credits reset on the 1st of each month and do not roll over."]
    assert formal_verbs("do my meeting room hours carry over to next month?", rooms) == (
        "do my meeting room hours roll over to next month?"
    )
    allowance = ["Unused allowance does not carry forward into the next year."]
    assert formal_verbs("does the rest roll over into this year?", allowance) == (
        "does the rest carry forward into this year?"
    )
