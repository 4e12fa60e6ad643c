"""Re-checking saved answers over the demo corpus as its documents change: still verified,
superseded (the new version still supports the claim, or not), deleted and erased."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.errors import InputError, NotFoundError
from ragcite.index.answers import answers_store, saved_answer_of
from ragcite.lifecycle.recheck import ClaimStatus, recheck_answers
from ragcite.lifecycle.saved import answers_to_recheck, erase_document, save_answer
from ragcite.pipeline import Ragcite

from ..conftest import DEMO

QUESTION = "How long are full system backups kept before being overwritten?"
POLICY = "data-retention-policy"


def new_policy_version(tmp_path: Path, number: int, *, backups: str = "35 days") -> Path:
    """The 2024 policy as version `number`, its backup period set to `backups`."""
    text = (DEMO / "data-retention-policy-2024.md").read_text(encoding="utf-8")
    text = text.replace("version: 2", f"version: {number}", 1)
    text = text.replace("kept for 35 days", f"kept for {backups}")
    text += f"\n\nRevision {number} of this policy.\n"
    path = tmp_path / f"policy-v{number}.md"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def rag(demo_store_path: Path) -> Ragcite:
    return Ragcite.open(load_settings(store_path=demo_store_path))


def _statuses(rag: Ragcite, answer_id: str) -> list[ClaimStatus]:
    report = recheck_answers(rag, answers_to_recheck(rag, answer_id))
    return [c.status for c in report.answers[0].claims]


def _backup_answer(rag: Ragcite) -> str:
    response = rag.ask(QUESTION)
    assert response.answerable and response.answer_id
    assert any("35 days" in c.claim_text for c in response.cited_claims)
    save_answer(rag, response, key_name="cli")
    return response.answer_id


def test_an_unchanged_answer_is_still_verified(rag: Ragcite) -> None:
    answer_id = _backup_answer(rag)
    assert set(_statuses(rag, answer_id)) == {ClaimStatus.VERIFIED}
    report = recheck_answers(rag, answers_to_recheck(rag))
    assert report.answers[0].still_verified and report.answers_per_second > 0
    assert report.as_json()["answers"][0]["claims"][0]["status"] == "verified"


def test_a_superseded_source_is_checked_against_the_new_version(
    rag: Ragcite, tmp_path: Path
) -> None:
    answer_id = _backup_answer(rag)
    assert rag.ingest([new_policy_version(tmp_path, 3)]).added == 1
    report = recheck_answers(rag, answers_to_recheck(rag, answer_id))
    claim = next(c for c in report.answers[0].claims if "35 days" in c.claim_text)
    assert claim.status is ClaimStatus.SUPERSEDED_SUPPORTED
    assert claim.new_version == 3 and "35 days" in (claim.new_text or "")
    assert not report.answers[0].still_verified
    assert rag.ingest([new_policy_version(tmp_path, 4, backups="10 days")]).added == 1
    report = recheck_answers(rag, answers_to_recheck(rag, answer_id))
    claim = next(c for c in report.answers[0].claims if "35 days" in c.claim_text)
    assert claim.status is ClaimStatus.SUPERSEDED_UNSUPPORTED
    assert claim.new_version == 4 and "10 days" in (claim.new_text or "")


def test_deleted_and_erased_sources(rag: Ragcite) -> None:
    answer_id = _backup_answer(rag)
    other = rag.ask("How many days of paid sick leave do employees get?")
    save_answer(rag, other)
    rag.store.delete_document(POLICY)
    assert ClaimStatus.DELETED in _statuses(rag, answer_id)
    erase_document(rag, POLICY, erased_by="test")
    checked = recheck_answers(rag, answers_to_recheck(rag, answer_id)).answers[0]
    assert [c.status for c in checked.claims] == [ClaimStatus.ERASED] * len(checked.claims)
    assert all("35 days" not in c.claim_text for c in checked.claims)
    assert set(_statuses(rag, other.answer_id)) == {ClaimStatus.VERIFIED}


def test_since_picks_the_answers_citing_changed_documents(rag: Ragcite, tmp_path: Path) -> None:
    backups = _backup_answer(rag)
    leave = rag.ask("How many days of paid sick leave do employees get?")
    save_answer(rag, leave)
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date()
    today = datetime.now(UTC).date()
    assert answers_to_recheck(rag, since=tomorrow) == []
    rag.ingest([new_policy_version(tmp_path, 3)])
    assert answers_to_recheck(rag, since=tomorrow) == []
    # every demo document was ingested today, so both cite something changed since today
    assert len(answers_to_recheck(rag, since=today)) == 2
    picked = answers_to_recheck(rag, document_ids=(POLICY,))
    assert [a.answer_id for a in picked] == [backups]
    with pytest.raises(InputError):
        answers_to_recheck(rag, backups, since=today)


def test_unknown_answer_ids_are_named(rag: Ragcite) -> None:
    with pytest.raises(NotFoundError, match=r"'nope'.*ragcite ask --save"):
        answers_to_recheck(rag, "nope")


def test_retention_prunes_old_answers(demo_store_path: Path) -> None:
    rag = Ragcite.open(
        load_settings(store_path=demo_store_path, overrides={"lifecycle.answer_retention_days": 30})
    )
    old = rag.ask(QUESTION)
    answers_store(rag.store).save_answer(
        saved_answer_of(old, created_at=datetime.now(UTC) - timedelta(days=31))
    )
    new = rag.ask("How many days of paid sick leave do employees get?")
    save_answer(rag, new)
    assert [a.answer_id for a in answers_store(rag.store).list_answers()] == [new.answer_id]
