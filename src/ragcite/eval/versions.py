"""Version questions: was a question that names a date or version answered from the
version of the document in force then, and was an older version's answer flagged?

A version question is a labelled answerable question with an `expected_version` whose
text holds a time reference (`text.time_refs`: "under the 2019 policy", "v1", "before
March 2024"). It is answered from the right version when it is answered and every
claim's sources in the expected document are of the expected version (at least one).

    >>> version_metrics(traces)["answered_from_right_version"]
    1.0
"""

from __future__ import annotations

from ragcite.eval.metrics import mean
from ragcite.eval.runner import QuestionTrace
from ragcite.models import DocumentStatus
from ragcite.text.time_refs import parse_time_reference


def is_version_question(trace: QuestionTrace) -> bool:
    question = trace.question
    return (
        question.answerable
        and question.expected_version is not None
        and parse_time_reference(question.query) is not None
    )


def answered_from_right_version(trace: QuestionTrace) -> bool:
    """Answered, citing the expected document only in its expected version."""
    response, question = trace.response, trace.question
    if not response.answerable:
        return False
    chunks = trace.chunks_by_id
    cited = [
        chunks[i]
        for claim in response.cited_claims
        for i in claim.source_chunk_ids
        if i in chunks and chunks[i].document_id == question.expected_document_id
    ]
    return bool(cited) and all(c.document_version == question.expected_version for c in cited)


def version_metrics(traces: list[QuestionTrace]) -> dict[str, float | int | list[str]]:
    """The share of version questions answered from the right version; of those answered
    from a superseded version, the share flagged `answered_from_version`; and the ids of
    the questions answered from another version (`wrong_version`)."""
    cases = [t for t in traces if is_version_question(t)]
    right = [answered_from_right_version(t) for t in cases]
    from_superseded = [
        t
        for t in cases
        if any(
            c.document_status is DocumentStatus.SUPERSEDED
            for c in t.response.source_chunks
            if any(c.chunk_id in claim.source_chunk_ids for claim in t.response.cited_claims)
        )
    ]
    flagged = [
        any(f.code == "answered_from_version" for f in t.response.warning_flags)
        for t in from_superseded
    ]
    return {
        "questions": len(cases),
        "answered_from_right_version": mean([float(r) for r in right]),
        "answered_from_superseded": len(from_superseded),
        "superseded_answers_flagged": mean([float(f) for f in flagged]),
        "wrong_version": [t.question.id for t, ok in zip(cases, right, strict=True) if not ok],
    }
