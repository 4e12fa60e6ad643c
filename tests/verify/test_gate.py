"""The gate on scripted drafts: nothing unverified ever passes as verified."""

from __future__ import annotations

import pytest

from ragcite.models import (
    DraftAnswer,
    DraftCitation,
    DraftClaim,
    QuoteStatus,
    SourceChunk,
    SupportVerdict,
)
from ragcite.verify.gate import verify_answer
from ragcite.verify.support import default_support_checker

RETENTION = (
    "Customer PII is deleted three years after account closure. Backups are kept for 35 days."
)
LEAVE = "The primary caregiver receives 20 weeks of parental leave at full pay."


def _chunk(chunk_id: str, text: str) -> SourceChunk:
    return SourceChunk(
        chunk_id=chunk_id,
        document_id=chunk_id,
        document_title=f"Doc {chunk_id}",
        chunk_text=text,
        char_start=0,
        char_end=len(text),
    )


CHUNKS = [_chunk("c_ret", RETENTION), _chunk("c_leave", LEAVE)]


def _draft(*claims: DraftClaim, answer: str = "") -> DraftAnswer:
    return DraftAnswer(answer_text=answer, claims=list(claims))


def _claim(text: str, *cites: tuple[str, str], confidence: object = None) -> DraftClaim:
    return DraftClaim(
        claim_text=text,
        citations=[DraftCitation(chunk_id=c, quote=q) for c, q in cites],
        attribution_confidence=confidence,  # type: ignore[arg-type]
    )


def codes(result: object) -> list[str]:
    return [f.code for f in result.flags]  # type: ignore[attr-defined]


def test_exact_quote_passes() -> None:
    result = verify_answer(
        _draft(_claim("Backups are kept for 35 days.", ("c_ret", "Backups are kept for 35 days."))),
        CHUNKS,
    )
    assert result.passed
    [claim] = result.claims
    assert claim.verified and claim.citations[0].quote_status is QuoteStatus.EXACT
    start, end = claim.citations[0].quote_start, claim.citations[0].quote_end
    assert RETENTION[start:end] == "Backups are kept for 35 days."  # type: ignore[misc]
    assert claim.citations[0].display == "Doc c_ret"


def test_normalised_quote_passes_with_its_status() -> None:
    result = verify_answer(
        _draft(
            _claim("Backups last 35 days.", ("c_ret", "\u201cbackups  are KEPT for 35 days\u201d"))
        ),
        CHUNKS,
    )
    assert result.claims[0].citations[0].quote_status is QuoteStatus.NORMALIZED
    assert result.claims[0].verified


def test_hallucinated_id_is_dropped_and_flagged() -> None:
    result = verify_answer(
        _draft(
            _claim("Backups are kept for 35 days.", ("c_nope", "Backups are kept for 35 days."))
        ),
        CHUNKS,
    )
    assert result.claims == []
    assert {"hallucinated_chunk_id", "claim_dropped"} <= set(codes(result))
    assert not result.passed


def test_partly_hallucinated_claim_keeps_its_valid_source() -> None:
    result = verify_answer(
        _draft(
            _claim(
                "Backups are kept for 35 days.",
                ("c_ret", "Backups are kept for 35 days."),
                ("c_ghost", "x"),
            )
        ),
        CHUNKS,
    )
    assert [c.source_chunk_ids for c in result.claims] == [["c_ret"]]
    assert {"hallucinated_chunk_id", "partial_attribution"} <= set(codes(result))


def test_paraphrased_quote_is_not_found_and_never_verified() -> None:
    result = verify_answer(
        _draft(_claim("PII goes after three years.", ("c_ret", "PII is removed after 3 years"))),
        CHUNKS,
    )
    claim = result.claims[0]
    assert claim.citations[0].quote_status is QuoteStatus.NOT_FOUND
    assert not claim.verified
    assert "quote_not_found" in codes(result)


def test_quote_from_another_chunk_is_repointed() -> None:
    result = verify_answer(
        _draft(
            _claim(
                "Primary caregivers get 20 weeks.",
                ("c_ret", "receives 20 weeks of parental leave at full pay"),
            )
        ),
        CHUNKS,
    )
    citation = result.claims[0].citations[0]
    assert citation.chunk_id == "c_leave"
    assert citation.quote_status is QuoteStatus.EXACT
    assert "quote_repointed" in codes(result)


def test_string_confidence_is_accepted() -> None:
    result = verify_answer(
        _draft(
            _claim(
                "Backups are kept for 35 days.",
                ("c_ret", "Backups are kept for 35 days."),
                confidence="0.9",
            )
        ),
        CHUNKS,
    )
    assert result.claims[0].attribution_confidence == pytest.approx(0.9)


def test_unattributed_fact_is_flagged_and_strict_policy_removes_it() -> None:
    draft = _draft(
        _claim("Backups are kept for 35 days.", ("c_ret", "Backups are kept for 35 days.")),
        answer="Backups are kept for 35 days. Archives go to Iceland after 90 days.",
    )
    annotated = verify_answer(draft, CHUNKS)
    assert "unattributed_sentence" in codes(annotated)
    assert "Iceland" in annotated.answer_text
    strict = verify_answer(draft, CHUNKS, policy="strict")
    assert "Iceland" not in strict.answer_text


def test_claim_without_citations_is_dropped() -> None:
    result = verify_answer(_draft(_claim("Backups are kept for 35 days.")), CHUNKS)
    assert result.claims == [] and "claim_dropped" in codes(result)


def test_one_citation_per_claim_and_source() -> None:
    result = verify_answer(
        _draft(
            _claim(
                "Backups are kept for 35 days.",
                ("c_ret", "Backups are kept"),
                ("[c_ret]", "Backups are kept for 35 days."),
            )
        ),
        CHUNKS,
    )
    assert len(result.claims[0].citations) == 1


def test_support_checker_rejects_a_wrong_number(embedder: object) -> None:
    checker = default_support_checker(embedder)  # type: ignore[arg-type]
    result = verify_answer(
        _draft(_claim("Backups are kept for 90 days.", ("c_ret", "Backups are kept"))),
        CHUNKS,
        support_checker=checker,
    )
    claim = result.claims[0]
    assert claim.citations[0].support in (SupportVerdict.CONTRADICTED, SupportVerdict.UNSUPPORTED)
    assert not claim.verified
    assert not result.passed
    strict = verify_answer(
        _draft(_claim("Backups are kept for 90 days.", ("c_ret", "Backups are kept"))),
        CHUNKS,
        support_checker=checker,
        policy="strict",
    )
    assert strict.claims == []
