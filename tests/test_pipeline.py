"""ask() end to end on the demo corpus with the real models and store."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.errors import InputError
from ragcite.pipeline import Ragcite
from ragcite.trace import NOT_FOUND_TEXT
from tests.verified_quotes import assert_quotes_verified

from .conftest import DEMO


@pytest.mark.parametrize(
    ("question", "document_id", "words"),
    [
        (
            "How long do we keep customer PII, and does the EU differ from the US?",
            "data-retention-policy",
            "12 months",
        ),
        (
            "How much parental leave does the primary caregiver get?",
            "employee-handbook",
            "20 weeks",
        ),
        ("Can I use SMS codes as my second factor for MFA?", "information-security-policy", "SMS"),
        (
            "Until when can hardware bought during the holidays be returned?",
            "returns-policy",
            "January 31",
        ),
    ],
)
def test_answers_cite_verified_quotes(
    demo_rag: Ragcite, question: str, document_id: str, words: str
) -> None:
    response = demo_rag.ask(question)
    assert response.answerable
    assert words in response.answer_text
    assert response.cited_claims
    assert_quotes_verified(response)
    assert any(c.document_id == document_id for c in response.source_chunks)
    assert 0.0 < response.overall_confidence <= 1.0
    assert {"retrieve", "rerank", "generate", "verify", "score", "total"} <= set(
        response.timings_ms
    )


def test_current_version_answers_not_the_superseded_one(demo_rag: Ragcite) -> None:
    response = demo_rag.ask("How long are system backups kept?")
    assert "35 days" in response.answer_text and "90 days" not in response.answer_text
    assert all(
        c.document_version == 2
        for c in response.source_chunks
        if c.document_id == "data-retention-policy"
    )


@pytest.mark.parametrize(
    "question",
    [
        "What is the vesting schedule for employee stock options?",
        "What is on the cafeteria menu on Fridays?",
    ],
)
def test_unanswerable_questions_show_nearest_sources(demo_rag: Ragcite, question: str) -> None:
    response = demo_rag.ask(question)
    assert not response.answerable
    assert response.answer_text == NOT_FOUND_TEXT
    assert response.cited_claims == [] and 0 < len(response.source_chunks) <= 3
    assert "not_answerable" in [f.code for f in response.warning_flags]


def test_empty_question_is_a_clear_error(demo_rag: Ragcite) -> None:
    with pytest.raises(InputError, match="question is empty"):
        demo_rag.ask("   ")


def test_empty_store_says_so(tmp_path: object) -> None:
    rag = Ragcite.open(load_settings(store_path=tmp_path / "empty.db"))  # type: ignore[operator]
    response = rag.ask("Anything?")
    assert not response.answerable and "ragcite ingest" in response.answer_text
    assert [f.code for f in response.warning_flags] == ["no_documents_retrieved"]


def test_a_configured_llm_is_not_needed_to_ingest(tmp_path: Path) -> None:
    settings = load_settings(
        store_path=tmp_path / "s.db", overrides={"generate.llm": "openai:gpt-4o-mini"}
    )
    rag = Ragcite.open(settings)
    report = rag.ingest([DEMO / "travel-and-expenses.md"])
    assert report.added == 1
    rag.close()


@pytest.mark.parametrize("semantic", ["static", "none"])
def test_support_semantic_setting_picks_the_checkers_layer(
    demo_store_path: Path, semantic: str
) -> None:
    from ragcite.verify.support import LayeredSupportChecker

    settings = load_settings(
        store_path=demo_store_path, overrides={"gate.support_semantic": semantic}
    )
    rag = Ragcite.open(settings)
    checker = rag.support_checker
    assert isinstance(checker, LayeredSupportChecker)
    assert (checker.semantic is None) == (semantic == "none")
    response = rag.ask("How long are system backups kept?")
    assert response.cited_claims and all(c.verified for c in response.cited_claims)
    citations = [citation for c in response.cited_claims for citation in c.citations]
    assert all(citation.support_score is not None for citation in citations)
