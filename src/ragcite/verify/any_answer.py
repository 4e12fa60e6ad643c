"""Verify an answer with citations from any system against the source texts it cites.

Accepted answers: ragcite's own shapes (a DraftAnswer, a CitedResponse or the API JSON:
claims with citations of `chunk_id` + `quote`) or the simple shape
`{"citations": [{"source_id": ..., "quote": ..., "claim"?: ...}]}`. Sources: a list of
`{"chunk_id" | "source_id" | "id": ..., "text": ..., "title"?, "section"?, "page"?}`.

Each claim and each citation goes through the same gate as ragcite's own answers.
A citation is verified only when its ID names a given source, its quote is in *that*
source (a quote found only in another source is reported, not trusted) and, when a
support checker is given, the cited text does not fail to support the claim.

    >>> report = verify_citations({"citations": [{"source_id": "s1", "quote": "16 weeks"}]},
    ...                           [{"id": "s1", "text": "Primary caregivers receive 16 weeks."}])
    >>> report["all_verified"], report["citations"][0]["quote_status"]
    (True, 'exact')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from ragcite.errors import InputError
from ragcite.flags import flag, shorten
from ragcite.models import (
    Citation,
    CitedClaim,
    DraftAnswer,
    DraftCitation,
    DraftClaim,
    QuoteStatus,
    SourceChunk,
    WarningFlag,
)
from ragcite.text.chunk_ids import resolve_chunk_id
from ragcite.verify.gate import verify_answer
from ragcite.verify.support import SupportChecker
from ragcite.verify.unattributed import unattributed_sentences

_ID_KEYS = ("chunk_id", "source_id", "id")
_TEXT_KEYS = ("text", "chunk_text", "content")
_CLAIM_TEXT_KEYS = ("claim_text", "text", "claim")
_QUOTE_KEYS = ("quote", "cited_text")


def verify_citations(
    output: Mapping[str, Any] | BaseModel,
    chunks: Sequence[Mapping[str, Any] | SourceChunk] | Mapping[str, Any],
    *,
    support_checker: SupportChecker | None = None,
) -> dict[str, Any]:
    """The answer annotated per claim and per citation, with `all_verified`."""
    sources = read_sources(chunks)
    answer_text, claims = read_answer(output)
    checked_claims = [_check_claim(claim, sources, support_checker) for claim in claims]
    citations = [c for claim in checked_claims for c in claim["citations"]]
    unattributed = (
        unattributed_sentences(answer_text, [c.claim_text for c in claims if c.claim_text])
        if answer_text
        else []
    )
    warnings = [f for claim in checked_claims for f in claim.pop("_flags")]
    warnings += [flag("unattributed_sentence", sentence=shorten(s)) for s in unattributed]
    all_verified = (
        bool(citations)
        and all(c["verified"] for c in citations)
        and all(c["verified"] for c in checked_claims)
        and not unattributed
    )
    return {
        "answer_text": answer_text,
        "all_verified": all_verified,
        "support_checked": support_checker is not None,
        "claims": checked_claims,
        "citations": citations,
        "unattributed_sentences": unattributed,
        "warnings": [{"code": f.code, "message": f.message} for f in dict.fromkeys(warnings)],
    }


def read_sources(
    chunks: Sequence[Mapping[str, Any] | SourceChunk] | Mapping[str, Any],
) -> list[SourceChunk]:
    """Source texts as SourceChunks; InputError naming the entry that cannot be read."""
    if isinstance(chunks, Mapping):
        chunks = next((chunks[k] for k in ("chunks", "sources") if k in chunks), [chunks])
    if not isinstance(chunks, Sequence) or isinstance(chunks, str):
        raise InputError("the sources must be a list of {id, text} objects")
    out: list[SourceChunk] = []
    for number, entry in enumerate(chunks, start=1):
        if isinstance(entry, SourceChunk):
            out.append(entry)
            continue
        if not isinstance(entry, Mapping):
            raise InputError(f"source {number} is not an object with an id and a text")
        source_id = _first(entry, _ID_KEYS)
        text = _first(entry, _TEXT_KEYS)
        if source_id is None or not isinstance(text, str):
            raise InputError(f"source {number} needs an id (chunk_id, source_id or id) and a text")
        page = entry.get("page", entry.get("page_number"))
        out.append(
            SourceChunk(
                chunk_id=str(source_id),
                document_id=str(entry.get("document_id") or source_id),
                document_title=str(entry.get("title") or entry.get("document_title") or source_id),
                document_url=entry.get("url"),
                section_heading=entry.get("section") or entry.get("section_heading"),
                page_number=page if isinstance(page, int) else None,
                chunk_text=text,
                char_start=0,
                char_end=len(text),
            )
        )
    ids = [c.chunk_id for c in out]
    if len(set(ids)) != len(ids):
        raise InputError("two sources share an id: every source needs its own")
    return out


def read_answer(output: Mapping[str, Any] | BaseModel) -> tuple[str, list[DraftClaim]]:
    """(answer text, claims) from any accepted answer shape."""
    data: Any = output.model_dump(mode="json") if isinstance(output, BaseModel) else output
    if not isinstance(data, Mapping):
        raise InputError("the answer must be a JSON object with claims or citations")
    answer = next((data[k] for k in ("answer_text", "answer") if isinstance(data.get(k), str)), "")
    raw_claims = next((data[k] for k in ("claims", "cited_claims") if k in data), None)
    try:
        if isinstance(raw_claims, list):
            return answer, [_claim(c, n) for n, c in enumerate(raw_claims, start=1)]
        if isinstance(data.get("citations"), list):  # the simple shape: one claim per citation
            return answer, [
                _claim({"citations": [c], "claim_text": _first(c, ("claim",))}, n)
                for n, c in enumerate(data["citations"], start=1)
                if isinstance(c, Mapping)
            ]
    except ValidationError as exc:
        raise InputError(f"the answer has an unreadable claim: {exc.errors()[0]['msg']}") from None
    raise InputError(
        'the answer has neither claims nor citations: expected {"claims": [...]} '
        'or {"citations": [{"source_id": ..., "quote": ...}]}'
    )


def _claim(raw: Any, number: int) -> DraftClaim:
    if not isinstance(raw, Mapping):
        raise InputError(f"claim {number} is not an object")
    text = _first(raw, _CLAIM_TEXT_KEYS)
    citations = [
        DraftCitation(
            chunk_id=str(_first(c, _ID_KEYS) or ""), quote=str(_first(c, _QUOTE_KEYS) or "")
        )
        for c in raw.get("citations") or []
        if isinstance(c, Mapping)
    ]
    if not citations:
        citations = [DraftCitation(chunk_id=str(i)) for i in raw.get("source_chunk_ids") or []]
    return DraftClaim(
        claim_text=text.strip() if isinstance(text, str) else "",
        citations=citations,
        attribution_confidence=None,
        is_synthesized=bool(raw.get("is_synthesized")),
    )


def _check_claim(
    claim: DraftClaim, sources: list[SourceChunk], checker: SupportChecker | None
) -> dict[str, Any]:
    """The claim checked as a whole, then each of its citations on its own."""
    # A citation without a claim (the simple shape) is checked as a quote: nothing to support.
    text = claim.claim_text or " ".join(c.quote for c in claim.citations)
    claim_checker = checker if claim.claim_text else None
    whole = verify_answer(
        DraftAnswer(answer_text=text, claims=[claim.model_copy(update={"claim_text": text})]),
        sources,
        support_checker=claim_checker,
    )
    flags: list[WarningFlag] = [*whole.flags, *whole.source_flags]
    citations = []
    for cited in claim.citations:
        one = verify_answer(
            DraftAnswer(answer_text=text, claims=[DraftClaim(claim_text=text, citations=[cited])]),
            sources,
            support_checker=claim_checker,
        )
        checked = one.claims[0] if one.claims else None
        citations.append(_citation_report(cited, checked, one.violations))
    return {
        "claim_text": claim.claim_text,
        "verified": bool(whole.claims and whole.claims[0].verified),
        "is_synthesized": claim.is_synthesized,
        "citations": citations,
        "_flags": flags,
    }


def _citation_report(
    cited: DraftCitation, checked: CitedClaim | None, violations: list[str]
) -> dict[str, Any]:
    report: dict[str, Any] = {
        "source_id": cited.chunk_id,
        "quote": cited.quote,
        "verified": False,
        "quote_status": str(QuoteStatus.NOT_FOUND),
        "quote_span": None,
        "support": "unchecked",
        "support_score": None,
        "found_in": None,
        "problems": violations,
    }
    if checked is None:  # the ID names no given source
        return report
    citation: Citation = checked.citations[0]
    report.update(
        quote_status=str(citation.quote_status),
        quote_span=[citation.quote_start, citation.quote_end]
        if citation.quote_start is not None
        else None,
        support=str(citation.support),
        support_score=citation.support_score,
        found_in=citation.chunk_id if citation.quote_status is not QuoteStatus.NOT_FOUND else None,
    )
    found = citation.quote_status is not QuoteStatus.NOT_FOUND
    repointed = found and resolve_chunk_id(cited.chunk_id, [citation.chunk_id]) is None
    if repointed:
        report["problems"] = [
            *violations,
            f"the quote is in {citation.chunk_id}, not in {cited.chunk_id}",
        ]
    report["verified"] = bool(checked.verified) and not repointed
    return report


def _first(data: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    return next((data[k] for k in keys if data.get(k) is not None), None)
