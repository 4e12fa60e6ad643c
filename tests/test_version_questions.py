"""Version-aware questions over the demo corpus (the data retention policy of 2019, v1,
superseded by the one of 2024, v2): a question naming a date or a version is answered from
the version in force then, flagged with its dates and the current version's answer."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from ragcite.models import CitedResponse
from ragcite.pipeline import Ragcite

from .cli.test_cli import run

OLD_QUESTION = "How long were full system backups kept under the 2019 policy?"
PLAIN_QUESTION = "How long are full system backups kept before being overwritten?"


def _cited_versions(response: CitedResponse) -> set[tuple[str, int]]:
    return {
        (chunk.document_id, chunk.document_version)
        for claim in response.cited_claims
        for i in claim.source_chunk_ids
        if (chunk := response.chunk(i)) is not None
    }


def _flag(response: CitedResponse, code: str) -> str | None:
    return next((f.message for f in response.warning_flags if f.code == code), None)


def test_a_year_is_answered_from_the_version_in_force_then(demo_rag: Ragcite) -> None:
    response = demo_rag.ask(OLD_QUESTION)
    assert response.answerable and "90 days" in response.answer_text
    assert _cited_versions(response) == {("data-retention-policy", 1)}
    answered_from = _flag(response, "answered_from_version")
    assert answered_from is not None
    assert "version 1" in answered_from and "2019-03-01" in answered_from
    assert "2024-01-15" in answered_from
    current = _flag(response, "superseded_answer")
    assert current is not None and "2024" in current and "35 days" in current


@pytest.mark.parametrize(
    "question",
    [
        "In the previous data retention policy, how long were full system backups kept?",
        "What did version 1 of the retention policy say about full system backups?",
        "Before January 2024, how long were full system backups kept?",
    ],
)
def test_versions_and_dates_named_in_words(demo_rag: Ragcite, question: str) -> None:
    response = demo_rag.ask(question)
    assert _cited_versions(response) == {("data-retention-policy", 1)}
    assert _flag(response, "answered_from_version") is not None


def test_without_a_time_reference_nothing_changes(demo_rag: Ragcite) -> None:
    response = demo_rag.ask(PLAIN_QUESTION)
    assert "35 days" in response.answer_text
    assert _cited_versions(response) == {("data-retention-policy", 2)}
    codes = {f.code for f in response.warning_flags}
    assert not codes & {"answered_from_version", "superseded_answer", "superseded_source"}


def test_a_date_in_force_now_is_not_flagged(demo_rag: Ragcite) -> None:
    response = demo_rag.ask("Under the 2024 policy, how long are full system backups kept?")
    assert _cited_versions(response) == {("data-retention-policy", 2)}
    assert _flag(response, "answered_from_version") is None


def test_explicit_as_of_filters(demo_rag: Ragcite) -> None:
    old = demo_rag.ask(PLAIN_QUESTION, filters=demo_rag.filters(as_of=date(2020, 6, 1)))
    assert _cited_versions(old) == {("data-retention-policy", 1)}
    assert "35 days" in (_flag(old, "superseded_answer") or "")
    now = demo_rag.ask(PLAIN_QUESTION, filters=demo_rag.filters(as_of=date(2025, 1, 1)))
    assert _cited_versions(now) == {("data-retention-policy", 2)}
    # Documents that did not exist yet are not searched: every demo document is newer.
    before = demo_rag.search(PLAIN_QUESTION, filters=demo_rag.filters(as_of=date(2018, 1, 1)))
    assert before[0] == []


def test_cli_as_of(demo_store_path: Path) -> None:
    code, out = run("ask", PLAIN_QUESTION, "--as-of", "2020-06-01", "--json", store=demo_store_path)
    assert code == 0, out
    payload = json.loads(out)
    assert "90 days" in payload["answer"]
    codes = {f["code"] for f in payload["warnings"]}
    assert {"answered_from_version", "superseded_answer"} <= codes
    code, out = run("ask", PLAIN_QUESTION, "--as-of", "June 2020", store=demo_store_path)
    assert code == 2 and "June 2020" in out


def test_search_takes_the_time_reference_too(demo_rag: Ragcite) -> None:
    chunks, _ = demo_rag.search(OLD_QUESTION)
    retention = [c for c in chunks if c.document_id == "data-retention-policy"]
    assert retention and {c.document_version for c in retention} == {1}
    chunks, _ = demo_rag.search(PLAIN_QUESTION)
    assert {c.document_version for c in chunks if c.document_id == "data-retention-policy"} == {2}
