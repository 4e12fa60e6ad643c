"""The check every end-to-end answer test makes: each claim verified, each quote exact."""

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
