"""The PostgreSQL store's unit of work: the primitive writes the indexer composes.

A `PostgresWriter` lives inside one transaction (`PostgresStore.write`). Before it reads
or changes a document it takes a transaction-scoped advisory lock on the document's ID,
so two processes writing versions of one document queue behind each other: what
`versions` reads stays true until the commit, and the second writer sees the first's
version (and replaces it) instead of inserting a duplicate. The primary key on
(document_id, version) would refuse a duplicate anyway. Writers of different documents
run side by side. It stores what it is given; the supersession policy is the indexer's.
"""

from __future__ import annotations

from typing import Any

import psycopg

from ragcite.errors import StoreError
from ragcite.index.postgres.rows import delete_version, document_from_row, insert_version
from ragcite.index.store import NewVersion
from ragcite.models import Document, DocumentStatus

DOCUMENT_LOCK_SPACE = "ragcite.document:"
"""Prefix of the text hashed into a document's advisory lock key."""


class PostgresWriter:
    """The `StoreWriter` of the PostgreSQL store, bound to one open transaction."""

    def __init__(self, conn: psycopg.Connection[Any], where: str, dimension: int | None) -> None:
        self._conn = conn
        self._where = where
        self.dimension = dimension
        self.changed = False
        self._locked: set[str] = set()

    def versions(self, document_id: str) -> list[Document]:
        self._lock(document_id)
        rows = self._conn.execute(
            "SELECT * FROM ragcite_documents WHERE document_id = %s ORDER BY version",
            (document_id,),
        ).fetchall()
        return [document_from_row(row) for row in rows]

    def add_version(self, version: NewVersion) -> Document:
        self._check_vectors(version)
        self._lock(version.document.document_id)
        insert_version(self._conn, version)
        self.changed = True
        return version.document

    def remove_version(self, document_id: str, version: int) -> bool:
        self._lock(document_id)
        removed = delete_version(self._conn, document_id, version)
        self.changed = self.changed or removed
        return removed

    def mark_superseded(self, document_id: str, by_version: int) -> int:
        self._lock(document_id)
        count = self._conn.execute(
            "UPDATE ragcite_documents SET status = %s, superseded_by = %s "
            "WHERE document_id = %s AND status = %s AND version != %s",
            (
                str(DocumentStatus.SUPERSEDED),
                by_version,
                document_id,
                str(DocumentStatus.ACTIVE),
                by_version,
            ),
        ).rowcount
        self.changed = self.changed or count > 0
        return count

    def _lock(self, document_id: str) -> None:
        """Hold the document's advisory lock until this transaction ends (once is enough)."""
        if document_id not in self._locked:
            self._conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                (DOCUMENT_LOCK_SPACE + document_id,),
            )
            self._locked.add(document_id)

    def _check_vectors(self, version: NewVersion) -> None:
        where = version.document.source_uri
        chunks, vectors = len(version.chunks), version.vectors
        if vectors.ndim != 2 or len(vectors) != chunks:
            raise StoreError(
                f"{where}: {chunks} chunks but vectors of shape {vectors.shape}; "
                "give one vector per chunk"
            )
        width = int(vectors.shape[1])
        if self.dimension is not None and width != self.dimension and chunks:
            raise StoreError(
                f"{where}: {width}-dimensional vectors, but the store at {self._where} holds "
                f"{self.dimension}-dimensional ones; embed with the model the store was built "
                "with, or use a new store"
            )
