"""Staleness: documents nobody has re-verified for `lifecycle.stale_after_days`.

A document's age runs from when it was last verified (`ragcite documents verify ID`),
or, if it never was, from its effective date, or else from when it was ingested. Citing
a stale document is allowed, but the answer carries a `stale_source` warning naming it
and the date.

    >>> doc = Document(document_id="hr", title="HR", source_uri="hr.md",
    ...                content_sha256="x", effective_date=date(2023, 1, 1))
    >>> is_stale(doc, 365, today=date(2024, 1, 2)), age_basis(doc)
    (True, ('took effect on', datetime.date(2023, 1, 1)))
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime

from ragcite.flags import flag
from ragcite.models import CitedClaim, Document, DocumentStatus, SourceChunk, WarningFlag


def age_basis(document: Document) -> tuple[str, date]:
    """What the document's age counts from, in words, and that date."""
    if document.last_verified is not None:
        return "was last verified on", document.last_verified.date()
    if document.effective_date is not None:
        return "took effect on", document.effective_date
    return "was ingested on", document.ingested_at.date()


def is_stale(document: Document, stale_after_days: int, *, today: date) -> bool:
    """Whether `stale_after_days` days (0: never) have passed since `age_basis`."""
    if stale_after_days <= 0:
        return False
    return (today - age_basis(document)[1]).days >= stale_after_days


def stale_flag(document: Document, stale_after_days: int) -> WarningFlag:
    basis, since = age_basis(document)
    return flag(
        "stale_source",
        title=document.title,
        document_id=document.document_id,
        basis=basis,
        date=since.isoformat(),
        days=stale_after_days,
    )


def stale_source_flags(
    claims: list[CitedClaim],
    chunks: list[SourceChunk],
    latest_version: Callable[[str], Document | None],
    stale_after_days: int,
    *,
    today: date,
) -> list[WarningFlag]:
    """A `stale_source` flag for each stale document the claims cite (its version in
    force; superseded sources have their own flag). `latest_version` is the store's."""
    if stale_after_days <= 0:
        return []
    by_id = {c.chunk_id: c for c in chunks}
    cited = dict.fromkeys(
        (by_id[i].document_id, by_id[i].document_version)
        for claim in claims
        for i in claim.source_chunk_ids
        if i in by_id and by_id[i].document_status is DocumentStatus.ACTIVE
    )
    flags = []
    for document_id, version in cited:
        document = latest_version(document_id)
        if document is None or document.version != version:
            continue
        if is_stale(document, stale_after_days, today=today):
            flags.append(stale_flag(document, stale_after_days))
    return flags


def stale_documents(documents: list[Document], stale_after_days: int) -> list[Document]:
    """The active versions among `documents` that are stale today (UTC)."""
    today = datetime.now(UTC).date()
    return [
        d
        for d in documents
        if d.status is DocumentStatus.ACTIVE and is_stale(d, stale_after_days, today=today)
    ]


def superseded_source_flags(
    claims: list[CitedClaim], chunks: list[SourceChunk]
) -> list[WarningFlag]:
    """A `superseded_source` flag for each cited chunk from a superseded version."""
    by_id = {c.chunk_id: c for c in chunks}
    return [
        flag("superseded_source", display=by_id[i].display)
        for i in dict.fromkeys(i for c in claims for i in c.source_chunk_ids)
        if i in by_id and by_id[i].document_status is DocumentStatus.SUPERSEDED
    ]
