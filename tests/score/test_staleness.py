"""Staleness with real dates: what a document's age counts from, and the flags."""

from __future__ import annotations

from datetime import UTC, date, datetime

from ragcite.models import CitedClaim, Document, DocumentStatus, SourceChunk
from ragcite.score.staleness import age_basis, is_stale, stale_documents, stale_source_flags


def doc(
    doc_id: str = "hr",
    *,
    version: int = 1,
    effective: date | None = None,
    verified: datetime | None = None,
    ingested: datetime = datetime(2025, 6, 1, 12, tzinfo=UTC),
    status: DocumentStatus = DocumentStatus.ACTIVE,
) -> Document:
    return Document(
        document_id=doc_id,
        title=f"{doc_id.upper()} Policy",
        source_uri=f"{doc_id}.md",
        content_sha256="x",
        version=version,
        effective_date=effective,
        last_verified=verified,
        ingested_at=ingested,
        status=status,
    )


def chunk(document: Document, status: DocumentStatus = DocumentStatus.ACTIVE) -> SourceChunk:
    return SourceChunk(
        chunk_id=f"{document.document_id}-{document.version}",
        document_id=document.document_id,
        document_version=document.version,
        document_title=document.title,
        document_status=status,
        chunk_text="text",
        char_start=0,
        char_end=4,
    )


def test_age_counts_from_verification_then_effective_date_then_ingest() -> None:
    verified = datetime(2026, 2, 3, 10, tzinfo=UTC)
    assert age_basis(doc(effective=date(2020, 1, 1), verified=verified)) == (
        "was last verified on",
        date(2026, 2, 3),
    )
    assert age_basis(doc(effective=date(2020, 1, 1))) == ("took effect on", date(2020, 1, 1))
    assert age_basis(doc()) == ("was ingested on", date(2025, 6, 1))


def test_stale_once_the_days_have_passed() -> None:
    policy = doc(effective=date(2025, 1, 1))
    assert not is_stale(policy, 365, today=date(2025, 12, 31))  # 364 days
    assert is_stale(policy, 365, today=date(2026, 1, 1))  # 365 days
    assert not is_stale(policy, 0, today=date(2040, 1, 1))  # 0: off
    reverified = doc(effective=date(2019, 3, 1), verified=datetime(2025, 11, 1, tzinfo=UTC))
    assert not is_stale(reverified, 365, today=date(2026, 6, 1))


def test_flags_name_each_stale_cited_document_once() -> None:
    old = doc("old", effective=date(2019, 3, 1))
    fresh = doc("fresh", verified=datetime(2026, 11, 1, tzinfo=UTC))
    unused = doc("unused", effective=date(2010, 1, 1))
    chunks = [chunk(old), chunk(fresh), chunk(unused)]
    claims = [
        CitedClaim(claim_text="a", source_chunk_ids=["old-1", "fresh-1"]),
        CitedClaim(claim_text="b", source_chunk_ids=["old-1"]),
    ]
    latest = {d.document_id: d for d in (old, fresh, unused)}.get
    flags = stale_source_flags(claims, chunks, latest, 365, today=date(2026, 12, 1))
    assert [f.code for f in flags] == ["stale_source"]
    assert "OLD Policy (old) took effect on 2019-03-01" in flags[0].message
    assert "365 days" in flags[0].message
    assert stale_source_flags(claims, chunks, latest, 0, today=date(2026, 12, 1)) == []


def test_superseded_sources_and_lists() -> None:
    old = doc("old", effective=date(2019, 3, 1))
    newer = doc("old", version=2, effective=datetime.now(UTC).date())  # fresh whenever run
    claims = [CitedClaim(claim_text="a", source_chunk_ids=["old-1"])]
    superseded = [chunk(old, DocumentStatus.SUPERSEDED)]
    assert (
        stale_source_flags(claims, superseded, lambda _: newer, 365, today=date(2026, 12, 1)) == []
    )
    listed = [
        old.model_copy(update={"status": DocumentStatus.SUPERSEDED}),
        newer,
        doc("x", effective=date(2000, 1, 1)),
    ]
    assert [d.document_id for d in stale_documents(listed, 365)] == ["x"]
