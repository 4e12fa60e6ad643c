"""The offline answer answers the question: the sentence that answers, table rows, every part.

Runs the real pipeline (ingest, retrieval, reranking, the extractive generator and the gate)
over a small realistic policy written for these tests (tests/data/answers/).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from tests.verified_quotes import assert_quotes_verified, verified_claims

POLICY = Path(__file__).resolve().parents[1] / "data" / "answers" / "api-usage-policy.md"


def _store_with(tmp_path_factory: pytest.TempPathFactory, document: Path) -> Iterator[Ragcite]:
    path = tmp_path_factory.mktemp(document.stem) / "store.db"
    rag = Ragcite.open(load_settings(store_path=path, overrides={"cache.enabled": False}))
    assert rag.ingest([document]).added == 1
    yield rag
    rag.close()


def _store_of_text(
    tmp_path_factory: pytest.TempPathFactory, name: str, text: str
) -> Iterator[Ragcite]:
    document = tmp_path_factory.mktemp(Path(name).stem) / name
    document.write_text(text, encoding="utf-8")
    yield from _store_with(tmp_path_factory, document)


@pytest.fixture(scope="module")
def policy_rag(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ragcite]:
    yield from _store_with(tmp_path_factory, POLICY)


def test_what_happens_is_answered_by_the_consequence_not_the_limit(policy_rag: Ragcite) -> None:
    response = policy_rag.ask("What happens when an upload exceeds its limit?")
    claims = verified_claims(response)
    assert any("status 413" in c for c in claims)


def test_what_happens_after_a_rule_is_the_outcome_that_follows_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The rule ("must be reported") is not what happens; the sentence after it is."""
    text = (
        "# Laptop Security Standard\n\n## Lost devices\n\n"
        "A lost or stolen laptop must be reported to the service desk within 2 hours. "
        "The device is then wiped remotely.\n\n## Passwords\n\n"
        "Passwords must be at least 14 characters long. They must be changed at once if "
        "a compromise is suspected.\n"
    )
    for rag in _store_of_text(tmp_path_factory, "laptop-security.md", text):
        response = rag.ask("What happens if I lose my laptop?")
        claims = verified_claims(response)
        assert "The device is then wiped remotely." in claims
        assert not any("Passwords" in c for c in claims)


SHORT_RULES = """# Expenses and onboarding

## Meals

Meals are reimbursed up to $75 per day in the United States. Alcohol is never reimbursed.

## Badges

Badge photos are taken by reception in the first week. Each new hire is assigned a buddy
from another team for the first 90 days.
"""


@pytest.fixture(scope="module")
def short_rules_rag(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ragcite]:
    yield from _store_of_text(tmp_path_factory, "expenses-and-onboarding.md", SHORT_RULES)


def test_a_short_rule_is_a_claim(short_rules_rag: Ragcite) -> None:
    response = short_rules_rag.ask("Is alcohol reimbursed?")
    claims = verified_claims(response)
    assert claims == ["Alcohol is never reimbursed."]


def test_who_is_answered_by_the_agent_of_a_passive(short_rules_rag: Ragcite) -> None:
    """ "taken by reception" names who: the next sentence's "another team" does not join."""
    response = short_rules_rag.ask("Who takes badge photos?")
    assert response.cited_claims
    assert_quotes_verified(response)
    assert [c.claim_text for c in response.cited_claims] == [
        "Badge photos are taken by reception in the first week."
    ]


FAQ = """# Support FAQ

## Orders

**Can I change my order after it has shipped?**
No. Once an order has shipped it cannot be changed, but you can return it within 30 days.

## Warranty

- All devices have a 2-year limited warranty.
- Batteries are covered for 12 months.
- Water damage is not covered.
"""


@pytest.fixture(scope="module")
def faq_rag(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ragcite]:
    yield from _store_of_text(tmp_path_factory, "support-faq.md", FAQ)


def test_an_faqs_question_is_never_a_claim_its_answer_is(faq_rag: Ragcite) -> None:
    response = faq_rag.ask("Can I change an order that has already shipped?")
    claims = verified_claims(response)
    assert not any(c.endswith("?") for c in claims)
    assert any("cannot be changed" in c for c in claims)


def test_can_it_be_changed_later_includes_the_prohibition(policy_rag: Ragcite) -> None:
    response = policy_rag.ask("Can the workspace region be changed later?")
    claims = verified_claims(response)
    assert any("cannot be changed after" in c for c in claims)


def test_a_table_question_is_answered_from_its_row(policy_rag: Ragcite) -> None:
    response = policy_rag.ask("How many users does the Growth plan allow?")
    verified_claims(response)
    first = response.cited_claims[0]
    assert first.claim_text == "Growth — Users: 50; API requests per minute: 600; Webhooks: Yes"
    assert first.citations[0].quote == first.claim_text  # the row, verbatim


def test_a_question_naming_several_rows_is_answered_from_each(policy_rag: Ragcite) -> None:
    response = policy_rag.ask("How many users do the Starter, Growth and Scale plans allow?")
    claims = verified_claims(response)
    for plan in ("Starter — Users: 5", "Growth — Users: 50", "Scale — Users: 500"):
        assert any(c.startswith(plan) for c in claims), (plan, claims)


def test_an_unanswered_part_of_a_compound_question_is_reported(policy_rag: Ragcite) -> None:
    response = policy_rag.ask(
        "How long must partners keep their expense receipts, and how much are meals reimbursed?"
    )
    claims = verified_claims(response)
    assert any("five years" in c for c in claims)
    assert "The documents do not say how much meals are reimbursed." in response.answer_text
    assert not any("meal" in c.claim_text.lower() for c in response.cited_claims)
    assert not [f for f in response.warning_flags if f.code == "unattributed_sentence"]


GUIDE = POLICY.parent / "visitor-guide.md"


@pytest.fixture(scope="module")
def guide_rag(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ragcite]:
    yield from _store_with(tmp_path_factory, GUIDE)


def test_an_answer_one_step_on_from_the_matching_sentence_is_cited(guide_rag: Ragcite) -> None:
    # The first sentence names the mill and its builders; the bank is in the next one.
    response = guide_rag.ask("What bank did the family that built Larkfield Mill found?")
    claims = verified_claims(response)
    assert any("Ashby Bank" in c for c in claims)
    assert len(response.cited_claims) <= 2


def test_the_neighbour_holding_the_kind_of_answer_asked_for_is_cited(guide_rag: Ragcite) -> None:
    response = guide_rag.ask("How long is the bus journey from Harrogate station to the mill gate?")
    claims = verified_claims(response)
    assert any("forty minutes" in c for c in claims)


def test_a_sentence_that_answers_alone_gets_no_neighbour(guide_rag: Ragcite) -> None:
    response = guide_rag.ask("On which day is the market held in the village?")
    assert response.answerable
    assert [c.claim_text for c in response.cited_claims] == [
        "The village grew up along the old Coach Road between Leeds and York, and its market "
        "is still held there every Thursday."
    ]


LAKE = POLICY.parent / "lake-orrin-guide.md"


@pytest.fixture(scope="module")
def lake_rag(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ragcite]:
    yield from _store_with(tmp_path_factory, LAKE)


@pytest.mark.parametrize(
    "question",
    [
        "What did the Ferris Trust's lodge on Lake Orrin start out as?",
        "What was the lodge on the western shore of Lake Orrin before?",
    ],
)
def test_the_sentence_carrying_on_about_the_best_ones_subject_is_cited(
    lake_rag: Ragcite, question: str
) -> None:
    # "Brackwater Lodge is ... owned by the Ferris Trust." matches the question; the answer
    # is in the next sentence, which shares no other word with it: "It was first used as ...".
    response = lake_rag.ask(question)
    claims = verified_claims(response)
    assert any("fishing school" in c for c in claims)
    assert len(response.cited_claims) <= 2


def test_a_department_called_it_does_not_point_back(lake_rag: Ragcite) -> None:
    # "IT support for the booking kiosks ..." follows the answer: "IT" is not "It".
    response = lake_rag.ask("What comes with a rented kayak?")
    assert [c.claim_text for c in response.cited_claims] == [
        "Every rented kayak comes with a buoyancy aid and a whistle."
    ]
