"""gate.support_judge in the pipeline: off by default, lazy, and deciding when on."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.models import SupportVerdict
from ragcite.pipeline import DEGRADED_TEXT, Ragcite
from ragcite.verify.support import JudgedSupportChecker, LayeredSupportChecker

from .conftest import DEMO

QUESTION = "How long are system backups kept?"
# Every claim is borderline with these margins, so every claim goes to the judge.
JUDGE_EVERYTHING = {
    "gate.support_judge": "openai-compatible:http://127.0.0.1:9/v1#scripted",
    "gate.support_judge_below": 1.0,
    "gate.support_judge_above": 1.0,
    "gate.retry_on_failure": False,
}


def _open(store: Path, overrides: dict[str, object]) -> Ragcite:
    return Ragcite.open(load_settings(store_path=store, overrides=overrides))


def test_without_a_judge_the_checker_is_the_plain_one(demo_rag: Ragcite) -> None:
    assert demo_rag.settings.gate.support_judge is None
    assert isinstance(demo_rag.support_checker, LayeredSupportChecker)


def test_a_scripted_judge_decides_borderline_claims(demo_store_path: Path) -> None:
    plain = _open(demo_store_path, {})
    # The judge's replies change between asks of one question: no answer cache.
    rag = _open(demo_store_path, {**JUDGE_EVERYTHING, "cache.enabled": False})
    checker = rag.support_checker
    assert isinstance(checker, JudgedSupportChecker)
    prompts: list[str] = []

    def says(reply: str) -> None:
        def complete(prompt: str) -> str:
            prompts.append(prompt)
            return reply

        checker.complete = complete

    baseline = plain.ask(QUESTION)
    assert baseline.cited_claims and all(c.verified for c in baseline.cited_claims)

    says("SUPPORTED")
    supported = rag.ask(QUESTION)
    assert prompts
    assert [c.claim_text for c in supported.cited_claims] == [
        c.claim_text for c in baseline.cited_claims
    ]
    for claim in supported.cited_claims:
        assert claim.verified
        for citation in claim.citations:
            assert citation.support is SupportVerdict.SUPPORTED
            assert citation.support_score is not None
            assert citation.support_score >= checker.supported_threshold

    prompts.clear()
    says("NOT_SUPPORTED")
    rejected = rag.ask(QUESTION)
    assert prompts
    assert not any(c.verified for c in rejected.cited_claims)
    assert rejected.answer_text.startswith(DEGRADED_TEXT)
    assert any(f.code == "unsupported_claim" for f in rejected.warning_flags)
    plain.close()
    rag.close()


def test_a_judge_without_its_key_breaks_neither_ingest_nor_ask(
    tmp_path: Path, demo_store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    overrides = {**JUDGE_EVERYTHING, "gate.support_judge": "anthropic:claude-sonnet-4-5"}
    fresh = _open(tmp_path / "fresh.db", overrides)
    assert fresh.ingest([DEMO / "travel-and-expenses.md"]).added == 1  # no key needed
    fresh.close()
    rag = _open(demo_store_path, overrides)
    response = rag.ask(QUESTION)
    assert response.cited_claims and all(c.verified for c in response.cited_claims)
    checker = rag.support_checker
    assert isinstance(checker, JudgedSupportChecker)
    assert checker.calls == 1  # the missing key switched the judge off after one try
    rag.close()
