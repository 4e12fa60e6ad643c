"""Reading an unchanged file again (`ragcite ingest --reread`).

A file whose bytes and metadata are stored already is normally skipped before it is parsed.
When ragcite reads a format better than it did (tables in plain text, say) or the chunk
settings change, `--reread` loads such files again: one whose extracted text or chunks now
differ replaces its stored version's text, chunks and vectors under the same version number,
and saved answers that cite it can be re-checked (`--recheck`); one that reads the same is
still unchanged. A deleted version is never read back in.
"""

from __future__ import annotations

from pathlib import Path

from ragcite.index.ingest_outcomes import FileOutcome
from ragcite.index.store import Store
from ragcite.models import Document, DocumentStatus, SourceChunk


def rereads(known: Document, reread: bool) -> bool:
    """Whether a file stored before as `known` is read again."""
    return reread and known.status is not DocumentStatus.DELETED


def unchanged(path: Path, known: Document) -> FileOutcome:
    """The outcome of a file stored before with these bytes and metadata."""
    return FileOutcome(path, "unchanged", known.document_id, known.version)


def reads_the_same(store: Store, known: Document, text: str, chunks: list[SourceChunk]) -> bool:
    """Whether the file, read again, gives the stored version's text and chunks (the same
    chunk IDs, offsets, pages and headings)."""
    if store.document_text(known.document_id, known.version).text != text:
        return False
    found = store.get_chunks([c.chunk_id for c in chunks])
    return [_where(c) for c in found] == [_where(c) for c in chunks]


def _where(chunk: SourceChunk) -> tuple[str, int, int, int | None, str | None]:
    return (
        chunk.chunk_id,
        chunk.char_start,
        chunk.char_end,
        chunk.page_number,
        chunk.section_heading,
    )
