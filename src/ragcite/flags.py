"""Warning flags: stable codes for programs, messages for people.

Any stage may raise a flag; the codes below are a public contract (the web page,
the API and the eval harness count them), so add codes, never rename them.
"""

from __future__ import annotations

from ragcite.models import WarningFlag

MESSAGES: dict[str, str] = {
    "no_documents_retrieved": "No documents matched the question.",
    "not_answerable": "The documents do not answer this question; the closest material is shown.",
    "low_overall_confidence": "Overall confidence is low ({confidence:.2f}); check the sources.",
    "majority_claims_low_confidence": "Most claims ({low} of {total}) have low confidence.",
    "hallucinated_chunk_id": "A claim cited a source that was not retrieved ({chunk_id}); "
    "the citation was removed.",
    "claim_dropped": "A claim was removed: {reason}.",
    "partial_attribution": "A claim kept only some of its citations: {reason}.",
    "quote_not_found": 'A quoted passage was not found in its source: "{quote}".',
    "quote_repointed": "A quote was found in a different source than the one cited; "
    "the citation now points to {chunk_id}.",
    "unsupported_claim": 'A claim is not supported by its source: "{claim}".',
    "contradicted_claim": 'A claim is contradicted by its source: "{claim}".',
    "unattributed_sentence": 'A sentence has no citation: "{sentence}".',
    "superseded_source": "A cited source has been superseded by a newer version ({display}).",
    "retried": "The first answer failed verification ({reason}); it was regenerated once.",
    "degraded_to_sources": "No verified answer could be produced; the best sources are shown "
    "instead.",
    "generation_failed": "The answer generator failed: {reason}.",
    "instruction_in_source": "A source contains text addressed to an AI or a reader as an "
    "instruction ({display}); it was treated as data, never as a fact.",
    "cached_answer": "This answer was cached {age} ago ({cached_at}); the documents have not "
    "changed since.",
    "answered_from_version": "Answered from an older version: {title} version {version}, in "
    "force from {since} until {until}; it has been superseded (the current version is "
    "{latest}).",
    "superseded_answer": "Superseded: the {label} version ({title} version {version}) says: "
    "{answer}",
    "stale_source": "A cited source may be out of date: {title} ({document_id}) {basis} "
    "{date}, more than {days} days ago.",
}


def flag(code: str, **details: object) -> WarningFlag:
    """The flag `code` with its message filled from `details`."""
    template = MESSAGES[code]  # an unknown code is a programming error
    try:
        message = template.format(**details)
    except (KeyError, ValueError, IndexError):
        message = template.split(":")[0].split("(")[0].strip().rstrip(".") + "."
    return WarningFlag(code=code, message=message)


def shorten(text: str, limit: int = 80) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis."""
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1].rstrip() + "…"
