"""The reading check and the reading features (measured, not kept): the quoted sentence and
its neighbours, read against the question."""

from __future__ import annotations

import pytest

from ragcite.embed.cached import CachedEmbedder
from ragcite.models import SourceChunk
from ragcite.text.times_of_day import asks_time_of_day, gives_time_of_day
from ragcite.train.reading_features import READING_FEATURES, reading_features
from ragcite.verify.answer_types import type_spans
from ragcite.verify.counts import gives_no_count
from ragcite.verify.reading import (
    gives_no_contact,
    gives_no_price,
    names_no_one,
    negated_in_quote,
    negation_unmatched,
    quote_window,
    reading_conflict,
)

RHINE = (
    "The Rhine is a European river that begins in the Swiss canton of Graubünden and "
    "empties into the North Sea in the Netherlands. The Rhine flows through the Rhineland "
    "with its vineyards. The biggest city on the river Rhine is Cologne, Germany with a "
    "population of more than 1,050,000 people. It is the second-longest river in Central "
    "and Western Europe (after the Danube), at about 1,230 km (760 mi)."
)
LENGTH = "It is the second-longest river in Central and Western Europe (after the Danube)"
CITY = (
    "The biggest city on the river Rhine is Cologne, Germany with a population of more "
    "than 1,050,000 people."
)
NORMANS = (
    "The Norman dynasty had a major political, cultural and military impact on medieval "
    "Europe and even the Near East. The Normans were famed for their martial spirit. "
    "The Normans conquered England in 1066 under William."
)


def _chunk(text: str) -> SourceChunk:
    return SourceChunk(
        chunk_id="c1",
        document_id="d",
        document_title="Rhine",
        chunk_text=text,
        char_start=0,
        char_end=len(text),
    )


def _read(question: str, quote: str, text: str, embedder: CachedEmbedder) -> dict[str, float]:
    return reading_features(question, [(quote, _chunk(text))], embedder)


def test_the_window_is_the_quoted_sentence_and_its_neighbours() -> None:
    window = quote_window(CITY, _chunk(RHINE))
    assert window.quoted == [CITY]
    assert len(window.sentences) == 4 and len(window.window) == 3
    assert window.window[0].startswith("The Rhine flows") and window.window[2].startswith("It is")
    # not verbatim: the sentence sharing most words with the quote
    loose = quote_window("Cologne is the biggest city on the Rhine", _chunk(RHINE))
    assert loose.quoted == [CITY]


def test_every_feature_is_computed(embedder: CachedEmbedder) -> None:
    features = _read("How long is the Rhine?", LENGTH, RHINE, embedder)
    assert set(features) == set(READING_FEATURES)
    assert all(isinstance(v, float) for v in features.values())


def test_a_name_held_by_a_distant_sentence_is_counted(embedder: CachedEmbedder) -> None:
    asked = _read("How long is the Rhine?", LENGTH, RHINE, embedder)
    joined = _read("How long is the Netherlands?", LENGTH, RHINE, embedder)
    assert asked["read_names_elsewhere"] == 0.0 and joined["read_names_elsewhere"] == 1.0
    assert joined["read_unaligned"] > asked["read_unaligned"]


def test_words_the_passage_keeps_apart_spread(embedder: CachedEmbedder) -> None:
    asked = _read("What is the population of Cologne?", CITY, RHINE, embedder)
    joined = _read("What is the population of the Netherlands?", CITY, RHINE, embedder)
    assert asked["read_sentence_unaligned"] == 0.0 and asked["read_spread"] == 0.0
    assert joined["read_sentence_unaligned"] > 0.3 and joined["read_spread"] > 0.3


def test_an_opposite_in_the_window_is_read(embedder: CachedEmbedder) -> None:
    asked = _read("What is the biggest city on the Rhine?", CITY, RHINE, embedder)
    swapped = _read("What is the smallest city on the Rhine?", CITY, RHINE, embedder)
    assert asked["read_opposite"] == 0.0 and swapped["read_opposite"] == 1.0
    assert swapped["read_unaligned"] > 0.0 and asked["read_unaligned"] == 0.0


def test_a_changed_word_is_left_unaligned(embedder: CachedEmbedder) -> None:
    quote = NORMANS.split(". ")[0] + "."
    kept = _read("What impact did the Normans have on medieval Europe?", quote, NORMANS, embedder)
    changed = _read("What impact did the Normans have on modern Europe?", quote, NORMANS, embedder)
    assert kept["read_unaligned"] == 0.0 and kept["read_weakest"] == 1.0
    assert changed["read_unaligned"] > 0.0 and changed["read_weakest"] < 1.0
    assert changed["read_opposite"] == 1.0


def test_an_answer_that_repeats_the_question(embedder: CachedEmbedder) -> None:
    quote = "The Normans conquered England in 1066 under William."
    asked = _read("When did the Normans conquer England?", quote, NORMANS, embedder)
    repeated = _read("When did the Normans conquer England in 1066?", quote, NORMANS, embedder)
    assert asked["read_repeats_question"] == 0.0 and repeated["read_repeats_question"] == 1.0


def test_the_residual_drops_when_the_sentence_says_what_is_asked(
    embedder: CachedEmbedder,
) -> None:
    said = _read("What is the population of Cologne?", CITY, RHINE, embedder)
    unsaid = _read("What is the population of the Netherlands?", CITY, RHINE, embedder)
    assert said["read_residual_drop"] > unsaid["read_residual_drop"]


@pytest.mark.parametrize(
    ("kind", "sentence", "spans"),
    [
        ("date", "The Normans conquered England in 1066.", ["1066"]),
        ("duration", "PII is kept for three years.", ["three years"]),
        ("person", "The treaty was signed by Rollo and Charles.", ["Rollo", "Charles"]),
        ("person", "It is approved by the finance director.", ["director"]),
        ("yesno", "Yes, it is.", []),
    ],
)
def test_type_spans(kind: str, sentence: str, spans: list[str]) -> None:
    assert type_spans(kind, sentence) == spans


def test_a_swapped_modifier_is_counted(embedder: CachedEmbedder) -> None:
    text = (
        "A deterministic Turing machine is the most basic Turing machine, which uses a "
        "fixed set of rules to determine its future actions."
    )
    kept = _read("What uses a fixed set of rules to determine its actions?", text, text, embedder)
    swapped = _read("What uses a flexible set of rules to decide?", text, text, embedder)
    assert kept["read_swapped_modifier"] == 0.0 and swapped["read_swapped_modifier"] == 1.0


def test_a_negated_question_over_a_sentence_that_is_not_conflicts() -> None:
    text = (
        "For a precise definition of what it means to solve a problem, a computational model "
        "such as the deterministic Turing machine is used. It is not the only model."
    )
    quote = text.split(". ")[0] + "."
    chunk = _chunk(text)
    negated = reading_conflict("What is not used for a precise definition?", [(quote, chunk)])
    assert negated is not None and '("not")' in negated
    assert reading_conflict("What is used for a precise definition?", [(quote, chunk)]) is None
    # the negation in a neighbour sentence does not count: the quoted one answers
    assert reading_conflict("What is never used?", [(quote, chunk)]) is not None
    assert reading_conflict("What is not used?", []) is None


def test_an_opposite_conflicts_unless_the_question_names_both() -> None:
    chunk = _chunk(RHINE)
    smallest = reading_conflict("What is the smallest city on the Rhine?", [(CITY, chunk)])
    assert smallest is not None and '"smallest"' in smallest and '"biggest"' in smallest
    assert reading_conflict("What is the biggest city on the Rhine?", [(CITY, chunk)]) is None
    both = "Is the biggest city on the Rhine the smallest in Germany?"
    assert reading_conflict(both, [(CITY, chunk)]) is None


def test_an_opposite_conflicts_only_when_every_quoted_window_holds_one() -> None:
    """A second quote whose neighbour says "start" does not undo the first quote's answer to
    a question about ending."""
    rules = _chunk("Give 30 days' written notice by email to cancel a desk membership.")
    other = _chunk(
        "Hot Desk members can pause their membership for up to 2 months. Downgrades start "
        "from your next billing date."
    )
    question = "How much notice do I need to give to end my membership?"
    pause = "Hot Desk members can pause their membership for up to 2 months."
    assert reading_conflict(question, [(pause, other)]) is not None
    assert reading_conflict(question, [(rules.chunk_text, rules), (pause, other)]) is None


def test_a_compound_question_conflicts_only_when_every_part_does() -> None:
    chunk = _chunk(RHINE)
    compound = "What is the smallest city on the Rhine, and how long is the river?"
    assert reading_conflict(compound, [(CITY, chunk), (LENGTH, chunk)]) is None
    both = "What is the smallest city on the Rhine, and what is not its population?"
    assert reading_conflict(both, [(CITY, chunk)]) is not None


def test_a_sentence_about_the_negated_case_conflicts_with_a_plain_question() -> None:
    text = (
        "Phishing emails that were not clicked can be reported with the Report phish button. "
        "Anyone who clicked a link must call the security hotline within 1 hour."
    )
    quote = text.split(". ")[0] + "."
    chunk = _chunk(text)
    clicked = reading_conflict("I clicked a phishing link, what should I do?", [(quote, chunk)])
    assert clicked is not None and '"not clicked"' in clicked
    # the next sentence uses the word plainly: quoted with it, there is no conflict
    both = [(quote, chunk), (text.split(". ")[1], chunk)]
    assert reading_conflict("I clicked a phishing link, what should I do?", both) is None
    # a "no" answers a may-I or yes/no question
    assert reading_conflict("Can clicked emails be reported?", [(quote, chunk)]) is None
    assert negated_in_quote("Were the emails clicked?", [quote]) is None


def test_who_is_needs_a_sentence_that_names_someone_the_question_does_not() -> None:
    text = (
        "If personal data is involved, the Data Protection Officer decides whether the "
        "regulator is notified. The Data Protection Officer is Maria Lopez."
    )
    first, second = text.split(". ")
    chunk = _chunk(text)
    unnamed = reading_conflict("Who is the Data Protection Officer?", [(first + ".", chunk)])
    assert unnamed is not None and "name no one" in unnamed
    assert reading_conflict("Who is the Data Protection Officer?", [(second, chunk)]) is None
    # "Who decides …?" is answered by the role itself
    assert not names_no_one("Who decides whether the regulator is notified?", [first + "."])
    # a question naming a role is answered by a name, not by another role
    assert names_no_one("Who is the Head of Operations?", ["Owner: Operations team."])
    assert not names_no_one("Who is Maria Lopez?", ["Maria Lopez is the data officer."])
    # a sentence addressed to the reader says who is responsible: "you"
    fences = "maintain your garden, and repair fences between your garden and a neighbour's;"
    assert not names_no_one("Who's responsible for fixing the fence next door?", [fences])
    assert names_no_one("Who is the fence contractor?", [fences])


def test_a_word_negated_by_its_prefix_answers_a_negated_question() -> None:
    text = (
        "Card statements are reconciled monthly; unreconciled transactions older than 60 "
        "days are deducted from salary."
    )
    chunk = _chunk(text)
    negated = "What happens if I don't reconcile my statement?"
    assert reading_conflict(negated, [(text, chunk)]) is None
    plain = "Card statements are reconciled monthly."
    assert reading_conflict(negated, [(plain, _chunk(plain))]) is not None


def test_a_negated_section_heading_answers_a_negated_question() -> None:
    """A support article's section "My notes are not syncing" answers "Why aren't my notes
    syncing?" with its sentences, which need not repeat the "not"."""
    text = "Check that you are signed in with the same account on every device."
    under = _chunk(text).model_copy(update={"section_heading": "My notes are not syncing"})
    question = "Why aren't my notes syncing?"
    assert reading_conflict(question, [(text, under)]) is None
    plain = _chunk(text).model_copy(update={"section_heading": "Syncing your notes"})
    assert reading_conflict(question, [(text, plain)]) is not None


def test_a_prefix_negation_of_a_short_verb_answers_a_negated_question() -> None:
    """ "unused" negates "use", though the stemmer keeps "used" whole."""
    text = "Up to 5 unused days can be carried over to the next year."
    assert reading_conflict("Can I carry over leave I didn't use?", [(text, _chunk(text))]) is None


@pytest.mark.parametrize(
    ("question", "text"),
    [
        (
            "What happens if I don't finish my mandatory courses on time?",
            "If a mandatory course is more than 14 days overdue, your manager will be notified.",
        ),
        (
            "How many points on my licence before I'm not allowed to drive for work?",
            "Any driver with 9 or more penalty points will be suspended from driving on company "
            "business.",
        ),
        ("What if my payment doesn't go through?", "If all payment attempts fail, we pause it."),
        (
            "what happens to lost stuff nobody picks up?",
            "Anything still unclaimed at the end of each week is donated to charity.",
        ),
    ],
)
def test_a_word_that_states_a_negation_answers_a_negated_question(question: str, text: str) -> None:
    assert reading_conflict(question, [(text, _chunk(text))]) is None


def test_a_bare_suspended_or_lack_is_no_negation() -> None:
    """ "suspended load" and "lack" name things; they do not say the asked case is not so."""
    for text in ("The lighter suspended load comes from higher up.", "They lack a solution."):
        assert reading_conflict("What lake no longer has any silt?", [(text, _chunk(text))])


def test_free_answers_a_question_about_not_paying() -> None:
    text = "Members may bring up to 2 guests per day into the shared areas free of charge."
    question = "How many friends can I bring in without paying?"
    assert reading_conflict(question, [(text, _chunk(text))]) is None
    assert reading_conflict("What can I eat without cooking?", [(text, _chunk(text))])


def test_a_negation_in_the_askers_situation_is_not_the_questions() -> None:
    text = "Support answers a P1 incident within 30 minutes."
    question = "Nobody in our company can log in at all - how quickly will support reply?"
    assert reading_conflict(question, [(text, _chunk(text))]) is None


def test_whether_or_not_asks_both_cases_and_negates_nothing() -> None:
    text = "Computability theory asks whether a problem can be solved by an algorithm at all."
    both = "Which field studies whether or not a problem can be solved using algorithms?"
    assert reading_conflict(both, [(text, _chunk(text))]) is None
    assert reading_conflict("Can every problem be solved or not?", [(text, _chunk(text))]) is None
    negated = reading_conflict("Which problems can not be solved?", [(text, _chunk(text))])
    assert negated is not None and '("not")' in negated


def test_a_prohibition_answers_whether_it_is_ok_to_do_it() -> None:
    """ "ok to sell those?" asks leave, and "may not be sold" gives it: a no answers."""
    rule = "Second-hand car seats, cycle helmets and motorcycle helmets may not be sold."
    asked = "got an old baby car seat and some bike helmets to get rid of, ok to sell those?"
    assert reading_conflict(asked, [(rule, _chunk(rule))]) is None


def test_a_what_time_question_needs_a_time_of_day() -> None:
    """ "What time does the hotel restaurant serve dinner?" over the expenses policy's meal
    allowance gives no time; "What time did a river system develop?" asks when."""
    allowance = "The daily meal allowance covers breakfast, lunch, dinner and drinks."
    dinner = "What time does the hotel restaurant serve dinner?"
    assert reading_conflict(dinner, [(allowance, _chunk(allowance))]) is not None
    hours = "Dinner is served from 6.30pm to 9.30pm in the Marsh Room."
    assert reading_conflict(dinner, [(hours, _chunk(hours))]) is None
    era = "By the time of the Miocene, a river system had developed in the Graben."
    assert reading_conflict("What time did a river system develop?", [(era, _chunk(era))]) is None


def test_a_question_asking_for_a_name_needs_a_sentence_that_names_someone() -> None:
    """ "What's the name of …?" asks who: a sentence giving the role's extension does not
    answer it."""
    extension = "Site Health and Safety Manager: extension 401"
    question = "What's the name of the site health and safety manager?"
    assert names_no_one(question, [extension])
    assert not names_no_one(question, ["The site health and safety manager is Dana Whitfield."])
    assert names_no_one("Need to complain - who's the data officer?", ["The data officer decides."])


@pytest.mark.parametrize(
    ("question", "without", "with_it"),
    [
        (
            "What's the phone number for AFCA if I want to take my complaint further?",
            "You can contact the Australian Financial Complaints Authority (AFCA).",
            "You can call AFCA on 1800 931 678.",
        ),
        (
            "What number do I ring for IT?",
            "Ring the IT service desk.",
            "Ring the IT service desk on extension 4455.",
        ),
        (
            "What is the email address for payroll questions?",
            "Payroll questions go to the payroll team by email.",
            "Email payroll@example.com with payroll questions.",
        ),
        (
            "What's the website for booking rooms?",
            "Rooms are booked on the intranet.",
            "Rooms are booked at www.example.com/rooms.",
        ),
    ],
)
def test_a_question_asking_for_a_contact_needs_a_sentence_that_gives_one(
    question: str, without: str, with_it: str
) -> None:
    """A question asking for a phone number, an email or a web address is not answered by a
    sentence that only names whom to contact."""
    assert gives_no_contact(question, [without]) is not None
    conflict = reading_conflict(question, [(without, _chunk(without))])
    assert conflict is not None and "asks for" in conflict
    assert gives_no_contact(question, [with_it]) is None
    assert reading_conflict(question, [(with_it, _chunk(with_it))]) is None


def test_a_question_that_only_mentions_a_contact_asks_for_none() -> None:
    assert (
        gives_no_contact("Can I book a room on the website?", ["Rooms are booked online."]) is None
    )
    assert gives_no_contact("Do I need to phone the desk?", ["Email the desk."]) is None


def test_new_or_first_answers_a_question_about_what_was_never_done_before() -> None:
    limit = "Online and app transfers to a new payee: up to EUR 5,000 per day."
    question = "How much can I send online in a day to someone I've never paid before?"
    assert reading_conflict(question, [(limit, _chunk(limit))]) is None
    existing = "Online and app transfers to an existing payee: up to EUR 15,000 per day."
    assert reading_conflict(question, [(existing, _chunk(existing))]) is not None


def test_under_united_and_unified_state_no_negation() -> None:
    question = "What is not covered?"
    for text in ("Items listed under section 4 are covered.", "The unified policy covers it."):
        assert reading_conflict(question, [(text, _chunk(text))]) is not None


def test_an_opposite_in_the_askers_situation_is_not_asked() -> None:
    due = "New starters must complete the course within their first 4 weeks."
    situation = "I only started last week, when do I need to have the training done by?"
    assert reading_conflict(situation, [(due, _chunk(due))]) is None
    asked = "When is the last course due?"
    assert reading_conflict(asked, [(due, _chunk(due))]) is not None


@pytest.mark.parametrize(
    ("question", "without", "with_it"),
    [
        (
            "How much does Premium membership cost a month?",
            "Premium members get 2 free guest passes each month.",
            "Premium membership costs £49 a month.",
        ),
        (
            "How much is a weekly parking pass at the hospital?",
            "Weekly and season passes are available from the Car Park Office.",
            "Parking for blue badge holders is free.",
        ),
        (
            "What's the fee for a replacement card?",
            "Lost cards are replaced within 5 working days.",
            "A replacement card costs 10 euros.",
        ),
    ],
)
def test_a_question_asking_a_price_needs_a_sentence_that_states_one(
    question: str, without: str, with_it: str
) -> None:
    assert gives_no_price(question, [without])
    conflict = reading_conflict(question, [(without, _chunk(without))])
    assert conflict is not None and "no price" in conflict
    assert not gives_no_price(question, [with_it])


def test_whether_there_is_a_discount_is_answered_by_one_stated_without_its_amount() -> None:
    offered = "We offer a sibling discount to families with more than one child."
    asked = "I've got two girls doing ballet with you, is there any discount for siblings?"
    assert not gives_no_price(asked, [offered])
    assert reading_conflict(asked, [(offered, _chunk(offered))]) is None
    assert gives_no_price(asked, ["Classes run for 10 weeks a term."])
    farm = "The yard offers stabling for 28 horses with direct access to off-road hacking."
    assert gives_no_price("Is there a discount on livery if I keep two horses?", [farm])
    # an offer is a discount, however it is worded
    offer = "Pay a year in advance and get 13 cleans for the price of 12."
    asked = "is there any discount if i pay for the whole year in one go?"
    assert not gives_no_price(asked, [offer])
    assert reading_conflict(asked, [(offer, _chunk(offer))]) is None


@pytest.mark.parametrize(
    ("question", "quoted", "no_count"),
    [
        (
            "how many guests am I allowed to invite to my private view?",
            "Exhibitions run for 4 weeks, with a private view from 6pm to 8.30pm. A "
            "contribution of £350 is payable towards the costs of the private view.",
            True,
        ),
        ("how many guests can I bring?", "Guests must leave by 10 December.", True),
        ("how many guests can I bring?", "You may bring up to 4 guests.", False),
        ("how many of us can sit with my nan?", "No more than two visitors per bed.", False),
        ("How many suitcases on a Flex ticket?", "Flex — Checked bags: 2 bags; Price: £45", False),
        ("how many days leave do I get?", "You get 25 days a year.", False),
        ("how many paid volunteering days do i get?", "3 years — Volunteering: 3 days", False),
        ("how many times can I claim?", "Premier members can claim an unlimited number.", False),
        ("how much is it?", "The view runs from 6pm to 8.30pm.", False),
    ],
)
def test_a_how_many_question_needs_a_count_of_something_it_could_ask(
    question: str, quoted: str, no_count: bool
) -> None:
    assert gives_no_count(question, [quoted]) is no_count
    conflict = reading_conflict(question, [(quoted, _chunk(quoted))])
    assert (conflict is not None and "how many" in conflict) is no_count


def test_how_much_of_something_else_asks_no_price() -> None:
    quoted = ["You get 25 days of annual leave."]
    assert not gives_no_price("How much leave do I get?", quoted)
    assert not gives_no_price("How much notice do I need to give?", quoted)


def test_a_question_asking_for_a_name_is_not_answered_by_a_title() -> None:
    question = "What's the name of the kennel manager?"
    title = "Complaints: please write to the Head of Kennels at manager@example.co.uk."
    assert names_no_one(question, [title])
    assert not names_no_one(question, ["The kennel manager is Dana Whitfield."])
    # "Who is …?" is answered by a title
    assert not names_no_one("Who handles complaints?", [title])


def test_is_there_a_fee_asks_a_price() -> None:
    question = "Is there a fee if I drop the car off at a different branch?"
    assert gives_no_price(question, ["Return the car to the branch you collected it from."])
    assert not gives_no_price(question, ["One-way rentals cost £45."])
    assert gives_no_price(
        "Is there a discount for booking all eight weeks?", ["Camp runs 8 weeks."]
    )
    assert not gives_no_price("Is there a discount for siblings?", ["Siblings get 10% off."])


def test_how_much_extra_or_a_month_asks_a_price() -> None:
    """ "How much extra does flood cover add?" and "how much a month is it?" ask what it
    costs; "how much extra leave" asks for leave."""
    flood = ["Flood Cover: covers damage caused by a river, creek or dam overflowing."]
    assert gives_no_price("How much extra does flood cover add to my premium?", flood)
    assert gives_no_price("How much a month is family membership?", ["Families may join."])
    assert not gives_no_price("How much a month is family membership?", ["Family: £85.00"])
    assert not gives_no_price("How much extra leave do I get?", ["You get 5 more days."])


def test_a_contact_asked_for_a_negated_case_is_answered_by_the_number() -> None:
    """ "What number do I call to report my internet not working?": the number answers,
    and "not working" is said as a fault."""
    text = "You can report a fault in the app or by phone on 0808 157 0321, 24 hours a day."
    asked = "What number do I call to report my internet not working?"
    assert reading_conflict(asked, [(text, _chunk(text))]) is None
    assert negation_unmatched("Why is my internet not working?", text) is None


def test_a_year_the_passages_never_state_conflicts_unless_a_no_answers_it() -> None:
    said = "In 1967, Manuel Blum developed an axiomatic complexity theory based on his axioms."
    chunk = _chunk(said)
    conflict = reading_conflict(
        "Who developed an axiomatic complexity theory in 1974?", [(said, chunk)]
    )
    assert conflict is not None and "1974" in conflict and "1967" in conflict
    assert (
        reading_conflict("Who developed an axiomatic complexity theory in 1967?", [(said, chunk)])
        is None
    )
    # "Did Blum develop it in 1974?" is answered: no, in 1967
    assert (
        reading_conflict("Did Blum develop his complexity theory in 1974?", [(said, chunk)]) is None
    )


def test_comparatives_and_directions_are_read_as_opposites() -> None:
    said = "The name Rijn is used only for smaller streams farther to the north."
    larger = reading_conflict("What name is used only for larger streams?", [(said, _chunk(said))])
    assert larger is not None and '"larger"' in larger and '"smaller"' in larger
    capture = "Through stream capture, the Rhine extended its watershed southward."
    northward = reading_conflict(
        "What caused the Rhine to extend its watershed northward?", [(capture, _chunk(capture))]
    )
    assert northward is not None and '"southward"' in northward


def test_an_opposite_before_a_preposition_turns_nothing_round() -> None:
    """ "open on Saturdays" is answered by "open … and Saturday 7:30am to 12:30pm" beside
    "closed on Sundays": "on" names no thing the two words could be said of."""
    hours = (
        "Both depots are open Monday to Friday 7:00am to 5:30pm and Saturday 7:30am to "
        "12:30pm. We are closed on Sundays and bank holidays."
    )
    quotes = [(hours, _chunk(hours))]
    assert reading_conflict("What time do you open on Saturdays?", quotes) is None


def test_common_opposites_are_read_before_the_same_word() -> None:
    turn = "During the ice ages, the Rhine took a left turn, creating the Channel River."
    right = reading_conflict(
        "When the Rhine took a right turn what did it create?", [(turn, _chunk(turn))]
    )
    assert right is not None and '"right turn"' in right and '"left turn"' in right
    factor = "It is the problem of deciding whether the input has a factor less than k."
    more = reading_conflict(
        "What problem decides whether the input has a factor more than k?",
        [(factor, _chunk(factor))],
    )
    assert more is not None and '"less than k"' in more
    # alone, or before another word, such words ask nothing opposite
    banks = "Cologne lies on the left bank; Deutz lies on the right bank."
    assert reading_conflict("What lies on the left bank?", [(banks, _chunk(banks))]) is None
    fees = "Members pay less for classes booked early."
    asked = "Do members pay more for late bookings?"
    assert reading_conflict("Why do members pay more?", [(fees, _chunk(fees))]) is None
    assert reading_conflict(asked, [(fees, _chunk(fees))]) is None


def test_a_negating_prefix_makes_an_opposite_of_a_quality_only() -> None:
    formal = "A decision problem can be viewed as a formal language."
    informal = reading_conflict(
        "What can be viewed as an informal language?", [(formal, _chunk(formal))]
    )
    assert informal is not None and '"informal"' in informal and '"formal"' in informal
    possible = "It is possible that all these complexity classes collapse to one class."
    assert (
        reading_conflict(
            "What is impossible for these complexity classes?", [(possible, _chunk(possible))]
        )
        is not None
    )
    # "invoice" is not "in" + "voice", and "not equal" says "unequal"
    voice = "Use your own voice when you call the desk."
    assert reading_conflict("Who do I send an invoice to?", [(voice, _chunk(voice))]) is None
    equal = "If P is not equal to NP, then P is not equal to PSPACE either."
    assert (
        reading_conflict("What follows if P and NP are unequal?", [(equal, _chunk(equal))]) is None
    )


def test_a_yes_no_question_is_answered_by_the_opposite_state_not_the_opposite_thing() -> None:
    dogs = "Dogs are forbidden in the bedrooms."
    assert reading_conflict("Are dogs allowed in the bedrooms?", [(dogs, _chunk(dogs))]) is None
    advance = "It is impossible to change the date of an Advance ticket."
    asked = "Is it possible to change the date of my Advance ticket?"
    assert reading_conflict(asked, [(advance, _chunk(advance))]) is None
    shifts = "Advice desk helper: Minimum commitment: one shift a week for 6 months."
    maximum = "Is there a maximum number of hours I can volunteer a week?"
    assert reading_conflict(maximum, [(shifts, _chunk(shifts))]) is not None


def test_cannot_is_a_negation_and_a_conditions_negation_is_the_askers_case() -> None:
    said = "If we cannot contact you, the duty vet will decide on treatment."
    asked = "If my dog gets ill and you can't get hold of me, what happens?"
    assert negation_unmatched(asked, said) is None
    returns = "You can return most items within 30 days of delivery."
    assert (
        negation_unmatched("How long do I have to send it back if I don't like it?", returns)
        is None
    )
    assert negation_unmatched("What is not used to return items?", returns) == "not"
    cooling = "You can cancel within the 14-day cooling-off period."
    asked = "How long have I got to cancel without paying a penalty?"
    assert negation_unmatched(asked, cooling) is None


def test_a_negation_in_what_the_asker_wants_is_their_case() -> None:
    """ "so I don't lose the deposit" says why the asker asks; what is asked is how much
    notice."""
    moving = "If you give us at least 72 hours' notice, we will move your deposit once."
    asked = "how much notice do i have to give so I don't lose the deposit?"
    assert negation_unmatched(asked, moving) is None
    assert (
        negation_unmatched("how much notice do i have to give so that it isn't lost?", moving)
        is None
    )
    assert negation_unmatched("What is not moved with 72 hours' notice?", moving) == "not"


def test_for_nothing_asks_whether_it_is_free() -> None:
    said = "If your supply pipe leaks, we will repair it free of charge once."
    asked = "the pipe to my house is leaking, will you fix it for nothing?"
    assert negation_unmatched(asked, said) is None
    assert negation_unmatched("Why did nothing happen to the pipe?", said) == "nothing"


def test_a_rows_headers_and_days_are_no_ones_name() -> None:
    row = (
        "Whistleblowing Officer (Head of Compliance) — Contact details: 0113 496 0721 / "
        "speakup@example.co.uk; Availability: Mon-Fri, 8am to 6pm"
    )
    asked = "What's the name of the head of compliance?"
    assert names_no_one(asked, [row])
    named = "Booking Secretary — Name: Janet Thorne; Telephone: 01398 552417"
    assert not names_no_one("What's the name of the booking secretary?", [named])


def test_only_the_best_sentences_negation_speaks_of_the_other_case() -> None:
    text = (
        "Sickness and diarrhoea: keep your child at home until 48 hours after the last "
        "episode. If your child will not be coming in, phone the nursery by 9:30am."
    )
    first, second = (s.strip() for s in text.split(". ", 1))
    chunk = _chunk(text)
    question = "My son was sick twice this morning - when can he come back to nursery?"
    assert reading_conflict(question, [(first + ".", chunk), (second, chunk)]) is None
    # the same negation in the best sentence is the other case
    assert reading_conflict(question, [(second, chunk)]) is not None


@pytest.mark.parametrize(
    ("question", "text"),
    [
        (
            "what happens if not enough people sign up and my course doesn't go ahead?",
            "If we cancel a course, you will receive a full refund. Courses need a minimum "
            "of 8 learners to run.",
        ),
        (
            "Can I still cancel my collection the day before without losing my money?",
            "You can cancel a booking free of charge up to 2pm on the working day before.",
        ),
        (
            "Can I cancel the tour without losing my deposit?",
            "Deposits are refunded in full for cancellations made 30 days before departure.",
        ),
        (
            "the trip date has changed, can we move it without losing our deposit",
            "The exception is a date change made more than 28 days before the original date: "
            "in that case we transfer your deposit to the new date.",
        ),
    ],
)
def test_a_negation_said_in_other_words_answers_a_negated_question(
    question: str, text: str
) -> None:
    assert reading_conflict(question, [(text, _chunk(text))]) is None


def test_for_no_particular_reason_is_no_negation() -> None:
    text = (
        "If you want to leave for any other reason, you can buy out the rest of your term "
        "by paying an early termination fee equal to 50% of the remaining monthly fees."
    )
    question = "What's the early termination fee if I leave for no particular reason?"
    assert reading_conflict(question, [(text, _chunk(text))]) is None
    assert negation_unmatched("Which fees are charged for no show?", text) == "no"


def test_an_aside_after_the_question_is_no_part_of_it() -> None:
    """ "… ? I want to ask about an exception." asks nothing: the who-question alone must be
    met, and a sentence naming only the role it asks about does not meet it."""
    rule = "Requests for exceptions to these criteria must be approved by the Head of Reward."
    asked = "Who is the Head of Reward at the moment? I want to ask about an exception."
    conflict = reading_conflict(asked, [(rule, _chunk(rule))])
    assert conflict is not None and "asks who" in conflict


def test_a_price_row_does_not_answer_whether_there_is_a_discount() -> None:
    row = "IBSP member - full conference (3 days) — Early Bird: £495; Standard: £595"
    conflict = reading_conflict(
        "Is there a discount for retired IBSP members?", [(row, _chunk(row))]
    )
    assert conflict is not None and "discount" in conflict
    offer = "Retired members receive 20% off the full conference rate."
    assert (
        reading_conflict("Is there a discount for retired members?", [(offer, _chunk(offer))])
        is None
    )


def test_falling_short_and_any_other_say_the_questions_negation() -> None:
    spend = "If your group's spend falls short of the minimum, we'll charge the difference."
    asked = "What happens if our group doesn't reach the minimum spend?"
    assert negation_unmatched(asked, spend) is None
    portal = (
        "Install software only from the Company Portal app. Requests for any other software "
        "are approved by the IT Security Manager."
    )
    asked = "Who approves requests to install software that isn't in the Company Portal?"
    assert negation_unmatched(asked, portal) is None
    plain = "Requests for software are approved by the IT Security Manager."
    assert negation_unmatched(asked, plain) == "n't"


def test_a_thing_that_stopped_working_is_the_negated_case() -> None:
    said = ["Emergency repairs, such as no heating in winter, should be reported at any time."]
    asked = "The heating in my room has packed up and it's 11pm - who do I call?"
    assert negated_in_quote(asked, said) is None
    assert negated_in_quote("Who do I call about the heating in my room?", said) == "heating"


def test_a_lower_price_answers_a_question_about_not_paying_the_full_one() -> None:
    """ "Without paying full whack" asks for a cheaper way, which a price answers; a quote
    with no price still does not answer "without paying"."""
    asked = "I'm away for 6 weeks, can I keep my locker without paying full whack?"
    assert negation_unmatched(asked, "A paused membership costs £10.00 a month.") is None
    assert negation_unmatched(asked, "Members keep their locker for the year.") == "without"
    assert negation_unmatched("Can I park without a permit?", "Permits cost £5.") == "without"


def test_a_negated_circumstance_in_a_condition_is_not_the_questions_negation() -> None:
    """ "if the buses aren't running" is the buses' case, not a negated question; "if I
    don't attend" is the asker's."""
    taxi = "We will reimburse a taxi fare of up to £30 each way."
    assert negation_unmatched("can I get a taxi paid for if the buses aren't running", taxi) is None
    refund = "Refunds are given if you cancel 48 hours before."
    assert negation_unmatched("can I get a refund if I don't attend?", refund) == "n't"
    closed = "Staff are paid in full when the site is closed."
    assert negation_unmatched("am I paid if the site is closed and I can't work?", closed) == "n't"


@pytest.mark.parametrize(
    ("sentence", "gives"),
    [
        ("Night service — Days: Sunday to Thursday nights; Times: 01:00 to 02:30", True),
        ("Please put your bins out by 6.30am on your collection day.", True),
        ("Reception closes at noon on Christmas Eve.", True),
        ("Orders placed before 1400 hrs are sent the same day.", True),
        ("The canteen is open Monday to Friday.", False),
        ("Rooms hold up to 14 people.", False),
        ("It lasts 13 pm, which is no time.", False),  # no such hour
    ],
)
def test_a_time_of_day_is_read_in_digits_and_words(sentence: str, gives: bool) -> None:
    assert gives_time_of_day(sentence) is gives
    assert asks_time_of_day("what time does the hot food come round on the night shift")
    assert not asks_time_of_day("When was the river system formed?")
