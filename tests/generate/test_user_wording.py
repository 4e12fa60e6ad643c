"""Questions worded as users ask them, over documents written for this check (a Markdown
parental-leave policy with a table, an HTML IT onboarding FAQ with a table, a plain-text
incident procedure, a refund procedure, office safety rules, company card rules, a
meeting-room guide, API rate limits in Markdown, an HTML help-centre article, a travel
policy, a shop's returns page, home-working guidelines, a company-car policy in PDF, a
learning-and-development policy in DOCX, a gym's membership terms: tests/data/user_wording/),
end to end through the real pipeline: shortened words ("prod"), everyday verbs ("come
back"), the asker's verbs ("read", "forgot"), currencies, opening hours, "how far in
advance", a negation by prefix ("unreconciled"), an FAQ answer quoted from its first
sentence, a sentence read under the label opening its line ("Severity 2: …"), a rule's
"unless" after a leading condition, the more relevant sentence holding the word the
question turns on, and questions the quoted sentences only seem to answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from tests.verified_quotes import verified_claims

DATA = Path(__file__).resolve().parents[1] / "data" / "user_wording"


@pytest.fixture(scope="module")
def rag(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ragcite]:
    path = tmp_path_factory.mktemp("wording") / "store.db"
    rag = Ragcite.open(load_settings(store_path=path, overrides={"cache.enabled": False}))
    assert rag.ingest([DATA]).added == 15
    yield rag
    rag.close()


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How do I get prod access?", "Production access is granted only after"),
        ("What if I don't come back after my parental leave?", "If you do not return to work"),
        ("Can I read work email on my own phone?", "Yes, if the phone is enrolled"),
        ("I forgot my password, what do I do?", "Use the self-service portal"),
        ("Can a support agent refund 150 euros on their own?", "Support agents may approve"),
        (
            "If we charged someone by mistake a year ago, can they still get a refund?",
            "Requests received after 60 days are declined unless the charge was made in error",
        ),
        ("Can I take the lift during a fire alarm?", "Leave by the nearest exit, do not use"),
        ("What happens if I don't reconcile my statement?", "Card statements are reconciled"),
        ("How far in advance can I book a meeting room?", "Bookings can be made up to 90 days"),
    ],
)
def test_a_question_in_the_users_words_is_answered(
    rag: Ragcite, question: str, expected: str
) -> None:
    response = rag.ask(question)
    assert response.answerable, response.confidence_reason
    assert any(claim.startswith(expected) for claim in verified_claims(response))


def test_opening_hours_answer_when_the_office_closes_once_the_generator_answers(
    rag: Ragcite,
) -> None:
    """The learned answer decision declines "What time does the office close?" (no word of
    it but "office" is in the sentence), so the plain floor decides here."""
    generate = rag.settings.generate.model_copy(update={"answer_decision": "floor"})
    floor = Ragcite.open(rag.settings.model_copy(update={"generate": generate}))
    try:
        claims = verified_claims(floor.ask("What time does the office close?"))
    finally:
        floor.close()
    assert any(c.startswith("The offices are open from 07:00 to 20:00") for c in claims)


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("I clicked a phishing link, what should I do?", '"not clicked"'),
        ("Who is the Data Protection Officer?", "name no one"),
        ("Who is the Head of Customer Operations?", "name no one"),
    ],
)
def test_a_sentence_that_only_seems_to_answer_is_declined(
    rag: Ragcite, question: str, reason: str
) -> None:
    response = rag.ask(question)
    assert not response.answerable and reason in response.confidence_reason


def test_a_sentence_is_read_under_the_label_that_opens_its_line(rag: Ragcite) -> None:
    """ "Severity 2: …. The incident manager responds within 4 hours.": the second sentence
    is about Severity 2, not the "2 hours" of Severity 1's line."""
    claims = verified_claims(rag.ask("How fast is a sev 2 handled?"))
    assert "The incident manager responds within 4 hours." in claims
    assert not any("within 2 hours" in claim for claim in claims)


def test_a_sentence_after_a_label_is_quoted_with_the_labelled_sentence(rag: Ragcite) -> None:
    """ "Over the limit: the API answers with status 429 and a Retry-After header …. Clients
    must wait at least that long before retrying.": "that long" is the label's sentence's."""
    claims = verified_claims(rag.ask("How long should my client wait before retrying after a 429?"))
    assert "Clients must wait at least that long before retrying." in claims
    assert any(
        claim.startswith("Over the limit: the API answers with status 429") for claim in claims
    )


def test_a_negated_heading_answers_a_negated_question(rag: Ragcite) -> None:
    """The help centre's section "My notes are not syncing" answers "Why aren't …?"."""
    claims = verified_claims(rag.ask("Why aren't my notes syncing?"))
    assert claims


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Can I fly business class to New York?", "Business class requires approval from the CFO."),
        ("Can I take first class on the train to Edinburgh?", "First class is allowed on journeys"),
        ("Can I take a taxi from the airport at midnight?", "Taxis are reimbursed when travelling"),
    ],
)
def test_a_rule_answers_for_the_place_or_time_the_question_names(
    rag: Ragcite, question: str, expected: str
) -> None:
    """The policy states its rule by flight length, journey length and hours; it does not
    name New York, Edinburgh or midnight, and the rule is the answer."""
    assert any(claim.startswith(expected) for claim in verified_claims(rag.ask(question)))


def test_a_refusal_before_the_chosen_sentence_joins_a_may_i_answer(rag: Ragcite) -> None:
    """ "We do not offer direct exchanges." says no; the sentence after it says what to do."""
    claims = verified_claims(rag.ask("Can I swap my jacket for a bigger size?"))
    assert "We do not offer direct exchanges." in claims
    assert any(claim.startswith("Return the item for a refund") for claim in claims)


def test_a_refusal_after_the_chosen_sentence_joins_a_may_i_answer(rag: Ragcite) -> None:
    """ "… reception roles are site-based and are not eligible." follows the rule for
    office-based roles and says no to the receptionist who asks."""
    claims = verified_claims(rag.ask("Can receptionists work from home?"))
    assert any("reception roles are site-based and are not eligible" in c for c in claims)


def test_a_terse_labelled_value_is_quoted_with_the_sentence_completing_it(rag: Ragcite) -> None:
    """ "Chair and desk: not provided." alone misleads: the next sentence on its line says
    what the company does pay for a chair."""
    claims = verified_claims(rag.ask("Will the company give me a chair for my home office?"))
    assert "Chair and desk: not provided." in claims
    assert any(claim.startswith("Employees can claim up to 150 GBP") for claim in claims)


def test_a_nearly_as_relevant_sentence_holding_the_asked_word_joins(rag: Ragcite) -> None:
    """ "Is my partner allowed to drive my company car?": "Taking a company car abroad is
    allowed …" scores a little higher; the sentence naming the partner is the answer."""
    claims = verified_claims(rag.ask("Is my partner allowed to drive my company car?"))
    assert any("that person is over 25" in claim for claim in claims)


def test_a_word_stating_the_negation_answers_a_negated_question(rag: Ragcite) -> None:
    """A course not finished on time is "overdue"."""
    response = rag.ask("What happens if I don't finish my mandatory compliance courses on time?")
    assert response.answerable, response.confidence_reason
    assert any("days overdue" in claim for claim in verified_claims(response))


def test_a_short_labelled_line_is_an_answer(rag: Ragcite) -> None:
    """ "Christmas Day and Boxing Day: closed" has no full stop and six words."""
    claims = verified_claims(rag.ask("Is the gym open on Boxing Day?"))
    assert "Christmas Day and Boxing Day: closed" in claims


def test_pausing_is_read_as_the_terms_freezing(rag: Ragcite) -> None:
    """ "pause" is the terms' "freeze": the freeze fee answers."""
    response = rag.ask("Can I pause my gym membership while I'm travelling?")
    assert any("£5 per month" in claim for claim in verified_claims(response))
