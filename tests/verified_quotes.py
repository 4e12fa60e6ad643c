"""The checks every end-to-end answer test makes: it answers, each claim is verified and
each quote exact."""

from __future__ import annotations

from ragcite.models import CitedResponse, QuoteStatus


def assert_quotes_verified(response: CitedResponse) -> None:
    """Every claim of `response` is verified and each of its quotes is exact, found in its
    chunk at the offsets the citation gives."""
    for claim in response.cited_claims:
        assert claim.verified
        for citation in claim.citations:
            chunk = response.chunk(citation.chunk_id)
            assert chunk is not None
            assert citation.quote_status is QuoteStatus.EXACT
            assert chunk.chunk_text[citation.quote_start : citation.quote_end] == citation.quote


def verified_claims(response: CitedResponse) -> list[str]:
    """The texts of the claims of `response`, once it is checked to answer with claims
    whose quotes are all verified (`assert_quotes_verified`)."""
    assert response.answerable, response.confidence_reason
    assert response.cited_claims
    assert_quotes_verified(response)
    return [c.claim_text for c in response.cited_claims]
