"""A version's chunks as stored: content-addressed IDs, and the text ingest embeds for each.

>>> chunk_id_for("handbook", 2, "Leave is 25 days.", 0)
'c_5373f46547b74e77'
"""

from __future__ import annotations

import hashlib

from ragcite.ingest.types import TextChunk
from ragcite.models import Document, SourceChunk


def chunk_id_for(document_id: str, version: int, text: str, occurrence: int) -> str:
    """Content-addressed: the same text in the same document version keeps its ID."""
    digest = hashlib.sha256(f"{document_id}\0{version}\0{occurrence}\0{text}".encode()).hexdigest()
    return f"c_{digest[:16]}"


def source_chunks(document: Document, pieces: list[TextChunk]) -> list[SourceChunk]:
    seen: dict[str, int] = {}
    chunks = []
    for piece in pieces:
        occurrence = seen.get(piece.text, 0)
        seen[piece.text] = occurrence + 1
        chunks.append(
            SourceChunk(
                chunk_id=chunk_id_for(
                    document.document_id, document.version, piece.text, occurrence
                ),
                document_id=document.document_id,
                document_version=document.version,
                document_version_name=document.version_name,
                document_title=document.title,
                document_url=document.url,
                document_date=document.effective_date,
                corpus=document.corpus,
                page_number=piece.page_number,
                section_heading=piece.section_heading,
                chunk_text=piece.text,
                char_start=piece.char_start,
                char_end=piece.char_end,
            )
        )
    return chunks


def embedding_text(title: str, chunk: SourceChunk) -> str:
    """What ingest embeds for a chunk: "title — section", then its text. The title and
    section give a chunk the context its sentences leave implicit."""
    heading = f" — {chunk.section_heading}" if chunk.section_heading else ""
    return f"{title}{heading}\n{chunk.chunk_text}"
