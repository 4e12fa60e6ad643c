"""Flags for an answer drawn from an older version of a document.

An answer from a version that is no longer in force says which version it came from and
when that version was in force (`answered_from_version`) and, when the current version
answers differently, what the current one says (`superseded_answer`).

    >>> [f.code for f in version_flags(claims, chunks, versions_of)]
    ['answered_from_version']
"""

from __future__ import annotations

from collections.abc import Callable

from ragcite.flags import flag, shorten
from ragcite.index.store import SearchFilters, Store
from ragcite.models import (
    CitedClaim,
    CitedResponse,
    Document,
    DocumentStatus,
    SourceChunk,
    WarningFlag,
)
from ragcite.verify.normalize import normalize


def cited_versions(claims: list[CitedClaim], chunks: list[SourceChunk]) -> list[SourceChunk]:
    """One cited chunk per cited (document, version), in citation order."""
    by_id = {c.chunk_id: c for c in chunks}
    seen: dict[tuple[str, int], SourceChunk] = {}
    for claim in claims:
        for chunk_id in claim.source_chunk_ids:
            if chunk_id in by_id:
                chunk = by_id[chunk_id]
                seen.setdefault((chunk.document_id, chunk.document_version), chunk)
    return list(seen.values())


def version_flags(
    claims: list[CitedClaim],
    chunks: list[SourceChunk],
    versions_of: Callable[[str], list[Document]],
) -> list[WarningFlag]:
    """`answered_from_version` for each cited version that a newer one replaced, with the
    dates it was in force; `versions_of` gives a document's versions the reader may see."""
    flags = []
    for chunk in cited_versions(claims, chunks):
        versions = versions_of(chunk.document_id)
        newer = [d for d in versions if d.version > chunk.document_version]
        if not newer:
            continue
        until = min((d.effective_date for d in newer if d.effective_date is not None), default=None)
        flags.append(
            flag(
                "answered_from_version",
                title=chunk.document_title,
                version=chunk.document_version,
                since=chunk.document_date.isoformat() if chunk.document_date else "its start",
                until=until.isoformat() if until else "a newer version",
                latest=max(d.version for d in newer),
            )
        )
    return flags


def superseded_answer_flag(older: CitedResponse, current: CitedResponse) -> WarningFlag | None:
    """`superseded_answer` with what the current version says, when it answers and its
    answer differs from `older`'s; None otherwise."""
    if not current.answerable or not older.answerable:
        return None
    if normalize(current.answer_text) == normalize(older.answer_text):
        return None
    cited = cited_versions(current.cited_claims, current.source_chunks)
    if not cited:
        return None
    chunk = cited[0]
    label = chunk.document_version_name or (
        str(chunk.document_date.year) if chunk.document_date else f"v{chunk.document_version}"
    )
    return flag(
        "superseded_answer",
        label=label,
        title=chunk.document_title,
        version=chunk.document_version,
        answer=shorten(current.answer_text, 300),
    )


def beside_current(
    older: CitedResponse,
    store: Store,
    filters: SearchFilters,
    answer_current: Callable[[tuple[str, ...]], CitedResponse],
) -> CitedResponse:
    """`older` (answered from the versions a question asked about) with its version flags
    and, when the current versions of the cited documents answer differently
    (`answer_current`: the same answer step over them), what they say."""
    versions = document_versions(store, filters.access_groups)
    flags = version_flags(
        older.cited_claims, older.source_chunks, lambda doc: versions.get(doc, [])
    )
    if not flags:
        return older
    cited = cited_versions(older.cited_claims, older.source_chunks)
    differs = superseded_answer_flag(
        older, answer_current(tuple(dict.fromkeys(c.document_id for c in cited)))
    )
    if differs is not None:
        flags.append(differs)
    return older.model_copy(update={"warning_flags": [*older.warning_flags, *flags]})


def document_versions(
    store: Store, access_groups: tuple[str, ...] | None
) -> dict[str, list[Document]]:
    """The versions of each document the reader may see, deleted ones left out."""
    found: dict[str, list[Document]] = {}
    for document in store.list_documents(access_groups=access_groups):
        if document.status is not DocumentStatus.DELETED:
            found.setdefault(document.document_id, []).append(document)
    return found
