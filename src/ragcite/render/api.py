"""The API JSON: what programs and the web page receive for an answer.

Sources appear as display metadata (title, version, section, page, url, chunk
confidence), never as bare internal IDs alone; each claim carries one citation per
source with its verbatim quote and where the quote lies in the chunk and document.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ragcite.models import Citation, CitedClaim, CitedResponse, SourceChunk
from ragcite.score.confidence import label_for


def source_json(chunk: SourceChunk) -> dict[str, Any]:
    return {
        "chunk_id": chunk.chunk_id,
        "display": chunk.display,
        "document_id": chunk.document_id,
        "document_version": chunk.document_version,
        "version_name": chunk.document_version_name,
        "version_label": chunk.version_label,
        "corpus": chunk.corpus,
        "title": chunk.document_title,
        "section": chunk.section_heading,
        "page": chunk.page_number,
        "url": chunk.document_url,
        "document_date": chunk.document_date.isoformat() if chunk.document_date else None,
        "status": str(chunk.document_status),
        "char_start": chunk.char_start,
        "char_end": chunk.char_end,
        "chunk_text": chunk.chunk_text,
        "scores": {
            "vector_similarity": round(chunk.vector_similarity_score, 4),
            "keyword": round(chunk.keyword_score, 4),
            "reranker": round(chunk.reranker_score, 4),
            "composite_confidence": round(chunk.composite_confidence, 4),
        },
    }


def citation_json(citation: Citation, chunk: SourceChunk | None) -> dict[str, Any]:
    document_span = None
    if chunk is not None and citation.quote_start is not None and citation.quote_end is not None:
        document_span = [
            chunk.char_start + citation.quote_start,
            chunk.char_start + citation.quote_end,
        ]
    return {
        "chunk_id": citation.chunk_id,
        "display": citation.display or (chunk.display if chunk else citation.chunk_id),
        "title": chunk.document_title if chunk else None,
        "section": chunk.section_heading if chunk else None,
        "page": chunk.page_number if chunk else None,
        "url": chunk.document_url if chunk else None,
        "document_id": chunk.document_id if chunk else None,
        "document_version": chunk.document_version if chunk else None,
        "version_name": chunk.document_version_name if chunk else None,
        "version_label": chunk.version_label if chunk else None,
        "document_date": chunk.document_date.isoformat() if chunk and chunk.document_date else None,
        "status": str(chunk.document_status) if chunk else None,
        "chunk_confidence": round(chunk.composite_confidence, 4) if chunk else None,
        "quote": citation.quote,
        "quote_status": str(citation.quote_status),
        "quote_span": [citation.quote_start, citation.quote_end]
        if citation.quote_start is not None
        else None,
        "document_span": document_span,
        "support": str(citation.support),
        "support_score": None
        if citation.support_score is None
        else round(citation.support_score, 4),
    }


def claim_json(claim: CitedClaim, response: CitedResponse) -> dict[str, Any]:
    return _claim_json(claim, response.chunk)


def passed_claim_json(claim: CitedClaim, chunks: list[SourceChunk]) -> dict[str, Any]:
    """A claim as it passes the gate, before the answer is scored: `claim_json`'s shape,
    with `confidence` and `confidence_label` None (the final response carries them)."""
    by_id = {c.chunk_id: c for c in chunks}
    return {**_claim_json(claim, by_id.get), "confidence": None, "confidence_label": None}


def _claim_json(claim: CitedClaim, chunk: Callable[[str], SourceChunk | None]) -> dict[str, Any]:
    return {
        "text": claim.claim_text,
        "confidence": round(claim.attribution_confidence, 4),
        "confidence_label": str(claim.confidence_label or label_for(claim.attribution_confidence)),
        "verified": claim.verified,
        "is_synthesized": claim.is_synthesized,
        "citations": [citation_json(c, chunk(c.chunk_id)) for c in claim.citations],
    }


def response_json(response: CitedResponse) -> dict[str, Any]:
    """The rendered response (API JSON)."""
    cited = {i for c in response.cited_claims for i in c.source_chunk_ids}
    return {
        "query": response.query,
        "answer_id": response.answer_id,
        "answer": response.answer_text,
        "answerable": response.answerable,
        "overall_confidence": round(response.overall_confidence, 4),
        "confidence_label": str(response.confidence_label),
        "confidence_reason": confidence_reason(response),
        "claims": [claim_json(c, response) for c in response.cited_claims],
        "sources": [source_json(c) for c in response.source_chunks if c.chunk_id in cited]
        if response.answerable
        else [source_json(c) for c in response.source_chunks],
        "warnings": [{"code": f.code, "message": f.message} for f in response.warning_flags],
        "model_id": response.model_id,
        "corpus_version": response.corpus_version,
        "retrieved_at": response.retrieval_timestamp.isoformat(),
        "timings_ms": response.timings_ms,
        "cached_at": response.cached_at.isoformat() if response.cached_at else None,
        "cache_age_s": response.cache_age_s,
    }


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def confidence_reason(response: CitedResponse) -> str:
    """Why the answer has its confidence, in words, from its claims' quotes and support.

    e.g. "3 exact quotes, all supported by their sources" or "1 claim's support is uncertain".
    """
    if not response.answerable:
        return "No passage in the documents answers the question."
    citations = [c for claim in response.cited_claims for c in claim.citations]
    if not citations:
        return "No claim cites a source."
    problems = []
    unverified = sum(1 for claim in response.cited_claims if not claim.verified)
    if unverified:
        problems.append(_plural(unverified, "claim is", "claims are") + " not verified")
    for verdict, words in (
        ("contradicted", "contradicted by its source"),
        ("unsupported", "not supported by its source"),
        ("partial", "only partly supported"),
    ):
        hit = sum(1 for claim in response.cited_claims if _has(claim, verdict))
        if hit:
            problems.append(f"{_plural(hit, 'claim', 'claims')} {words}")
    loose = sum(1 for c in citations if str(c.quote_status) not in ("exact", "normalized"))
    if loose:
        problems.append(_plural(loose, "quote matches", "quotes match") + " only approximately")
    if problems:
        return "; ".join(problems) + "."
    quotes = _plural(len(citations), "exact quote", "exact quotes")
    checked = [c for c in citations if str(c.support) != "unchecked"]
    if not checked:
        return f"{quotes}; support was not checked."
    if len(checked) < len(citations):
        return f"{quotes}; {len(checked)} supported by their sources, the rest not checked."
    alone = len(citations) == 1
    return f"{quotes}, {'supported by its source' if alone else 'all supported by their sources'}."


def _has(claim: CitedClaim, verdict: str) -> bool:
    return any(str(c.support) == verdict for c in claim.citations)
