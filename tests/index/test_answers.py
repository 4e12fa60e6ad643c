"""Redacting a saved answer's quotes of an erased document, and the saved form of an answer."""

from __future__ import annotations

import json

import pytest

from ragcite.errors import StoreError
from ragcite.index.answers import ERASED_TEXT, redact_response, saved_answer_of
from ragcite.models import Citation, CitedClaim, CitedResponse, SourceChunk


def _chunk(document_id: str, text: str, heading: str) -> SourceChunk:
    return SourceChunk(
        chunk_id=f"{document_id}-1-0",
        document_id=document_id,
        document_version=1,
        document_title=document_id.title(),
        section_heading=heading,
        chunk_text=text,
        char_start=0,
        char_end=len(text),
    )


def _claim(chunk: SourceChunk) -> CitedClaim:
    return CitedClaim(
        claim_text=chunk.chunk_text,
        source_chunk_ids=[chunk.chunk_id],
        citations=[Citation(chunk_id=chunk.chunk_id, quote=chunk.chunk_text, display="x")],
        verified=True,
    )


def test_redaction_removes_only_the_erased_documents_words() -> None:
    secret = _chunk("secret", "The vault code is 4711.", "Vault codes")
    public = _chunk("public", "Backups are kept for 35 days.", "Backups")
    response = CitedResponse(
        query="q",
        answer_id="a1",
        answer_text=f"{secret.chunk_text} {public.chunk_text}",
        answerable=True,
        cited_claims=[_claim(secret), _claim(public)],
        source_chunks=[secret, public],
    )
    redacted = CitedResponse.model_validate_json(
        redact_response(response.model_dump_json(), "secret")
    )
    assert "4711" not in redacted.model_dump_json() and "Vault codes" not in json.dumps(
        redacted.model_dump(mode="json")
    )
    assert redacted.answer_text == f"{ERASED_TEXT} {public.chunk_text}"
    erased_claim, kept_claim = redacted.cited_claims
    assert erased_claim.claim_text == ERASED_TEXT and erased_claim.citations[0].quote == ""
    assert erased_claim.citations[0].display == "Secret"
    assert kept_claim == response.cited_claims[1]
    assert redacted.source_chunks[1] == public


def test_saved_form_of_an_answer() -> None:
    chunk = _chunk("public", "Backups are kept for 35 days.", "Backups")
    response = CitedResponse(
        query="q", answer_id="a1", answer_text="", answerable=True, source_chunks=[chunk, chunk]
    )
    saved = saved_answer_of(response, key_name="bot", groups=("hr",))
    assert saved.sources == (("public", 1),) and saved.chunk_ids == ("public-1-0",)
    assert saved.created_at.tzinfo is not None and saved.response == response
    with pytest.raises(StoreError, match="no answer_id"):
        saved_answer_of(response.model_copy(update={"answer_id": ""}))
