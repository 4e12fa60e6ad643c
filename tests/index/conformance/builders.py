"""Test data for the store conformance suite: versions with chosen texts and vectors."""

from __future__ import annotations

from datetime import date

import numpy as np
import numpy.typing as npt

from ragcite.index.store import NewVersion
from ragcite.ingest.types import PageSpan
from ragcite.models import Document, DocumentStatus, SourceChunk

DIMENSION = 384
"""The packaged MiniLM's vector length, so real embeddings and unit vectors share stores."""


def axis(i: int) -> npt.NDArray[np.float32]:
    """The unit vector along axis `i`."""
    vector = np.zeros(DIMENSION, dtype=np.float32)
    vector[i] = 1.0
    return vector


def at_cosine(cosine: float, *, other_axis: int = 1) -> npt.NDArray[np.float32]:
    """A unit vector whose cosine with `axis(0)` is exactly `cosine`."""
    vector = np.zeros(DIMENSION, dtype=np.float32)
    vector[0] = cosine
    vector[other_axis] = np.sqrt(1.0 - cosine**2)
    return vector


def version(
    doc_id: str,
    number: int,
    texts: list[str],
    *,
    vectors: list[npt.NDArray[np.float32]] | npt.NDArray[np.float32] | None = None,
    corpus: str = "default",
    access: tuple[str, ...] = (),
    sha: str | None = None,
    status: DocumentStatus = DocumentStatus.ACTIVE,
    pages: tuple[PageSpan, ...] = (),
    title: str | None = None,
    effective_date: date | None = None,
    version_name: str | None = None,
) -> NewVersion:
    """A version whose chunks are `texts`, joined by blank lines into the document text.

    Vectors default to random unit vectors seeded by the document and version.
    """
    document = Document(
        document_id=doc_id,
        corpus=corpus,
        title=title or doc_id.title(),
        source_uri=f"/docs/{doc_id}.md",
        version=number,
        content_sha256=sha or f"{doc_id}-{number}",
        access=access,
        status=status,
        effective_date=effective_date,
        version_name=version_name,
    )
    chunks, offset = [], 0
    for i, text in enumerate(texts):
        chunks.append(
            SourceChunk(
                chunk_id=f"{doc_id}-{number}-{i}",
                document_id=doc_id,
                document_version=number,
                document_version_name=version_name,
                document_title=document.title,
                corpus=corpus,
                page_number=_page_of(offset, pages),
                chunk_text=text,
                char_start=offset,
                char_end=offset + len(text),
            )
        )
        offset += len(text) + 2
    return NewVersion(
        document, "\n\n".join(texts), pages, chunks, _vectors(doc_id, number, texts, vectors)
    )


def _vectors(
    doc_id: str,
    number: int,
    texts: list[str],
    given: list[npt.NDArray[np.float32]] | npt.NDArray[np.float32] | None,
) -> npt.NDArray[np.float32]:
    if given is not None:
        return np.asarray(given, dtype=np.float32).reshape(len(texts), DIMENSION)
    seed = sum(map(ord, f"{doc_id}/{number}"))
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(len(texts), DIMENSION)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _page_of(offset: int, pages: tuple[PageSpan, ...]) -> int | None:
    return next((p.page_number for p in pages if p.char_start <= offset < p.char_end), None)
