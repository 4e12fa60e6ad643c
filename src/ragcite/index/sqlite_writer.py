"""The embedded store's unit of work: the primitive writes the indexer composes.

A `SQLiteWriter` lives inside one BEGIN IMMEDIATE transaction (`SQLiteStore.write`),
which also serialises writers across processes: what `versions` reads stays true until
the commit. It stores what it is given; the supersession policy is the indexer's.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ragcite.errors import StoreError
from ragcite.index.sqlite_db import stored_dimension
from ragcite.index.sqlite_rows import (
    DOCUMENT_COLUMNS,
    delete_version,
    document_from_row,
    insert_version,
)
from ragcite.index.store import NewVersion
from ragcite.models import Document, DocumentStatus


class SQLiteWriter:
    """The `StoreWriter` of the embedded store, bound to one open transaction."""

    def __init__(self, db: sqlite3.Connection, path: Path, dimension: int | None) -> None:
        self._db = db
        self._path = path
        self.dimension = dimension if dimension is not None else stored_dimension(db)
        self.changed = False

    def versions(self, document_id: str) -> list[Document]:
        cursor = self._db.execute(
            f"SELECT {DOCUMENT_COLUMNS} FROM documents d WHERE d.document_id = ? "
            "ORDER BY d.version",
            (document_id,),
        )
        cursor.row_factory = sqlite3.Row
        return [document_from_row(row) for row in cursor.fetchall()]

    def add_version(self, version: NewVersion) -> Document:
        self._check_vectors(version)
        insert_version(self._db, version)
        self.changed = True
        return version.document

    def remove_version(self, document_id: str, version: int) -> bool:
        removed = delete_version(self._db, document_id, version)
        self.changed = self.changed or removed
        return removed

    def mark_superseded(self, document_id: str, by_version: int) -> int:
        count = self._db.execute(
            "UPDATE documents SET status = ?, superseded_by = ? "
            "WHERE document_id = ? AND status = ? AND version != ?",
            (DocumentStatus.SUPERSEDED, by_version, document_id, DocumentStatus.ACTIVE, by_version),
        ).rowcount
        self.changed = self.changed or count > 0
        return count

    def _check_vectors(self, version: NewVersion) -> None:
        where = version.document.source_uri
        chunks, vectors = len(version.chunks), version.vectors
        if vectors.ndim != 2 or len(vectors) != chunks:
            raise StoreError(
                f"{where}: {chunks} chunks but vectors of shape {vectors.shape}; "
                "give one vector per chunk"
            )
        width = int(vectors.shape[1])
        if self.dimension is None:
            self.dimension = width
        elif width != self.dimension and chunks:
            raise StoreError(
                f"{where}: {width}-dimensional vectors, but the store at {self._path} holds "
                f"{self.dimension}-dimensional ones; embed with the model the store was built "
                "with, or use a new store"
            )
