"""Documents: upload, list, delete, read their text; chunks with their neighbours."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Query, UploadFile
from fastapi.responses import JSONResponse

from ragcite.errors import NotFoundError
from ragcite.index.answers import erasing_store
from ragcite.ingest.types import DocumentMetadata
from ragcite.ingest.versions import VersionInput, parse_version
from ragcite.lifecycle.saved import erase_document
from ragcite.render.api import source_json
from ragcite.score.staleness import stale_documents
from ragcite.server import deps
from ragcite.server.uploads import ingest_upload, safe_filename
from ragcite.server.views import (
    document_json,
    document_text_json,
    documents_json,
    tombstone_json,
)

router = APIRouter(tags=["documents"])


@router.get("/documents", summary="Documents with their versions and status")
def list_documents(
    rag: deps.Rag,
    caller: deps.Caller,
    corpus: Annotated[str | None, Query(description="Only this corpus.")] = None,
    stale: Annotated[
        bool,
        Query(description="Only active documents not verified for lifecycle.stale_after_days."),
    ] = False,
) -> dict[str, Any]:
    """The documents the caller may read (an admin key: all of them, deleted ones too, and
    the tombstones of erased ones under `erased`)."""
    found = rag.store.list_documents(corpus, access_groups=caller.access_groups)
    old = stale_documents(found, rag.settings.lifecycle.stale_after_days)
    marked = {(d.document_id, d.version) for d in old}
    body: dict[str, Any] = {"documents": documents_json(old if stale else found, marked)}
    if caller.admin:
        body["erased"] = [tombstone_json(t) for t in erasing_store(rag.store).tombstones()]
    return body


@router.post(
    "/documents",
    summary="Upload and ingest one file (PDF, HTML, Markdown, DOCX, text)",
    status_code=201,
    responses={200: {"description": "The file was ingested before: nothing changed."}},
)
def upload_document(
    state: deps.State,
    _: deps.Admin,
    file: Annotated[UploadFile, File(description="The document file.")],
    title: Annotated[str | None, Form()] = None,
    url: Annotated[str | None, Form()] = None,
    document_id: Annotated[str | None, Form()] = None,
    version: Annotated[
        str | None,
        Form(
            description="The version: a number (5 or v5) or a name of up to 64 characters "
            "(2024-Q3, Rev B), numbered next in sequence.",
            examples=["v5", "2024-Q3"],
        ),
    ] = None,
    effective_date: Annotated[date | None, Form()] = None,
    corpus: Annotated[str | None, Form()] = None,
) -> JSONResponse:
    """Same validation as `ragcite ingest FILE`: an unsupported, corrupt or empty file is
    refused with problem details naming it; unchanged bytes are not stored twice."""
    filename = safe_filename(file.filename)
    given = VersionInput() if version is None else parse_version(version, what="version field")
    metadata = DocumentMetadata(
        title=title,
        url=url,
        document_id=document_id,
        version=given.number,
        effective_date=effective_date,
        version_name=given.name,
    )
    outcome = ingest_upload(
        state.rag, filename, file.file.read(), state.upload_dir, metadata=metadata, corpus=corpus
    )
    assert outcome.document_id is not None and outcome.version is not None
    stored = state.rag.store.document_text(outcome.document_id, outcome.version).document
    body = {
        "status": outcome.status,
        "filename": filename,
        "chunks": outcome.chunks,
        "document": document_json(stored),
    }
    return JSONResponse(body, status_code=201 if outcome.status == "added" else 200)


@router.delete("/documents/{document_id}", summary="Delete a document (kept for audit)")
def delete_document(
    document_id: str,
    rag: deps.Rag,
    admin: deps.Admin,
    erase: Annotated[
        bool, Query(description="Erase it for good instead (POST /documents/{id}/erase).")
    ] = False,
) -> dict[str, Any]:
    """Every version is marked deleted: never searched again, kept for audit."""
    if erase:
        return erase_document_route(document_id, rag, admin)
    return {"document_id": document_id, "versions_deleted": rag.store.delete_document(document_id)}


@router.post("/documents/{document_id}/erase", summary="Erase a document for good")
def erase_document_route(document_id: str, rag: deps.Rag, admin: deps.Admin) -> dict[str, Any]:
    """Text, chunks, vectors, keyword rows, every version, cached answers and saved
    answers' quotes of it are removed in one transaction; a tombstone remains."""
    report = erase_document(rag, document_id, erased_by=f"key:{admin.name}")
    return {
        "document_id": document_id,
        "erased": tombstone_json(report.tombstone),
        "versions_erased": report.versions,
        "chunks_erased": report.chunks,
        "cached_answers_removed": report.cached_answers,
        "saved_answers_redacted": report.saved_answers,
    }


@router.get("/documents/{document_id}/text", summary="A document's text with page boundaries")
def document_text(
    document_id: str,
    rag: deps.Rag,
    caller: deps.Caller,
    version: Annotated[int | None, Query(ge=1, description="Default: the newest.")] = None,
) -> dict[str, Any]:
    """The extracted text that chunk offsets and citations' `document_span` point into.
    A document the caller may not read is not found, exactly like a missing one."""
    groups = caller.access_groups
    return document_text_json(rag.store.document_text(document_id, version, access_groups=groups))


@router.get("/chunks/{chunk_id}", summary="A chunk with its document and neighbours")
def get_chunk(
    chunk_id: str,
    rag: deps.Rag,
    caller: deps.Caller,
    neighbours: Annotated[int, Query(ge=0, le=10, description="Chunks either side.")] = 1,
) -> dict[str, Any]:
    """A chunk the caller may not read is not found, exactly like a missing one."""
    groups = caller.access_groups
    found = rag.store.get_chunks([chunk_id], access_groups=groups)
    if not found:
        raise NotFoundError(f"no chunk with id '{chunk_id}' in the store")
    chunk = found[0]
    around = rag.store.neighbours(
        chunk_id, before=neighbours, after=neighbours, access_groups=groups
    )
    version = chunk.document_version
    document = rag.store.document_text(chunk.document_id, version, access_groups=groups).document
    return {
        "chunk": source_json(chunk),
        "document": document_json(document),
        "before": [source_json(c) for c in around if c.char_start < chunk.char_start],
        "after": [source_json(c) for c in around if c.char_start > chunk.char_start],
    }
