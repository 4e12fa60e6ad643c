"""Blind rounds 16-22, 25-28, 35-38, 47, 50, 61 and 62, end to end: documents written for the
check by people who never saw the code (a tenant handbook in PDF, a library policy in DOCX, an
on-call guide in Markdown; a dental clinic's page in HTML, a home contents policy in DOCX, warehouse
safety rules in text; bank account terms in PDF, a food bank's volunteer handbook in
Markdown, a council's recycling guide in DOCX; a summer camp handbook in PDF, an IT
acceptable-use policy in Markdown, car rental terms in HTML; a hospital visitor guide in
DOCX, co-working terms in text, student accommodation rules in PDF; a vet's client terms in
Markdown, a parental leave policy in PDF, a shop's delivery and returns page in HTML; a
sports club handbook in DOCX, a data retention policy in text, a parking permit guide in
Markdown; an IT equipment policy in PDF, travel insurance wording in DOCX, a school trip
letter in HTML; a tenant handbook in DOCX, a leisure centre's timetable in Markdown, release
notes in text; a hospital guide in PDF, bike-share terms in HTML, a volunteer handbook in
Markdown; warranty terms in text, library rules in PDF, a restaurant's booking policy in
DOCX; a school's uniform and attendance policy in DOCX, a campsite's booking conditions in
text, an energy tariff guide in PDF; co-working terms in Markdown, a pension guide in PDF,
removal terms in DOCX; a museum's visitor page in HTML, an API service level agreement in
text, allotment rules in DOCX; village hall hire terms in PDF, a mobile plan's terms in
HTML, a lone-working procedure in Markdown; a music school's terms in PDF, a water company's
billing guide in text, a hotel's event conditions in Markdown; a cinema's membership terms in
HTML, a letting agent's pet policy in DOCX, a cloud storage product's plans in text; a dog
daycare's terms in text, a wedding venue's terms in PDF, a data request procedure in DOCX; a caravan
park's owner terms in Markdown, a council's planning fees guide in HTML, a sports centre's
rules in PDF:
eval/rounds/), each round in its own
store, asked in the users' words. Each case failed before its fix: an exact quote from a
low-ranked passage degraded to "no verified answer", a table row whose label or range the
question names just under the relevance floor, "respond" where the table writes
"Acknowledge", "never … before" said as "new", a phone line after the sentence that answers,
"the second" instalment, a clause title opening its line, "jab" for vaccination, "my money"
for the refund, the asker's verb ("have to pay") or a phone number's label taken for the
topic, a phone number in another passage or just under the floor, and questions asking for a
phone number, a name or a price answered by sentences that give none, and a sentence saying
what its document is for quoted as the answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from tests.verified_quotes import verified_claims

ROUNDS = Path(__file__).resolve().parents[2] / "eval" / "rounds"


@pytest.fixture(scope="module")
def rounds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, Ragcite]]:
    opened: dict[int, Ragcite] = {}
    numbers = (16, 17, 18, 19, 20, 21, 22, 25, 26, 27, 28, 35, 36, 37, 38, 47, 50, 61, 62, 63, 64)
    for number in numbers:
        path = tmp_path_factory.mktemp(f"round{number}") / "store.db"
        rag = Ragcite.open(load_settings(store_path=path, overrides={"cache.enabled": False}))
        assert rag.ingest([ROUNDS / f"r{number}" / "docs"]).added == 3
        opened[number] = rag
    yield opened
    for rag in opened.values():
        rag.close()


@pytest.fixture(scope="module")
def floor_rounds(rounds: dict[int, Ragcite]) -> Iterator[dict[int, Ragcite]]:
    """The same stores with the plain relevance floor deciding whether the generator answers
    (`generate.answer_decision = "floor"`): for what is quoted, or which check declines,
    once it answers."""
    opened = {
        number: Ragcite.open(
            rag.settings.model_copy(
                update={
                    "generate": rag.settings.generate.model_copy(
                        update={"answer_decision": "floor"}
                    )
                }
            )
        )
        for number, rag in rounds.items()
    }
    yield opened
    for rag in opened.values():
        rag.close()


@pytest.mark.parametrize(
    ("number", "question", "expected"),
    [
        (16, "how much notice do I need to give before moving out?", "28 days' written notice"),
        (
            17,
            "I just bought the insurance and changed my mind, can I get my money back?",
            "we will refund the full premium",
        ),
        (16, "how fast do I need to respond to a SEV3?", "Acknowledge within: 4 business hours"),
        (
            18,
            "How much can I send online in a day to someone I've never paid before?",
            "new payee: up to EUR 5,000 per day",
        ),
        (20, "what number do I ring for PALS?", "Phone: 01632 960 418"),
        (20, "when do I have to pay the second lot of rent?", "Instalment 2: 35% of the total"),
        (20, "how much is a hot desk a month?", "Price: £189 per month."),
        (21, "how much is my cat's yearly booster jab?", "Annual cat booster"),
        (21, "I posted my return last week, when will I get my money?", "process your refund"),
        (22, "I'm 22, how much is a year's membership if I pay it all upfront?", "£240"),
        # "pay" is how the asker puts it, not the topic
        (16, "I lost a library book, what will I have to pay?", "$15 processing fee"),
        (16, "can I push to prod on Friday afternoon?", "No production deploys after 15:00"),
        # the PALS manager's line stands in another passage, the contacts list
        (
            27,
            "what's the phone number for PALS? I want to raise a concern about my mum's care",
            "01632 960 455",
        ),
        (
            27,
            "roughly how much will it cost me to park for about 3 hours while I visit?",
            "£5.40",
        ),
        # "For personal travel abroad, …" after the rule for business travel
        (
            25,
            "Going to Spain on holiday in a couple of weeks, am I allowed to bring my work laptop "
            "with me?",
            "written approval from the IT Security Lead",
        ),
        # "for over-65s" in the concession row's cells
        (26, "I'm 68 and retired - what's the monthly price for me to use everything?", "£24.00"),
        # "General enquiries: Library Help Desk, 01632 960 400": no word "phone"
        (28, "what's the phone number for the library help desk?", "01632 960 400"),
        (
            28,
            "what number do I ring to report my dishwasher has broken down?",
            "0800 046 7721",
        ),
        # a sentence ranked within 0.05 of the best, with a choice probability of 0.45 or
        # more, is cited beside it
        (16, "how long can a PhD student keep a library book?", "12 weeks"),
        # the best sentence ("… unless the change is requested more than 8 weeks ahead")
        # does not hold 6 weeks; the band that does is added
        (35, "If I cancel my booking about 6 weeks before the date, do I lose any money?", "50%"),
        # a contact asked for after the asker's situation needs no word "call"; the question
        # map picks the line for those struggling to pay over the billing line
        (
            36,
            "I'm really behind on my energy bills, what's the number to call for help?",
            "0330 088 4133",
        ),
        # "option" shapes the question
        (
            37,
            "if I bump my pension up to the enhanced option, how much does the company put in?",
            "6%",
        ),
        # fixed-width tables in text files are rows with their headers
        (
            28,
            "I'm on the Plus plan, how much do I have to pay myself each time I make a claim?",
            "Plus — Monthly cost: £9.99; Annual cost: £105.00; Excess per claim: £25",
        ),
        (
            26,
            "we're on 6.2 - when does normal support for that finish?",
            "6.2 — Released: 11 Mar 2024; Mainstream support ends: 31 Mar 2026",
        ),
        (
            36,
            "I've booked a pod but need to cancel 10 days before we're due to arrive. how much "
            "of the money do I lose?",
            "7 to 14 days — Pitch bookings: Deposit kept only; Pod bookings: 75% of total price",
        ),
        (
            38,
            "we're on the Growth plan, what uptime are you actually promising us?",
            "Growth — Monthly fee: $249; Uptime commitment: 99.9%;",
        ),
        (
            50,
            "I deleted a file on my Personal plan about 45 days ago, will it still be in the "
            "trash?",
            "Personal — Max file (web): 5 GB; Max file (desktop/mobile app): 50 GB; "
            "Version history: 90 days; Trash kept for: 60 days",
        ),
        (
            50,
            "my card payment didn't go through, how long before I lose my files?",
            "Payment failed after 3 retries — How long files are kept: 90 days from last retry",
        ),
        # a price asked for needs no word "price" in the row that states it
        (
            47,
            "I've got a water meter, what's the price per cubic metre for the water itself?",
            "Water usage — Metered customers: GBP 1.8420 per cubic metre",
        ),
        # "for nothing" asks whether it is free
        (
            47,
            "the pipe between my front gate and the house is leaking, will you fix it for nothing?",
            "we will repair it free of charge once",
        ),
        # a price written with its currency code ("GBP 26.00") is a price
        (
            36,
            "we've got a tent with no hook up and want to come in mid August, what's the price "
            "per night?",
            "Grass pitch, tent (no electric) — Low season: GBP 18.00; High season: GBP 26.00",
        ),
        # "am I in trouble?" asks what happens, and names no topic
        (
            38,
            "I totally forgot to pay my allotment rent and it's now mid November, am I in trouble?",
            "30 November",
        ),
        # "These terms apply to every owner …" says what the document is for, not when
        # the learned question map (fitted on rounds before 55) ranks the fee that answers
        # over the collection time the question resembles
        (
            61,
            "I'm running late from work and won't get to pick up my dog until 7pm, will I be "
            "charged?",
            "A late collection fee of £15",
        ),
        # asked at night: the out-of-hours line, not reception's
        (
            62,
            "there's water pouring out under our caravan and it's 11pm, what number do I ring?",
            "Emergency out-of-hours (security) — Contact: 07700 900 481",
        ),
        # locked out in the evening: the key holder's line, well under the relevance floor
        (
            64,
            "I'm doing an evening shoot and got locked out of the studio - who do I ring?",
            "Out-of-hours key holder",
        ),
        (
            64,
            "It's the middle of the night at the weekend and I've got no food and no money at "
            "all. Is there anyone at the uni I can ring?",
            "01632 960 999",
        ),
        # the question proper names nothing: the situation is what it is about ("dad")
        (
            63,
            "I need to cancel dad's carer for tomorrow morning, it's only about 20 hours away "
            "now. Will we still get charged for it?",
            "the full charge for the visit applies",
        ),
        # the number asked for, in a contact row just under the relevance floor
        (
            62,
            "who do I call to report my neighbour building something without permission?",
            "Contact: 01629 555 748",
        ),
    ],
)
def test_the_answer_is_quoted(
    rounds: dict[int, Ragcite], number: int, question: str, expected: str
) -> None:
    claims = verified_claims(rounds[number].ask(question))
    assert any(expected in claim for claim in claims), claims


def test_the_map_quotes_the_answer_once_the_generator_answers(
    floor_rounds: dict[int, Ragcite],
) -> None:
    """The question map's example: the answer, once the generator answers. The learned
    answer decision declines it (relevance 0.41; the sentence holds one of the question's
    five words), so the plain floor decides here."""
    question = "when do I actually get paid for the weeks my caravan has been rented out?"
    claims = verified_claims(floor_rounds[62].ask(question))
    assert any("on the 15th of the month following the stay" in c for c in claims), claims


@pytest.mark.parametrize(
    ("number", "question", "reason"),
    [
        (16, "what's the phone number for the engineering manager on duty?", "a phone number"),
        (
            17,
            "what's the phone number for AFCA if I want to take my complaint further?",
            "a phone number",
        ),
        (17, "what's the name of the site health and safety manager?", "name no one"),
        # the IT service desk's number, beside the officer's email, is not the officer's
        (19, "what's the phone number for the data protection officer?", "a phone number"),
        (20, "what's the name of the community manager at the Foundry?", "name no one"),
        (20, "how much is a weekly parking pass at the hospital?", "state no price"),
        (20, "how much does the bedside TV cost per day?", "state no price"),
        (19, "is there a fee if I drop the car off at a different branch?", "state no price"),
        (19, "is there a discount at camp if I book all eight weeks?", "about a discount"),
        # the map's pick, the PE polo shirt's price, is less relevant than the shorts' line
        (36, "how much do the navy PE shorts cost from Pennant Schoolwear?", "state no price"),
        (
            22,
            "what's the name of the person who is the Data Protection Lead?",
            "name no one",
        ),
    ],
)
def test_a_sentence_that_gives_no_number_name_or_price_is_declined(
    rounds: dict[int, Ragcite],
    floor_rounds: dict[int, Ragcite],
    number: int,
    question: str,
    reason: str,
) -> None:
    """Declined by default; the generator's own check says why once the generator answers
    (with the plain floor deciding: the learned answer decision declines some of these
    before the check reads them)."""
    assert not rounds[number].ask(question).answerable
    response = floor_rounds[number].ask(question)
    assert not response.answerable and reason in response.confidence_reason
