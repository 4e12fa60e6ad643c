"""Source chunks built for the generator tests (whole texts, confidence 0.8)."""

from __future__ import annotations

from ragcite.models import SourceChunk


def passage_chunk(
    chunk_id: str,
    text: str,
    *,
    heading: str | None = None,
    document_id: str | None = None,
    title: str = "Notes",
) -> SourceChunk:
    """A chunk holding all of `text`, of document `document_id` (default "doc-<chunk_id>")."""
    return SourceChunk(
        chunk_id=chunk_id,
        document_id=document_id or f"doc-{chunk_id}",
        document_title=title,
        section_heading=heading,
        chunk_text=text,
        char_start=0,
        char_end=len(text),
        composite_confidence=0.8,
    )
