"""Anthropic and remote OpenAI-compatible responses at the mapping layer (no network):
recorded response payloads mapped to drafts, then through the same gate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragcite.errors import UnusableOutputError
from ragcite.generate.anthropic import draft_from_message, messages_request
from ragcite.generate.parse import parse_draft
from ragcite.llm.openai import completion_text
from ragcite.models import QuoteStatus, SourceChunk
from ragcite.verify.gate import verify_answer

DATA = Path(__file__).resolve().parents[1] / "data" / "llm"


def load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture
def chunks() -> list[SourceChunk]:
    return [
        SourceChunk(
            chunk_id=c["chunk_id"],
            document_id=c["chunk_id"],
            document_title=c["title"],
            section_heading=c["section"],
            page_number=c.get("page"),
            chunk_text=c["text"],
            char_start=0,
            char_end=len(c["text"]),
        )
        for c in load("chunks.json")
    ]


def test_anthropic_citations_become_verified_claims(chunks: list[SourceChunk]) -> None:
    draft = draft_from_message(load("anthropic_citations.json"), chunks, model_id="anthropic:x")
    assert draft.model_id == "anthropic:claude-sonnet-4-5-20250929"
    assert [c.claim_text for c in draft.claims] == [
        "primary caregivers receive 16 weeks of fully paid parental leave",
        "secondary caregivers receive 6 weeks",
    ]
    assert draft.claims[0].citations[0].chunk_id == "c_leave0001"
    assert draft.answer_text.startswith("According to the handbook, primary caregivers")
    gate = verify_answer(draft, chunks)
    assert gate.passed, gate.violations
    citation = gate.claims[0].citations[0]
    assert citation.quote_status is QuoteStatus.EXACT
    assert chunks[0].chunk_text[citation.quote_start : citation.quote_end].startswith("Primary")


def test_anthropic_page_locations_stray_documents_and_uncited_text(
    chunks: list[SourceChunk],
) -> None:
    draft = draft_from_message(load("anthropic_page_and_stray.json"), chunks, model_id="a")
    assert draft.claims[0].citations[0].chunk_id == "c_backup002"
    assert draft.claims[1].citations[0].chunk_id == "document_index:7"
    gate = verify_answer(draft, chunks)
    codes = [f.code for f in gate.flags]
    assert "hallucinated_chunk_id" in codes and "claim_dropped" in codes
    assert "unattributed_sentence" in codes  # "Offsite copies ... seven years."
    assert [c.claim_text for c in gate.claims] == ["Backups are kept for 35 days"]


def test_anthropic_not_found_is_unanswerable(chunks: list[SourceChunk]) -> None:
    draft = draft_from_message(load("anthropic_not_found.json"), chunks, model_id="a")
    assert not draft.answerable and not draft.claims


def test_anthropic_request_sends_one_document_per_chunk(chunks: list[SourceChunk]) -> None:
    body = messages_request("claude-x", "How long is leave?", chunks, violations=["claim 1 bad"])
    blocks = body["messages"][0]["content"]
    assert [b["type"] for b in blocks] == ["document", "document", "text"]
    assert blocks[0]["source"]["data"] == chunks[0].chunk_text  # verbatim, no ID prefix
    assert blocks[0]["citations"] == {"enabled": True}
    assert blocks[0]["title"] == "Employee Handbook → Parental leave, p. 4"
    assert "claim 1 bad" in blocks[2]["text"] and body["temperature"] == 0


def test_openai_structured_output_maps_and_repoints(chunks: list[SourceChunk]) -> None:
    text = completion_text(load("openai_structured.json"), "openai:gpt-4o-mini")
    draft = parse_draft(text, model_id="openai:gpt-4o-mini", chunk_ids=[c.chunk_id for c in chunks])
    assert len(draft.claims) == 2
    gate = verify_answer(draft, chunks)
    # The second quote is from the leave chunk, though it cites the backup chunk.
    assert "quote_repointed" in [f.code for f in gate.flags]
    assert gate.claims[1].citations[0].chunk_id == "c_leave0001"


def test_ollama_json_mode_with_fences_and_decorated_ids(chunks: list[SourceChunk]) -> None:
    text = completion_text(load("ollama_json_mode.json"), "m")
    draft = parse_draft(text, model_id="m", chunk_ids=[c.chunk_id for c in chunks])
    assert draft.claims[0].citations[0].chunk_id == "c_backup002"
    assert draft.claims[0].attribution_confidence == pytest.approx(0.9)
    assert verify_answer(draft, chunks).passed


def test_openai_refusal_is_unusable_output() -> None:
    with pytest.raises(UnusableOutputError, match="refused to answer"):
        completion_text(load("openai_refusal.json"), "openai:gpt-4o-mini")
