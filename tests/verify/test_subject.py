"""The subject check: a question's topic word must be in the passages that answer it."""

from __future__ import annotations

import pytest

from ragcite.embed.cached import CachedEmbedder
from ragcite.models import SourceChunk
from ragcite.text.stems import stem
from ragcite.verify.subject import ASKS_IF_OFFERED, follows_on, missing_subject
from ragcite.verify.topic_words import (
    asker_verbs,
    circumstance_name,
    label_kinds,
    name_kinds,
    purpose_words,
    topic_words,
)


def _chunk(text: str, chunk_id: str = "c1", title: str = "Benefits") -> SourceChunk:
    return SourceChunk(
        chunk_id=chunk_id,
        document_id=chunk_id,
        document_title=title,
        chunk_text=text,
        char_start=0,
        char_end=len(text),
    )


def test_topic_words_leave_out_question_shape_numbers_and_dates() -> None:
    assert topic_words("How soon after 1 March 2022 must a record be deleted?") == ["record"]
    assert topic_words("Does our health insurance include dental cover?") == [
        "health",
        "insurance",
        "include",
        "dental",
        "cover",
    ]


def test_a_superlative_shapes_the_question() -> None:
    """ "the biggest payload": the table says "Max payload"."""
    assert topic_words("What's the biggest payload I can send on Scale?") == [
        "payload",
        "send",
        "scale",
    ]


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("Can I fly business class to New York?", {"new", "york"}),
        ("Can I put customer lists on my personal Dropbox?", {"dropbox"}),
        ("Can I book a meeting room at the Dublin office?", set()),  # the office is asked
        ("Do visitors need to sign an NDA?", set()),  # "to sign": no place, an object
        ("What is the capital of France?", set()),  # not a may-I question
    ],
)
def test_a_may_i_question_ending_on_a_name_names_a_circumstance(
    question: str, name: set[str]
) -> None:
    assert circumstance_name(question) == name


def test_a_contractions_rest_and_a_word_for_details_are_no_topic() -> None:
    """ "didn't": "didn" is no word of the question; "customer details": "customer data";
    "things" to report: "fraud, bribery, …"."""
    assert topic_words("Can I carry over leave I didn't use?") == ["leave"]
    assert topic_words("What kind of things can I report?") == ["report"]
    assert topic_words("How do I send an email with customer details in it?") == [
        "send",
        "email",
        "customer",
    ]
    # "my money" back is the refund the passage names
    assert "money" not in topic_words("I sent my return last week, when will I get my money?")
    # "change my mind" is a cooling-off period, "not enough" a minimum, "go ahead" to run
    assert topic_words("If I sign up online and change my mind, can I get a refund?") == [
        "online",
        "change",
        "refund",
    ]
    course = topic_words("what if not enough people sign up and my course doesn't go ahead?")
    assert "enough" not in course and "ahead" not in course and "course" in course


def test_a_time_of_day_is_no_topic() -> None:
    """ "at midnight": the policy says "between 22:00 and 06:00"."""
    assert topic_words("Can I take a taxi from the airport at midnight?") == [
        "take",
        "taxi",
        "airport",
    ]


def test_reading_and_forgetting_are_how_the_asker_acts() -> None:
    """ "read work email", "forgot my password": the passage says "use", "reset"."""
    assert topic_words("Can I read work email on my own phone?") == ["work", "email", "phone"]
    assert topic_words("I forgot my password, what do I do?") == ["password"]
    assert topic_words("Who do I ring about a lost badge?") == ["lost", "badge"]


def test_currencies_and_a_time_questions_opening_hours_are_no_topic() -> None:
    """ "150 euros" over "up to EUR 200"; "What time does the office close?" over "open
    from 07:00 to 20:00". "Can I open a bank account?" still asks about opening one."""
    assert topic_words("Can a support agent refund 150 euros?") == ["support", "agent", "refund"]
    assert topic_words("What time does the office close?") == ["office"]
    assert topic_words("Can I open a bank account?") == ["open", "bank", "account"]
    assert topic_words("How far in advance can I book a room?") == ["book", "room"]
    assert topic_words("Can I buy something for myself?") == ["buy"]
    assert topic_words("What happens to licences nobody uses?") == ["licences"]


def test_the_kind_word_after_a_name_the_passages_hold_is_not_asked_for() -> None:
    """ "the Standard plan": the passages name the Standard tier; "plan" is its kind. A
    verb after a name is no kind: "Does the Board approve budgets?"."""
    assert name_kinds("Can a friend come if I'm on the Standard plan?", {"standard"}) == {"plan"}
    assert name_kinds("Can I book the Oak room for lunch?", {"oak"}) == {"room"}
    assert name_kinds("Can I book the Oak room for lunch?", set()) == set()
    assert name_kinds("Does the Board approve budgets?", {"board"}) == set()


def test_a_hyphenated_word_covers_the_word_written_as_one(embedder: CachedEmbedder) -> None:
    """ "wifi" is the passage's "Wi-Fi"; "party" is not its "part-time"."""
    text = "Public Wi-Fi may be used only with the VPN. Part-time staff get the same."
    quotes = [(text, _chunk(text))]
    assert missing_subject("Can I use wifi on the train?", quotes, [quotes[0][1]], embedder) == [
        "train"
    ]
    assert "party" in missing_subject("When is the party?", quotes, [quotes[0][1]], embedder)


def test_the_askers_situation_before_the_question_is_not_asked_for(
    embedder: CachedEmbedder,
) -> None:
    """ "I have dyslexia – can I have more time on the quizzes?": the course's rule for extra
    time answers; the question proper's words must still be there."""
    text = "Students with a learning difficulty can have 25% extra time on timed quizzes."
    quotes = [(text, _chunk(text))]
    asked = "I have dyslexia – can I have more time on the quizzes?"
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []
    unrelated = "I have dyslexia – can I get a parking space?"
    assert "parking" in missing_subject(unrelated, quotes, [quotes[0][1]], embedder)


def test_a_question_proper_naming_nothing_is_about_the_askers_situation(
    embedder: CachedEmbedder,
) -> None:
    """ "I need to cancel dad's carer … Will we still get charged for it?": the question proper
    names nothing, so one situation word the passage holds ("cancel") will do; a situation
    none of whose words the passages hold is still missing."""
    text = "Cancelling with less than 24 hours' notice: the full charge for the visit applies."
    quotes = [(text, _chunk(text))]
    asked = (
        "I need to cancel dad's carer for tomorrow morning, it's only 20 hours away now. "
        "Will we still get charged for it?"
    )
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []
    unrelated = "My horse looks like he's got colic. Will we still get charged for it?"
    assert missing_subject(unrelated, quotes, [quotes[0][1]], embedder) != []


def test_what_the_asker_would_bring_or_fit_is_asked_about(embedder: CachedEmbedder) -> None:
    """ "… fit a dashcam in my company car. Am I allowed to?": the dashcam is what is asked
    about, whatever the passages say of company cars."""
    text = "Towing is allowed only if the company car is fitted with an approved tow bar."
    quotes = [(text, _chunk(text))]
    fitted = "I'd like to fit a dashcam in my company car. Am I allowed to?"
    assert "dashcam" in missing_subject(fitted, quotes, [quotes[0][1]], embedder)
    site = "Motorhomes may be stored on the open compound or under cover."
    quotes = [(site, _chunk(site))]
    tub = "We've got a hot tub in the motorhome. Is that allowed?"
    assert "tub" in missing_subject(tub, quotes, [quotes[0][1]], embedder)


def test_a_casual_word_for_a_person_is_no_topic() -> None:
    asked = "the repairs guy never showed up for my appointment, do I get anything?"
    assert "guy" not in topic_words(asked)
    assert "appointment" in topic_words(asked)


def test_a_relative_is_the_kind_of_relative_the_passage_names(embedder: CachedEmbedder) -> None:
    """ "my son" is the letter's "your child"; "a particular colour" asks for any colour."""
    text = "Phone the school office, who will pass messages on to your child."
    quotes = [(text, _chunk(text))]
    assert (
        missing_subject("How can I get a message to my son?", quotes, [quotes[0][1]], embedder)
        == []
    )
    guests = "Guests under 16 must be a child of the member or come with a parent."
    quotes = [(guests, _chunk(guests))]
    asked = "Can I bring my 15 year old nephew as a guest?"
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []
    paint = "You may repaint walls in a neutral colour with our written permission."
    quotes = [(paint, _chunk(paint))]
    asked = "Does the wall have to be a particular colour?"
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []


def test_a_currency_asked_for_without_an_amount_is_the_topic() -> None:
    """ "Can I pay in euros?" asks about euros; "a hundred dollar gift" names an amount."""
    assert topic_words("Can I pay in euros?") == ["pay", "euros"]
    assert topic_words("Who approves a hundred dollar gift?") == ["approves", "gift"]


def test_keeping_contacting_and_irregular_participles_are_how_a_question_asks(
    embedder: CachedEmbedder,
) -> None:
    """ "kept", "keep", "bought" shape a question like "stored" and "retained" do; a
    retention schedule's row says "Retention: 30 days", never "kept"."""
    assert topic_words("How long is CCTV footage kept?") == ["cctv", "footage"]
    assert topic_words("How long do we keep CCTV footage?") == ["cctv", "footage"]
    assert topic_words("Who bought the rights?") == ["rights"]
    assert topic_words("Who should I contact if my laptop is stolen?") == ["laptop"]
    row = _chunk("CCTV footage — Retention: 30 days; Owner: Facilities", title="Retention")
    for question in ("How long is CCTV footage kept?", "How long do we keep CCTV footage?"):
        assert missing_subject(question, [(row.chunk_text, row)], [row], embedder) == []


def test_a_verb_with_its_particle_is_how_the_asker_acts_not_the_topic(
    embedder: CachedEmbedder,
) -> None:
    """ "setting up", "send back", "sign off": the passage names the thing (an allowance,
    a return), not the asker's verb."""
    assert topic_words("How much do I get for setting up my home office?") == ["home", "office"]
    assert topic_words("How long do I have to send back a laptop?") == ["laptop"]
    assert topic_words("Who signs off on a software purchase?") == ["software", "purchase"]
    assert topic_words("What is the setting for backups?") == ["setting", "backups"]
    assert topic_words("Can I pay for software with my card?") == ["software", "card"]
    assert topic_words("What is the budget for training?") == ["budget", "training"]
    assert topic_words("Who approves purchases over $5,000?") == ["approves", "purchases"]
    assert topic_words("How many vacation days can I carry over?") == ["vacation"]
    home = _chunk(
        "Remote employees receive a one-time home office allowance of $600.", title="Remote"
    )
    question = "How much do I get for setting up my home office?"
    assert missing_subject(question, [(home.chunk_text, home)], [home], embedder) == []


def test_a_missing_topic_word_is_reported(embedder: CachedEmbedder) -> None:
    health = _chunk(
        "Employees in Ireland receive private health cover through the company scheme.",
        title="Health insurance",
    )
    question = "Does our health insurance include dental cover?"
    assert missing_subject(question, [(health.chunk_text, health)], [health], embedder) == [
        "dental"
    ]


def test_the_same_stem_a_shared_prefix_or_a_synonym_covers_a_word(
    embedder: CachedEmbedder,
) -> None:
    leave = _chunk("Up to 5 unused holidays can be carried over to the next year.")
    question = "How many unused vacation days can I carry over into next year?"
    assert missing_subject(question, [(leave.chunk_text, leave)], [leave], embedder) == []
    fees = _chunk("Account reactivation after a suspension costs $50.", title="Fees")
    question = "What does it cost to reactivate a suspended account?"
    assert missing_subject(question, [(fees.chunk_text, fees)], [fees], embedder) == []


def test_a_synonym_vouches_only_beside_the_quote(embedder: CachedEmbedder) -> None:
    """ "donations" is close to "contributions" (MiniLM 0.64), but a pension rule three
    sentences away from the quoted health-insurance one does not answer a question about
    donations; next to the quote it would vouch for the word."""
    far = _chunk(
        "Northwind pays 90% of the health insurance premium for employees. "
        "Dependants are covered at 75%. Claims are made through the insurer's app. "
        "Northwind matches pension contributions up to 5% of salary."
    )
    quoted = "Northwind pays 90% of the health insurance premium for employees."
    question = "Does Northwind match employee donations?"
    assert missing_subject(question, [(quoted, far)], [far], embedder) == ["donations"]
    near = _chunk(
        "Northwind pays 90% of the health insurance premium for employees. "
        "Northwind matches pension contributions up to 5% of salary."
    )
    assert missing_subject(question, [(quoted, near)], [near], embedder) == []


def test_a_word_another_retrieved_passage_holds_is_left_to_the_other_checks(
    embedder: CachedEmbedder,
) -> None:
    health = _chunk(
        "Employees receive private health cover through the company scheme.",
        title="Health insurance",
    )
    dental = _chunk("Dental treatment is reimbursed up to $500 a year.", "c2")
    question = "Does our health insurance include dental cover?"
    quotes = [(health.chunk_text, health)]
    assert missing_subject(question, quotes, [health, dental], embedder) == []
    assert missing_subject(question, [], [health], embedder) == []


def test_a_compound_question_misses_its_subject_only_when_every_part_does(
    embedder: CachedEmbedder,
) -> None:
    receipts = _chunk("Partners keep their expense receipts for five years.", title="Expenses")
    quotes = [(receipts.chunk_text, receipts)]
    both = "How long must partners keep their receipts, and how much are meals reimbursed?"
    assert missing_subject(both, quotes, [receipts], embedder) == []
    neither = "Is there a dental plan, and how much are gym memberships reimbursed?"
    missing = missing_subject(neither, quotes, [receipts], embedder)
    assert "dental" in missing
    assert "gym" in missing


def test_the_word_naming_the_answers_kind_is_not_asked_for(embedder: CachedEmbedder) -> None:
    players = _chunk(
        "Mary Pierce is a French former professional tennis player. Shelby Cannon is an "
        "American former professional tennis player.",
        title="Players",
    )
    quotes = [(players.chunk_text, players)]
    # "occupation" is what the answer ("tennis player") is, not what the question is about.
    for question in (
        "Mary Pierce and Shelby Cannon have which occupation in common?",
        "What occupation did Mary Pierce and Shelby Cannon have?",
    ):
        assert missing_subject(question, quotes, [players], embedder) == []
    # The rest of the question still has to be there ...
    rival = "Who was the main rival of Shelby Cannon in doubles?"
    assert missing_subject(rival, quotes, [players], embedder) == ["doubles"]
    # ... and "what is X?" asks about X itself.
    assert missing_subject("What is a sabbatical?", quotes, [players], embedder) == ["sabbatical"]


def test_the_verb_after_the_asker_or_a_modal_is_how_the_asker_puts_it(
    embedder: CachedEmbedder,
) -> None:
    """ "what will I have to pay?" over "charged the replacement cost": "pay" is the asker's
    verb; "lost" and "book" still have to be there."""
    assert asker_verbs("Can I push to prod on a Friday?") == {"push"}
    assert asker_verbs("What will I have to pay?") >= {"pay"}
    assert asker_verbs("Will HomeShield lend me a washing machine?") == set()  # a name
    assert "running" in asker_verbs("If I'm running a bit late, how long will you wait?")
    assert asker_verbs("I'm sick today") == set()  # not what the asker is doing
    text = "Books lost are charged at the replacement cost plus a $15 processing fee."
    quotes = [(text, _chunk(text))]
    asked = "I lost a library book, what will I have to pay?"
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []
    unrelated = "What will I have to pay for parking?"
    assert "parking" in missing_subject(unrelated, quotes, [quotes[0][1]], embedder)


def test_a_phone_number_asked_for_needs_no_word_phone(embedder: CachedEmbedder) -> None:
    """ "General enquiries: Library Help Desk, 01632 960 400" gives the number it is asked
    for; whether a quote gives one is the contact check's to say."""
    text = "General enquiries: Library Help Desk, 01632 960 400, library@example.ac.uk."
    quotes = [(text, _chunk(text))]
    asked = "What's the phone number for the library help desk?"
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []


def test_missing_words_that_carry_the_topic_together_are_reported(
    embedder: CachedEmbedder,
) -> None:
    """ "kennel" and "dog" each leave the other to say what is asked, so neither alone moves
    the question far; together they do, and the delay cover does not answer it."""
    text = (
        "If your return is delayed for reasons outside your control, your cover is "
        "automatically extended for up to 30 days at no extra cost."
    )
    quotes = [(text, _chunk(text, title="Travel insurance"))]
    asked = (
        "If our flight back is delayed, does the insurance cover the extra kennel fees for our dog?"
    )
    assert set(missing_subject(asked, quotes, [quotes[0][1]], embedder)) == {"kennel", "dog"}


def test_a_sibling_or_grandparent_is_the_kind_of_relative_the_passage_names(
    embedder: CachedEmbedder,
) -> None:
    text = "Children may only be collected by an adult aged 16 or over named on the form."
    quotes = [(text, _chunk(text, title="Nursery handbook"))]
    asked = "Can my son pick up his baby sister?"
    assert "sister" not in missing_subject(asked, quotes, [quotes[0][1]], embedder)


def test_a_relative_typed_without_the_possessives_apostrophe_is_still_a_relative(
    embedder: CachedEmbedder,
) -> None:
    """ "my grandads longcase clock": whose clock it is, not what is asked about."""
    text = "Longcase clock overhaul — Price: from GBP 420; Usual turnaround: 8 to 12 weeks"
    quotes = [(text, _chunk(text, title="Clock repair terms"))]
    asked = (
        "my grandads longcase clock needs an overhaul, roughly what are we looking at price wise?"
    )
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []


def test_a_part_about_the_part_before_misses_what_that_part_misses(
    embedder: CachedEmbedder,
) -> None:
    """ "… paternity leave, and is it on full pay?": the second part is about the first, so
    full pay in the sick-pay table does not answer what the documents never mention."""
    text = "5 years' service or more: 13 weeks at full pay followed by 13 weeks at half pay."
    quotes = [(text, _chunk(text, title="Sickness absence"))]
    asked = "How many weeks paternity leave can I take and is it on full pay?"
    assert "paternity" in missing_subject(asked, quotes, [quotes[0][1]], embedder)
    assert follows_on("is it on full pay") and follows_on("what's the extra charge")
    assert not follows_on("does the EU differ from the US")


def test_a_relative_the_question_names_is_the_askers_circumstance(
    embedder: CachedEmbedder,
) -> None:
    """ "for my mum" is whom the cake is for; the cake and the charge are the topic."""
    text = "A cakeage charge of £3 per person applies to any cake brought in."
    quotes = [(text, _chunk(text, title="Booking policy"))]
    asked = "Can I bring my own birthday cake for my mum, and do you charge for that?"
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []


def test_asking_for_permission_or_something_cheaper_shapes_the_question() -> None:
    assert topic_words("We've got a goldfish tank, do we need to get permission for that?") == [
        "goldfish",
        "tank",
    ]
    assert "cheaper" not in topic_words("Is there a cheaper parking deal?")


@pytest.mark.parametrize(
    ("asked", "text"),
    [
        (
            "my dad is 88 and can't wheel his bin down to the kerb anymore, is there any help "
            "for that?",
            "Assisted collections: if nobody in your household is able to move the bin to the "
            "kerb, our crew will collect it from your property.",
        ),
        (
            "the bin men didn't empty my blue bin yesterday, what do I do and when will they "
            "come back for it?",
            "If our crew missed your bin, report it online and we will come back within 2 "
            "working days.",
        ),
    ],
)
def test_the_askers_situation_is_neither_joined_nor_handed_on(
    embedder: CachedEmbedder, asked: str, text: str
) -> None:
    """Words of the asker's situation ("my dad is 88", "the bin men") do not join the missing
    words that carry the topic together, nor pass to a later part that points back; a
    statement split off as a part ("my dad is 88") hands nothing on."""
    quotes = [(text, _chunk(text, title="Household waste guide"))]
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []


def test_a_word_joining_two_the_passages_use_is_covered(embedder: CachedEmbedder) -> None:
    """ "campsite" is "camping" and "site"; "friend" is not "Fri" and "end"."""
    text = "Reception at the camping site is open until 6pm; the gate code is in the box."
    quotes = [(text, _chunk(text))]
    late = "We get to the campsite after reception closes, how do we get in?"
    assert missing_subject(late, quotes, [quotes[0][1]], embedder) == []
    hours = "Fri to Sun: open to the end of the day. A member may bring one guest."
    guest = [(hours, _chunk(hours))]
    assert (
        missing_subject("Is there a discount if I refer a friend?", guest, [guest[0][1]], embedder)
        != []
    )


def test_a_contact_asked_after_the_askers_situation_needs_no_word_call(
    embedder: CachedEmbedder,
) -> None:
    text = "Billing, tariffs and payments: 0330 088 4120, help@example.co.uk."
    quotes = [(text, _chunk(text))]
    asked = "I'm really behind on my energy bills, what's the number to call for help?"
    assert "call" not in missing_subject(asked, quotes, [quotes[0][1]], embedder)


def test_trouble_and_options_shape_a_question() -> None:
    assert "trouble" not in topic_words("I forgot to pay my rent, am I in trouble?")
    assert "option" not in topic_words("If I pick the enhanced option, what does the company pay?")


def test_a_word_that_begins_a_longer_passage_word_is_covered(embedder: CachedEmbedder) -> None:
    """ "blow the whistle": another retrieved passage's "whistleblowing"; a word of five
    letters ("renew") is too short to count as the start of one ("renewable")."""
    quoted = "The charity Protect gives free, confidential advice to workers."
    other = _chunk("Read our whistleblowing procedure before you report.", chunk_id="c2")
    quotes = [(quoted, _chunk(quoted))]
    passages = [quotes[0][1], other]
    asked = "Who can I phone for advice before I blow the whistle?"
    assert missing_subject(asked, quotes, passages, embedder) == []
    energy = _chunk("Our renewable energy tariff is fixed for 12 months.", chunk_id="c3")
    licence = "Only workers holding a current licence may drive a forklift."
    held = [(licence, _chunk(licence))]
    missing = missing_subject(
        "How often do I need to renew my forklift licence?", held, [held[0][1], energy], embedder
    )
    assert missing == ["renew"]


def test_a_price_asked_for_needs_no_word_price_and_a_chase_is_the_askers_verb(
    embedder: CachedEmbedder,
) -> None:
    """The price check reads whether a priced line states a price; "chase" is how the asker
    would go about it, like "ring"."""
    row = "Water usage — Metered customers: GBP 1.8420 per cubic metre"
    quotes = [(row, _chunk(row))]
    asked = "I've got a water meter, what's the price per cubic metre for the water itself?"
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []
    bags = "Baggage services (delayed and damaged bags) — Phone: 0203 555 0147"
    held = [(bags, _chunk(bags))]
    chase = "what's the phone number to chase my delayed bags?"
    assert missing_subject(chase, held, [held[0][1]], embedder) == []
    longer = "Extra coverage is charged at £110 per 30 minutes, agreed on the night."
    extra = [(longer, _chunk(longer))]
    asked = "If we want you to stay longer on the night, what does that cost?"
    assert missing_subject(asked, extra, [extra[0][1]], embedder) == []


def test_a_thing_the_passage_names_by_its_kind_is_there(embedder: CachedEmbedder) -> None:
    """ "my spaniel" is one of the "dogs" a campsite's rule is about; "the lorry" one of the
    vehicles a defect procedure names (`ragcite.text.hypernyms`)."""
    text = "Dogs are welcome on all pitches but not in the glamping pods."
    quotes = [(text, _chunk(text, title="Site rules"))]
    asked = "Can we bring our spaniel if we book one of the glamping pods?"
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []
    text = "A vehicle with a Category A defect may only return to service once signed off."
    quotes = [(text, _chunk(text, title="Defect reporting"))]
    asked = "Who has to sign off a Category A repair before the lorry can go back into service?"
    assert "lorry" not in missing_subject(asked, quotes, [quotes[0][1]], embedder)
    text = "Pets are not allowed in staff accommodation, except assistance dogs."
    quotes = [(text, _chunk(text, title="Staff housing rules"))]
    asked = "can I keep a hamster in my room at the staff house?"
    assert "hamster" not in missing_subject(asked, quotes, [quotes[0][1]], embedder)


@pytest.mark.parametrize(
    "asked",
    [
        "Is there a sauna I can use after swimming?",
        "Does the leisure centre have a sauna?",
        "How much is it to use the sauna?",
    ],
)
def test_whether_a_thing_is_there_or_what_it_costs_needs_the_thing_itself(
    asked: str, embedder: CachedEmbedder
) -> None:
    """A room is no sauna when the question is whether there is one or what it costs: the
    passages must name it."""
    text = "The changing rooms are open from 6am. Each room has lockers and showers."
    quotes = [(text, _chunk(text, title="Leisure centre guide"))]
    assert "sauna" in missing_subject(asked, quotes, [quotes[0][1]], embedder)


def test_contractions_typed_without_apostrophes_and_hedges_are_no_topic() -> None:
    """People type "didnt", "whats", "cant" and hedge ("its quite old i think"): none of it is
    what the question is about."""
    asked = "whats the fee for a funeral? mum didnt live here, its quite far i think, cheers"
    assert topic_words(asked) == ["fee", "funeral", "mum", "live"]  # "far": question shape
    assert topic_words("the drill got stolen out of my car, what do i pay? i guess its old") == [
        "drill",
        "car",
        "pay",
    ]
    # "getting" and "gotten" are "get" and "got"; "shes" and "hes" are "she's" and "he's"
    assert topic_words("what happens if I'm late getting my son? shes 4") == ["late", "son"]


def test_a_price_word_is_covered_by_the_passages_own_price_word(
    embedder: CachedEmbedder,
) -> None:
    """ "Does she still get the resident price?" over a passage that says "fee": the
    passage's price word is the question's, whatever the question asks."""
    text = (
        "Residents pay the resident fee. Someone who lived in the town for at least 10 years "
        "and moved into a care home is also treated as a resident."
    )
    quotes = [(text.split(". ")[1], _chunk(text, title="Cemetery fees"))]
    asked = (
        "Gran lived in the town for 30 years but moved into a care home. "
        "does she still get the resident price?"
    )
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []
    plain = "Someone who lived in the town for at least 10 years is treated as a resident."
    held = [(plain, _chunk(plain, title="Residents"))]
    assert missing_subject(asked, held, [held[0][1]], embedder) == ["price"]


def test_a_rank_word_before_a_number_is_the_passages_rank(embedder: CachedEmbedder) -> None:
    """ "band 2" is the passage's "Grade 2": a scale's name differs between employers, its
    number does not; without another rank word in the passages, "band" stays asked for."""
    row = "Grade 2 - Senior Carer — Basic hourly rate: £13.40; Night rate: £14.50"
    quotes = [(row, _chunk(row, title="Pay rates"))]
    asked = "im a band 2 senior carer, whats my night rate?"
    assert label_kinds(asked, {stem("grade")}) == {"band"}
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []
    assert label_kinds(asked, {"senior", "carer"}) == set()
    assert label_kinds("is there a band playing at the party?", {stem("grade")}) == set()
    assert label_kinds("Band B: what is the level a new starter gets?", {stem("grade")}) == {"band"}


def test_every_word_of_a_thing_asked_to_be_on_offer_names_it(embedder: CachedEmbedder) -> None:
    """ "Do you have a woodland burial area?" is not answered by the cemetery's burial area:
    "woodland" moves the question's meaning little, but a thing on offer is all its words;
    a question that is not about what is on offer keeps the plain threshold (0.06)."""
    text = "Millbrook Council manages the burial ground on Mill Lane, with an area for ashes."
    quotes = [(text, _chunk(text, title="Cemetery rules"))]
    asked = "Do you have a woodland burial area at Mill Lane?"
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == ["woodland"]
    assert missing_subject(
        "does millbrook have a woodland burial area?", quotes, [quotes[0][1]], embedder
    ) == ["woodland"]
    assert ASKS_IF_OFFERED.match("does the library sell old tools?")
    assert not ASKS_IF_OFFERED.match("Do I have to book a woodland burial?")
    assert not ASKS_IF_OFFERED.match("Who manages the woodland burial area?")
    assert not ASKS_IF_OFFERED.match("Do students have to pay for the woodland walk?")


def test_what_the_asker_brings_a_thing_for_is_not_asked_for(embedder: CachedEmbedder) -> None:
    """ "to watch", "to run the fridge": the rule is about bringing the thing."""
    assert purpose_words("can I bring my dog down to watch?") == {"watch"}
    assert purpose_words("How do I bring it to you?") == set()  # not a may-I question
    assert purpose_words("Can you take it to the campsite for us?") == set()  # a place
    dogs = "You may bring dogs onto the terrace on a short lead."
    quotes = [(dogs, _chunk(dogs))]
    chunks = [quotes[0][1]]
    assert missing_subject("can I bring my dog down to watch?", quotes, chunks, embedder) == []
    assert missing_subject("can I bring my cat to watch?", quotes, chunks, embedder)


def test_any_chance_asks_and_names_nothing(embedder: CachedEmbedder) -> None:
    """ "broke my hip …, any chance of getting my sub back?": the injury is the situation."""
    rule = (
        "The one exception is illness or injury: if a doctor confirms that a member cannot "
        "play for the rest of the season, the committee may refund half of the subscription."
    )
    quotes = [(rule, _chunk(rule, title="Bowls club subscriptions"))]
    asked = "broke my hip and cant bowl for the rest of the season, any chance of a refund?"
    assert "chance" not in topic_words(asked)
    assert missing_subject(asked, quotes, [quotes[0][1]], embedder) == []


def test_a_number_in_words_is_there_when_the_passages_write_it_in_digits(
    embedder: CachedEmbedder,
) -> None:
    notes = "We do not accept cheques, euros or £50 notes at the toll booths."
    quotes = [(notes, _chunk(notes, title="Toll bridge payments"))]
    chunks = [quotes[0][1]]
    assert (
        missing_subject("can I pay the toll with a fifty pound note", quotes, chunks, embedder)
        == []
    )
    assert "twenty" in missing_subject("can I pay with twenty coins?", quotes, chunks, embedder)


def test_a_unit_is_there_when_the_passages_abbreviate_it_after_a_number(
    embedder: CachedEmbedder,
) -> None:
    row = "8ft to 10ft — Norway Spruce: £79.00; Nordmann Fir: £118.00; Fraser Fir: Not available"
    quotes = [(row, _chunk(row, title="Cut tree prices"))]
    chunks = [quotes[0][1]]
    asked = "how much is a fraser fir around 9 feet?"
    assert missing_subject(asked, quotes, chunks, embedder) == []
    assert "metres" in missing_subject(
        asked.replace("9 feet", "3 metres"), quotes, chunks, embedder
    )
    bare = row.replace("ft", "")  # heights without their unit: "feet" is not there
    assert missing_subject(asked, [(bare, _chunk(bare))], [_chunk(bare)], embedder) == ["feet"]
