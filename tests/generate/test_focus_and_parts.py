"""Question focus, the sentences that match it, and unanswered parts said in plain words."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from ragcite.generate.bands import tightest_bands
from ragcite.generate.contact_fit import OUT_OF_HOURS_FIT, contact_fit
from ragcite.generate.fits import (
    band_bound,
    candidate_fit,
    cell_fit,
    label_fit,
    range_fit,
    range_width,
    row_fit,
)
from ragcite.generate.focus import focus_match, leading_statement, question_focus, question_proper
from ragcite.generate.joining import (
    Candidate,
    next_step,
    price_kept_honest,
    rank,
)
from ragcite.generate.missing_parts import beside_the_last_answer, not_in_documents
from ragcite.generate.negated_labels import label_negated
from ragcite.generate.row_rules import rules_over_rows
from ragcite.generate.sentence_choice import FEATURES, WindowSentence, choice_features, stems


@pytest.mark.parametrize(
    ("question", "focus"),
    [
        ("What happens when an upload exceeds its limit?", "consequence"),
        ("Can the workspace region be changed later?", "permission"),
        ("When was the Duchy of Normandy founded?", "date"),
        ("How much is the late payment fee?", "amount"),
        ("How many users does the Team plan allow?", "amount"),
        ("Who approves purchases over $50,000?", "role"),
        ("How long are invoices kept?", "duration"),
        ("How fast does support respond to a critical ticket?", "duration"),
        ("How quickly must a phishing email be reported?", "duration"),
        ("How soon after a trip are claims due?", "duration"),
        ("How much notice do you need to hire the whole venue?", "duration"),
        ("How far ahead can we book our treatments?", "duration"),
        ("Why is MFA required?", "reason"),
        ("Is SSO included in the Free plan?", "yes_no"),
        ("Do I need a receipt for a taxi?", "permission"),
        ("Do company laptops have to be encrypted?", "permission"),
        ("Is a purchase order required for software?", "permission"),
        ("Must we report a lost phone?", "permission"),
        ("got an old baby car seat to get rid of, ok to sell it?", "permission"),
        ("alright if I park on the verge?", "permission"),
        ("Do remote workers get an internet allowance?", "yes_no"),
        ("Describe the backup process.", "other"),
        ("What's the fee for a late return?", "amount"),
        ("What's the phone number for the ICO?", "amount"),
        ("If you find fleas on my dog, what extra will I have to pay?", "amount"),
        ("What will it cost me to change the date?", "amount"),
        ("What is the maximum length of a flexible working trial period?", "duration"),
        ("What is the length of the Rhine?", "other"),
        ("Lost my fob, what's it going to cost me to get another?", "amount"),
        ("What should I pay attention to at the viewing?", "other"),
        ("What's the cut-off for overtime claims?", "date"),
        ("I'm 87 - am I still covered by the accident insurance?", "permission"),
        ("My daughter is 15, can she volunteer by herself?", "permission"),
        ("We're on the Starter plan. Can we phone support?", "permission"),
    ],
)
def test_question_focus(question: str, focus: str) -> None:
    assert question_focus(question) == focus


@pytest.mark.parametrize(
    ("focus", "answer", "restatement"),
    [
        (
            "consequence",
            "Such uploads are rejected with status 413 and nothing is stored.",
            "Each upload may carry a file of at most 50 MB.",
        ),
        (
            "permission",
            "The region cannot be changed after the workspace has been created.",
            "The region is chosen by the workspace owner.",
        ),
        ("duration", "Invoices are kept for seven years.", "Invoices are kept by Finance."),
        ("date", "The policy took effect on 1 March 2024.", "The policy took effect recently."),
    ],
)
def test_the_answering_sentence_matches_the_focus(
    focus: str, answer: str, restatement: str
) -> None:
    assert focus_match(focus, answer) == 1.0
    assert focus_match(focus, restatement) == 0.0


def test_a_question_without_focus_matches_every_sentence_halfway() -> None:
    assert focus_match("other", "Anything at all.") == 0.5


def test_missing_parts_are_said_as_indirect_questions() -> None:
    assert not_in_documents(
        [
            "how much are meals reimbursed",
            "does the EU differ from the US",
            "how long is the notice period",
            "can the region be changed later",
            "who approves purchases over $10,000",
        ]
    ) == [
        "The documents do not say how much meals are reimbursed.",
        "The documents do not say whether the EU differs from the US.",
        "The documents do not say how long the notice period is.",
        "The documents do not say whether the region can be changed later.",
        "The documents do not say who approves purchases over $10,000.",
    ]


def test_a_rows_label_fits_the_amount_the_question_names() -> None:
    rows = [
        "Up to $1,000 — Approver: Budget holder",
        "$1,001 to $10,000 — Approver: Department head",
        "$10,001 to $50,000 — Approver: Finance Director",
        "Over $50,000 — Approver: Chief Financial Officer and CEO",
    ]
    assert [row_fit(r, "Who approves a purchase of $25,000?") for r in rows] == [0, 0, 1, 0]
    assert [row_fit(r, "Who approves a $600 laptop?") for r in rows] == [1, 0, 0, 0]
    # The question says the last row's label. "Over $50,000" is not 50,000 itself: the range
    # that ends at 50,000 does not fit, nor does one that holds only some amounts over 5,000.
    assert [row_fit(r, "Who approves purchases over $50,000?") for r in rows] == [0, 0, 0, 2]
    assert [row_fit(r, "Who approves purchases over $60,000?") for r in rows] == [0, 0, 0, 1]
    assert [row_fit(r, "Who approves an expense over $5,000?") for r in rows] == [0, 0, 0, 0]
    ratings = ["1 – Unsatisfactory — Pay rise: No increase", "4 – Exceeds — Pay rise: 4% to 5.5%"]
    assert [
        row_fit(r, "If I get rated a 4, what pay increase should I expect?") for r in ratings
    ] == [0, 1]


def test_a_row_whose_cell_holds_the_measure_the_question_names_fits() -> None:
    units = [
        "Small — Approx. floor area: 25 sq ft; Weekly rate: £13.00",
        "Medium — Approx. floor area: 50 sq ft; Weekly rate: £21.00",
    ]
    question = "How much would a 50 sq ft storage unit cost me a month?"
    assert [cell_fit(r, question) for r in units] == [0, 1]
    lessons = [
        "Standard lesson — Duration: 1 hour; Automatic: £42",
        "Double lesson — Duration: 2 hours; Automatic: £82",
    ]
    assert [cell_fit(r, "how much is a 2 hour lesson in an automatic?") for r in lessons] == [0, 1]
    # A bare number, or one followed by a small word, names no measure; nor does the label.
    assert cell_fit(units[1], "we are 2 and 50 of us") == 0
    assert cell_fit("50 sq ft — Weekly rate: £21.00", "a 50 sq ft unit?") == 0


def test_a_row_whose_label_the_question_negates_is_the_other_case() -> None:
    stock = "Item in Marlowe stock — Adult card: Free; Children's card: Free"
    other = "Item from another library authority — Adult card: 4.50 GBP"
    asked = "the book I want isn't in Marlowe's stock, how much is it on my adult card?"
    assert label_negated(stock, asked) and not label_negated(other, asked)
    # its fit by the label the question nearly names counts for nothing
    assert candidate_fit(stock, asked, is_row=True) == (0, True)
    members = "Members — Day pass: £5"
    assert label_negated(members, "I'm not a member, how much is a day pass?")
    assert not label_negated("Non-members — Day pass: £8", "I'm not a member, what's a day pass?")
    assert not label_negated(members, "I'm a member, how much is a day pass?")


def test_a_row_whose_label_the_question_nearly_names_fits() -> None:
    """All but one of three label words: "a routine check-up for an adult" names "Routine
    examination (adult)"; two of a two-word label are not enough to be nearly named."""
    assert (
        row_fit("Routine examination (adult) — Fee: £48", "a routine check-up for an adult?") == 1
    )
    assert (
        row_fit("Child examination (under 16) — Fee: £25", "a routine check-up for an adult?") == 0
    )
    assert row_fit("Porcelain crown — Fee: £620", "How much is a crown?") == 0


def test_a_dated_label_is_named_by_its_month_when_the_question_names_no_year() -> None:
    """A pay-dates table's "September 2025" is the row for "to get it in september pay";
    a question naming another year, or a label that is only a year, is not read so."""
    row = "September 2025 — Pay date: Friday 26 September; Overtime cut-off: Monday 15 September"
    asked = "did overtime in early september, when does it need signing off for september pay?"
    assert row_fit(row, asked) == 2
    assert row_fit(row, asked.replace("september pay", "september 2026 pay")) == 0
    assert row_fit("Spring 2026 — First class: 5 January 2026", "when does spring term start?") == 2
    assert row_fit("2025 — Fee: £40", "what is the fee this year?") == 0


def test_a_label_is_named_by_whole_words_and_a_letter_only_as_a_capital() -> None:
    """Rows labelled "A", "B", "C" (berth bands) are not named by the article "a" or the "b"
    of "berth"; "pontoon B" names one; a label is named in the plural too."""
    band_a = "A — Vessel length: Up to 9.99 m; Annual: £465"
    band_b = "B — Vessel length: 10.00 m to 11.99 m; Annual: £510"
    question = "we want to pay the annual berth fee monthly, is there a charge for that?"
    assert row_fit(band_a, question) == 0 and row_fit(band_b, question) == 0
    assert row_fit(band_b, "What is the annual rate on pontoon B?") == 2
    assert row_fit(band_a, "A berth for my yacht, how much?") == 0  # the article
    assert row_fit("Member — Day pass: £5", "how much is a day pass for members?") == 2
    assert row_fit("Member — Day pass: £5", "how much is a day pass for non-membership?") == 0


def test_when_the_askers_case_happened_names_no_row() -> None:
    """ "bounced last month" says when, not which row: no "Fixed monthly Direct Debit"; a
    question asking about paying every month still names it."""
    row = "Fixed monthly Direct Debit — Discount or charge: £6.00 discount per fuel per month"
    assert row_fit(row, "My direct debit bounced last month, will you charge me a fee?") == 0
    assert row_fit(row, "I was charged twice for my direct debit two months ago, why?") == 0
    assert row_fit(row, "Is there a discount if my direct debit is fixed each month?") == 1


def test_the_askers_age_does_not_fit_a_label_numbering_levels() -> None:
    """ "my daughter is 7" is no "Stages 6 and 7" nor "Stage 7"; "stage 7" named still fits,
    and an age still fits an age band."""
    asked = "My daughter is 7 and can't swim yet, which group would she start in?"
    assert row_fit("Stages 6 and 7 — Who it is for: Can swim 25 metres", asked) == 0
    assert label_fit("Stage 7: advanced strokes", asked) == 0
    assert label_fit("Stage 7: advanced strokes", "What do they learn in stage 7?") == 2
    assert row_fit("Young adult (18–25) — Annual: £240", "I'm 22, how much is a year?") == 1


def test_a_bands_unit_of_time_is_read_and_the_tightest_band_answers() -> None:
    """ "for about 3 hours" is no "Up to 30 minutes"; of "Up to 4 hours" and "Up to 24
    hours", both holding it, the tighter one answers."""
    rows = [
        "Up to 30 minutes — Parking charge: Free",
        "Up to 2 hours — Parking charge: £3.20",
        "Up to 4 hours — Parking charge: £5.40",
        "Up to 24 hours — Parking charge: £9.00",
    ]
    asked = "How much is it to park for about 3 hours?"
    assert [row_fit(r, asked) for r in rows] == [0, 0, 1, 1]
    assert [band_bound(r) for r in rows] == [30, 120, 240, 1440]
    assert band_bound("Over 65 — Price: £20") == -65
    assert band_bound("$1,001 to $10,000 — Approver: Department head") is None
    candidates = [
        Candidate(0, i, 0, r, r, "c1", 0.5, row_fit(r, asked)) for i, r in enumerate(rows)
    ]
    assert [c.fit for c in tightest_bands("", candidates)] == [0, 0, 1, 0]


def test_of_a_tables_rows_whose_range_holds_the_askers_number_the_narrowest_answers() -> None:
    """ "turns 16" is in "Aged 16 or 17" and in "Anyone aged 16 or over" (not in "Under 16"),
    and the two rows stand in two passages: the narrower range answers."""
    rows = [
        "Junior — Who it is for: Under 16; Price: £20.00",
        "Intermediate — Who it is for: Aged 16 or 17; Price: £35.00",
        "Day ticket — Who it is for: Anyone aged 16 or over; Price: £10.00",
    ]
    asked = "my lad turns 16 this summer. which permit does he need and how much"
    widths = [range_width(r, asked) for r in rows]
    assert widths[0] is None and widths[1] == 1.0 and widths[2] > 1e6
    candidates = [
        Candidate(i // 2, i, 0, r, r, f"c{i // 2}", 0.5, range_fit(r, asked))
        for i, r in enumerate(rows)
    ]
    assert [c.fit for c in tightest_bands(asked, candidates)] == [0, 1, 0]


def test_a_rule_naming_a_rows_label_answers_a_may_i_question_before_the_row() -> None:
    """The row named by the question says nothing it asks (berths, prices); the sentence
    naming the same boat states the rule. A row with a cell for what is asked keeps its fit,
    and so does a row when no sentence names its label or the question asks a price."""
    row = "Kingfisher — Berths: 2; Length: 45 ft; Low season (Nov–Mar): £845"
    rule = "Dogs are not allowed on Kingfisher."
    asked = "we've got 2 cocker spaniels, can they come with us on Kingfisher?"
    candidates = [
        Candidate(0, 1, 0, row, row, "c1", 0.34, row_fit(row, asked)),
        Candidate(1, 2, 0, rule, rule, "c2", 0.43),
    ]
    assert candidates[0].fit == 2
    assert [c.fit for c in rules_over_rows(asked, candidates)] == [0, 0]
    assert max(rules_over_rows(asked, candidates), key=rank).text == rule
    assert max(candidates, key=rank).text == row  # without it, the row's label wins
    with_dogs = "Kingfisher — Berths: 2; Spaniels welcome: No"
    kept = [replace(candidates[0], text=with_dogs), candidates[1]]
    assert [c.fit for c in rules_over_rows(asked, kept)] == [2, 0]
    other = replace(candidates[1], text="Dogs are not allowed on the beds.")
    assert [c.fit for c in rules_over_rows(asked, [candidates[0], other])] == [2, 0]
    price = "how much is Kingfisher in November?"
    assert [c.fit for c in rules_over_rows(price, candidates)] == [2, 0]


def test_of_two_open_ranges_holding_the_askers_number_the_nearer_bound_answers() -> None:
    """A 67-year-old is "aged 65+" and "Aged 18 or over": the concession row answers."""
    rows = [
        "Senior first-claim — Who it is for: Aged 18 or over on 1 April; Total: £66.00",
        "Concession first-claim — Who it is for: Full-time students, aged 65+; Total: £51.00",
    ]
    asked = "I'm 67 and retired, how much would it cost me to join as first claim?"
    candidates = [
        Candidate(0, i, 0, r, r, "c0", 0.5, range_fit(r, asked)) for i, r in enumerate(rows)
    ]
    assert [c.fit for c in candidates] == [1, 1]
    assert [c.fit for c in tightest_bands(asked, candidates)] == [0, 1]


def test_clock_times_are_no_range_of_numbers() -> None:
    row = "Little Wheels — When: Tue, 10:00–11:30; Who it's for: Under-5s; Child: £6.50"
    assert range_fit(row, "how much is it for my 10 year old?") == 0
    assert range_fit("Kids Club — Ages: 5–12; Price: £4", "how much is it for my 10 year old?") == 1


def test_a_sentence_fits_when_the_questions_number_falls_in_its_range() -> None:
    surcharge = "Drivers aged 21 to 24 pay a young driver surcharge of £14 per day."
    assert range_fit(surcharge, "I'm 23 - do I have to pay anything extra?") == 1
    assert range_fit(surcharge, "I'm 30 - do I have to pay anything extra?") == 0
    assert range_fit("Staff on grade 7 and above are not eligible.", "I'm on grade 8") == 1
    assert range_fit("Children 12 or under go free.", "Is my 15 year old free?") == 0
    concession = "Concession — Monthly: £24.00; Who: for over-65s and full-time students"
    assert range_fit(concession, "I'm 68 and retired - what's the monthly price?") == 1
    assert range_fit("Open to ages 65+ only.", "I'm 70") == 1
    assert range_fit("Under-18s go free.", "My son is 10") == 1
    assert range_fit("Golden Oldie dog (8 years+) — Fee: £120", "to adopt a 10 year old dog") == 1
    assert range_fit("a cat aged 8 years or over, we charge half", "my cat is 9 years old") == 1
    assert range_fit("Fee: £5 + VAT", "I'm 70") == 0
    assert range_fit(surcharge, "Do I have to pay anything extra?") == 0
    counted_down = "If you cancel between 21 and 8 days before, we'll refund half of it."
    assert range_fit(counted_down, "We're cancelling 10 days before, do we get it back?") == 1
    assert range_fit(counted_down, "We're cancelling 30 days before, do we get it back?") == 0
    # the question's time read in the range's unit: two weeks is 14 days, 5 weeks 35
    assert range_fit(counted_down, "We're cancelling two weeks before the event") == 1
    assert range_fit(counted_down, "We're cancelling 5 weeks before the event") == 0
    arrival = "If you cancel between 14 and 28 days before arrival, your deposit is kept."
    assert range_fit(arrival, "It's 3 weeks before we were due to arrive") == 1
    assert range_fit(arrival, "We're a party of 20, can we cancel?") == 0
    shares = "Between 90% and 95%, half of the fortnightly payment is made."
    assert range_fit(shares, "What if my attendance is 92% for a fortnight?") == 1
    assert range_fit(shares, "What if my attendance is 85% for a fortnight?") == 0


def test_a_labelled_line_fits_when_the_question_names_its_labels_number() -> None:
    second = "Instalment 2: 35% of the total, due 10 January 2025"
    third = "Instalment 3: 35% of the total, due 25 April 2025"
    question = "when do I have to pay the second lot of rent?"
    assert [label_fit(second, question), label_fit(third, question)] == [2, 0]
    assert label_fit("Above $5,000: approved by the CFO.", "Who approves over $5,000?") == 2
    assert label_fit("From $500 to $5,000: your head.", "Who approves over $5,000?") == 0
    assert label_fit("Payment is due on the 2nd of each month.", "the second payment?") == 0


def test_the_sentence_after_the_best_match_that_covers_the_rest_of_the_question() -> None:
    window = [
        WindowSentence("Larkfield Mill was built by the Pennock family.", "", 0.8, 0, 0),
        WindowSentence("The Pennocks later founded the Ashby Bank.", "", 0.5, 0, 1),
        WindowSentence("The market is held every Thursday.", "", 0.2, 0, 2),
    ]
    features = choice_features("Which bank did the family that built Larkfield Mill found?", window)
    column = {name: features[:, i] for i, name in enumerate(FEATURES)}
    assert column["complement"][1] > 0 and column["complement"][0] == 0.0
    assert list(column["after_best"]) == [0.0, 1.0, 0.0]
    assert list(column["adjacent_best"]) == [0.0, 1.0, 0.0]
    assert column["new_names"][1] > column["new_names"][2]
    assert list(column["anaphor"]) == [0.0, 1.0, 1.0]


def test_the_sentences_stems_passed_in_give_the_same_features() -> None:
    window = [
        WindowSentence("Invoices are kept for seven years.", "Retention", 0.7, 0, 0),
        WindowSentence("Receipts — Kept: 3 years; Owner: Finance", "Retention", 0.6, 0, 1),
        WindowSentence("They are then destroyed.", "", 0.4, 1, 0),
    ]
    question = "How long are invoices kept?"
    own = [stems(s.text) for s in window]
    assert np.array_equal(choice_features(question, window, own), choice_features(question, window))


def test_the_askers_situation_is_cut_off_the_question_proper() -> None:
    """A situation may hold commas when a full stop ends it; a condition ("If …,") is part
    of the question."""
    asked = "I don't want to sign up, I just want to turn up to the odd class. How much is one?"
    assert question_proper(asked) == "How much is one?"
    assert leading_statement("I'm 23 - do I have to pay extra?") == "I'm 23 - "
    assert leading_statement("If I am ill, can I cancel?") == ""
    # a situation set off by a dash before a conditional question; not a question itself
    assert leading_statement("I can't make it - if I cancel do I pay?") == "I can't make it - "
    assert leading_statement("What happens to my deposit - if I cancel?") == ""
    # commas in the situation before a dash
    flying = "I'm flying to New York for work, about 7 hours - am I allowed premium economy?"
    assert leading_statement(flying) == "I'm flying to New York for work, about 7 hours - "
    assert question_proper("How much is a class?") == "How much is a class?"
    # a situation set off by a comma or a full stop before a conditional question
    late = "traffic is awful, if i get there about 8.20 what happens to my pitch?"
    assert leading_statement(late) == "traffic is awful, "
    paid = "company paid 2k for my welding course, finished it in May. if i resign do i repay it?"
    assert question_proper(paid) == "if i resign do i repay it?"
    assert leading_statement("What happens, if I cancel?") == ""
    assert leading_statement("Dogs, if well behaved, are they allowed?") == ""


def test_an_emergency_asks_for_the_out_of_hours_line() -> None:
    """Locked out, or asked at night: the key holder's line fits twice; the office's line
    about what is asked once."""
    locked = "I'm doing an evening shoot and got locked out of the studio - who do I ring?"
    key_holder = "Out-of-hours key holder — Contact: 07700 900 318"
    assert contact_fit(key_holder, locked) == OUT_OF_HOURS_FIT
    office = "Studio bookings — Contact: 0113 496 0732"
    assert contact_fit(office, "Who do I ring about studio bookings?") == 1
    assert contact_fit(key_holder, "Who do I ring about studio bookings?") == 0
    # "collected" and "collections": one stem begins the other
    row = "Bookings and collections — Phone: 0117 496 0321"
    assert contact_fit(row, "What number do I ring to get my skip collected?") == 1


def _candidate(text: str, score: float, shift: float, position: int) -> Candidate:
    return Candidate(0, position, position * 100, text, text, "c1", score, shift=shift)


def test_the_question_map_does_not_answer_a_price_with_a_less_relevant_price() -> None:
    """The sentence naming the shorts gives no price; the map's pick, the polo shirt's row,
    gives one but is less relevant: the map's order is dropped, so the price check declines.
    Within the slack, or when the map's pick is as relevant, its order stands."""
    shorts = _candidate("Students must bring navy shorts to every PE lesson.", 0.60, -0.02, 0)
    polo = _candidate("PE polo shirt — Price: £14.00; Notes: Crested, navy", 0.56, 0.06, 1)
    asked = "how much do the navy PE shorts cost?"
    assert max([shorts, polo], key=rank) is polo
    kept = price_kept_honest(asked, [shorts, polo])
    assert max(kept, key=rank).text == shorts.text
    assert all(c.shift == 0.0 for c in kept)
    as_relevant = _candidate(polo.text, 0.595, 0.06, 1)
    assert price_kept_honest(asked, [shorts, as_relevant]) == [shorts, as_relevant]
    not_a_price = "what do the navy PE shorts look like?"
    assert price_kept_honest(not_a_price, [shorts, polo]) == [shorts, polo]


def test_a_number_word_before_what_it_counts_names_a_rows_label() -> None:
    """ "your one year fixed bond" is the row "1 Year Fixed Rate Bond"; "one-to-one" counts
    nothing."""
    asked = "I've got £3,000 to lock away, what rate would I get on your one year fixed bond?"
    assert candidate_fit("1 Year Fixed Rate Bond — AER: 4.15%", asked, is_row=True) == (1, False)
    assert candidate_fit("2 Year Fixed Rate Bond — AER: 3.95%", asked, is_row=True) == (0, False)
    lessons = "what's the cheapest way to buy one-to-one lessons?"
    assert candidate_fit("1 to 3 lessons — Price: £48 each", lessons, is_row=True) == (0, False)


@pytest.mark.parametrize(
    ("row", "fits"),
    [
        ("14 days or more before the first class — Refund: full", 1),
        ("1 to 13 days before the first class — Refund: 80% of the fee", 0),
        ("28 days or more before the first class — Refund: full", 0),
        ("7 days or less before the first class — Refund: none", 0),
    ],
)
def test_a_band_is_read_in_its_unit_and_an_amount_of_money_is_no_time(row: str, fits: int) -> None:
    """ "three weeks" is 21 days: in "14 days or more", not in "1 to 13 days" (whose unit
    follows its second number); the £35 fee is no number of days."""
    asked = "if I cancel three weeks before my course starts, do I get the £35 sign-up fee back?"
    assert candidate_fit(row, asked, is_row=True) == (fits, False)


def test_a_part_asking_only_the_cost_is_answered_beside_the_last_answer() -> None:
    """ "…, what happens and what's the cost?": the charge two sentences after the answer to
    what happens; a part naming something of its own, or a charge too far away or under the
    floor, is not taken from there."""
    overloaded = _candidate(
        "If a skip is overloaded our driver cannot legally carry it.", 0.63, 0, 0
    )
    excess = _candidate("We will ask you to remove the excess.", 0.50, 0, 1)
    charge = _candidate("If we come back, a return visit charge of £60 applies.", 0.48, 0, 2)
    far = _candidate("A wasted journey charge of £75 applies.", 0.55, 0, 6)
    candidates = [overloaded, excess, charge, far]
    assert beside_the_last_answer("what's the cost", [overloaded], candidates, 0.4) is charge
    assert beside_the_last_answer("what's the cost", [overloaded], candidates, 0.5) is None
    named = "how much is a permit for the road"
    assert beside_the_last_answer(named, [overloaded], candidates, 0.4) is None
    assert beside_the_last_answer("what happens then", [overloaded], candidates, 0.4) is None
    assert beside_the_last_answer("what's the cost", [], candidates, 0.4) is None


def test_a_refusal_right_after_a_permission_about_the_same_thing_joins_it() -> None:
    rule = _candidate(
        "You may swap a shift with another colleague in the same department who is trained "
        "for the same role.",
        0.48,
        0.0,
        0,
    )
    refusal = _candidate("Swaps between departments are not allowed.", 0.31, 0.0, 1)
    unrelated = _candidate("Uniforms are not provided for agency staff.", 0.31, 0.0, 1)
    question = "I work on reception, can I swap a shift with someone from housekeeping?"
    assert next_step(question, rule, [rule, refusal]) is refusal
    assert next_step(question, rule, [rule, unrelated]) is None
    # a no about the rule's subject that the question does not ask about stays out
    gift = _candidate("Gift recipients can return items using the gift receipt.", 0.45, 0.0, 0)
    credit = _candidate(
        "Refunds for gift returns are issued as store credit, not to the purchaser's card.",
        0.3,
        0.0,
        1,
    )
    assert next_step("Do I need a receipt for a taxi?", gift, [gift, credit]) is None


def test_what_happens_takes_the_next_sentence_that_refuses_to_pay() -> None:
    rule = _candidate(
        "We will give you an authorisation number once we have agreed the repair.", 0.52, 0.26, 0
    )
    refusal = _candidate(
        "We will not pay for any work carried out before an authorisation number has been "
        "issued, and this includes diagnostic time.",
        0.43,
        0.29,
        1,
    )
    question = (
        "What happens if the garage starts the repair before I've been given an "
        "authorisation number?"
    )
    assert next_step(question, rule, [rule, refusal]) is refusal


def test_what_the_asker_already_is_names_their_row_not_the_one_asked_about() -> None:
    """ "If I'm already a full member" is the asker's own row; the row for someone beside a
    Full member is the one a question about the asker's wife asks for."""
    full = "Full member — Who it is for: Beekeepers; Annual fee: £42.00"
    partner = "Partner member — Who it is for: Someone living with a Full member; Annual fee: £21"
    asked = "what would my wife pay to join if I'm already a full member?"
    assert [row_fit(r, asked) for r in (full, partner)] == [0, 1]
    assert row_fit(full, "How much is it to be a full member?") == 2


def test_a_sentence_opening_in_the_case_the_best_one_sets_joins_it() -> None:
    """ "During this period we will reimburse …" says what applies under the 2021 lease the
    best sentence names: it joins before the older lease's sentence, close in rank."""
    older = _candidate(
        "Under an older lease, you are responsible for all repairs and maintenance.", 0.51, 0, 1
    )
    newer = _candidate(
        "Under a 2021 model lease, there is an initial repair period of 10 years.", 0.50, 0, 2
    )
    during = _candidate(
        "During this period we will reimburse the cost of essential repairs, up to £500 a year.",
        0.30,
        0,
        3,
    )
    older, newer = replace(older, choice=0.44), replace(newer, choice=0.48)
    asked = "we're on the newer 2021 lease - will you pay for the repair?"
    assert next_step(asked, newer, [older, newer, during]) is during


@pytest.mark.parametrize(
    ("rule", "after", "asked"),
    [
        (
            "Sandals, flip-flops, heels and open-toe shoes are not allowed in the lanes.",
            "If you forget, you can borrow a pair of loan trainers from the bar for £3.00.",
            "forgot proper shoes and only have sandals with me what can i do",
        ),
        (
            "A First Aid at Work certificate can only be renewed with the refresher course "
            "while it is in date or up to 28 days after it expires.",
            "If it has been expired for longer than that, you will need to take the full "
            "three-day course again.",
            "my first aid at work cert expired about 2 months ago, can I just do the refresher?",
        ),
    ],
)
def test_a_sentence_whose_condition_is_the_case_before_it_joins_it(
    rule: str, after: str, asked: str
) -> None:
    """ "If you forget, …" and "If … longer than that, …" say what applies in the case the
    best sentence sets, cut short; a full condition of its own ("If you cancel before your
    third clean, …") does not lean on it, and "If you do, …" only goes on with it."""
    best, then = _candidate(rule, 0.44, 0, 2), _candidate(after, 0.30, 0, 3)
    assert next_step(asked, best, [best, then]) is then
    own = _candidate("If you cancel before your third clean, we charge a fee of £10.", 0.30, 0, 3)
    assert next_step(asked, best, [best, own]) is None
    allowed = _candidate("If you do, the new lock must be of the same standard.", 0.30, 0, 3)
    assert next_step(asked, best, [best, allowed]) is None  # goes on with what is allowed


def test_a_sentence_opening_on_instead_carries_on_from_the_best_one() -> None:
    best = _candidate(
        "5.1 If we cannot clear your blockage, you do not pay the full price of the job.",
        0.6,
        0,
        0,
    )
    instead = _candidate(
        "Instead you pay only the attendance charge shown in the price list.", 0.3, 0, 1
    )
    asked = "whats the deal if your guy cant shift the blockage, do i still pay the full price??"
    assert next_step(asked, best, [best, instead]) is instead


def test_a_may_i_question_takes_the_rule_after_a_best_sentence_that_states_none() -> None:
    """ "Many families … later want an acoustic one." sets the scene; the rule that answers
    "can we upgrade later?" is the sentence after it."""
    scene = _candidate(
        "Many families start with a digital piano and later want an acoustic one.", 0.6, 0, 0
    )
    rule = _candidate("You may exchange your piano for a different one once.", 0.3, 0, 1)
    asked = "we started on a digital piano, can we upgrade to an acoustic one later on?"
    assert next_step(asked, scene, [scene, rule]) is rule
    stated = _candidate("You can switch to an acoustic piano at any time.", 0.6, 0, 0)
    assert next_step(asked, stated, [stated, replace(rule, position=1)]) is None
