"""JSON for documents and their text (answers and chunks render through render/api.py)."""

from __future__ import annotations

from collections.abc import Collection
from itertools import groupby
from pathlib import PurePath
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ragcite.index.answers import Tombstone
from ragcite.index.feedback import FeedbackRecord
from ragcite.index.store import DocumentText
from ragcite.models import CitedResponse, Document
from ragcite.render.api import response_json


def answer_json(response: CitedResponse) -> dict[str, Any]:
    """The rendered response, with the question under both names a request may use
    (`query` and `question`), so a client reads back the name it sent."""
    rendered = response_json(response)
    return {**rendered, "question": rendered["query"]}


def version_json(document: Document, *, stale: bool = False) -> dict[str, Any]:
    return {
        "version": document.version,
        "version_name": document.version_name,
        "version_label": document.version_label,
        "status": str(document.status),
        "stale": stale,
        "superseded_by": document.superseded_by,
        "effective_date": document.effective_date.isoformat() if document.effective_date else None,
        "ingested_at": document.ingested_at.isoformat(),
        "last_verified": document.last_verified.isoformat() if document.last_verified else None,
        "content_sha256": document.content_sha256,
    }


def document_json(document: Document) -> dict[str, Any]:
    """One document version with its metadata."""
    return {
        "document_id": document.document_id,
        "title": document.title,
        "corpus": document.corpus,
        "url": document.url,
        "source_uri": shown_source(document.source_uri),
        "access": list(document.access),
        **version_json(document),
    }


def shown_source(uri: str) -> str:
    """A source fit to show a client: a URL without credentials, a relative path as it is,
    an absolute path by its file name only (the server's folders are nobody's business).

    >>> shown_source("/srv/kb/policies/leave.md"), shown_source("https://u:pw@wiki/x")
    ('leave.md', 'https://wiki/x')
    """
    parts = urlsplit(uri)
    if parts.scheme in ("http", "https") and parts.netloc:
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit(parts._replace(netloc=host))
    path = parts.path if parts.scheme == "file" else uri
    return PurePath(path).name if PurePath(path).is_absolute() or parts.scheme else path


def documents_json(
    documents: list[Document], stale: Collection[tuple[str, int]] = ()
) -> list[dict[str, Any]]:
    """Documents with every version, newest first; the top level describes the newest.
    `stale` holds the (document ID, version) pairs marked `"stale": true`."""
    listed = []
    for _, group in groupby(documents, key=lambda d: d.document_id):
        versions = sorted(group, key=lambda d: d.version, reverse=True)
        shown = [version_json(v, stale=(v.document_id, v.version) in stale) for v in versions]
        listed.append({**document_json(versions[0]), **shown[0], "versions": shown})
    return listed


def document_text_json(text: DocumentText) -> dict[str, Any]:
    return {
        "document": document_json(text.document),
        "text": text.text,
        "pages": [
            {"page": p.page_number, "char_start": p.char_start, "char_end": p.char_end}
            for p in text.pages
        ],
    }


def feedback_json(record: FeedbackRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "created_at": record.created_at.isoformat(),
        "query": record.query,
        "rating": record.rating,
        "chunk_id": record.chunk_id,
        "claim_text": record.claim_text,
        "comment": record.comment,
        "key_name": record.key_name,
    }


def tombstone_json(tombstone: Tombstone) -> dict[str, Any]:
    return {
        "document_id": tombstone.document_id,
        "title": tombstone.title,
        "erased_at": tombstone.erased_at.isoformat(),
        "erased_by": tombstone.erased_by,
    }
