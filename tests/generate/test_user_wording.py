"""Questions worded as users ask them, over documents written for this check (a Markdown
parental-leave policy with a table, an HTML IT onboarding FAQ with a table, a plain-text
incident procedure: tests/data/user_wording/), end to end through the real pipeline:
shortened words ("prod"), everyday verbs ("come back"), the asker's verbs ("read",
"forgot"), an FAQ answer quoted from its first sentence, and two questions the quoted
sentences only seem to answer."""

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
    assert rag.ingest([DATA]).added == 3
    yield rag
    rag.close()


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How do I get prod access?", "Production access is granted only after"),
        ("What if I don't come back after my parental leave?", "If you do not return to work"),
        ("Can I read work email on my own phone?", "Yes, if the phone is enrolled"),
        ("I forgot my password, what do I do?", "Use the self-service portal"),
    ],
)
def test_a_question_in_the_users_words_is_answered(
    rag: Ragcite, question: str, expected: str
) -> None:
    response = rag.ask(question)
    assert response.answerable, response.confidence_reason
    assert any(claim.startswith(expected) for claim in verified_claims(response))


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("I clicked a phishing link, what should I do?", '"not clicked"'),
        ("Who is the Data Protection Officer?", "name no one"),
    ],
)
def test_a_sentence_that_only_seems_to_answer_is_declined(
    rag: Ragcite, question: str, reason: str
) -> None:
    response = rag.ask(question)
    assert not response.answerable and reason in response.confidence_reason
