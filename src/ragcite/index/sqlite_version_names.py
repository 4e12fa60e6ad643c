"""Document versions' names for chunk reads of the embedded store, read once per generation.

`version_name` is the last column of the `documents` table (added by a migration), so
it is stored after the version's extracted text: reading it walks every overflow page of
that text (about 120 pages for a 480 KB document). Chunk rows joined with it cost 15 ms
for 60 chunks of distinct documents in a store of 1M chunks, against 0.6 ms with every
other document column. So chunk reads take the other columns from the join and the
names from here: read for the versions not yet known, kept while the store's generation
holds (a version's name is written with its row; a generation move clears them all).
"""

from __future__ import annotations

from collections.abc import Iterable

from ragcite.index.sqlite_db import SQLiteDatabase

VersionKey = tuple[str, int]
"""(document_id, version)."""

CAPACITY = 100_000
"""Names kept at most; past it they are all read again as needed."""

_BATCH = 400
"""Versions read per query (two bound arguments each, under SQLite's limit)."""


class VersionNames:
    """The names of document versions, cached per store generation."""

    def __init__(self, db: SQLiteDatabase, capacity: int = CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be >= 1, but got {capacity}")
        self._db = db
        self.capacity = capacity
        self.generation = -1
        self._names: dict[VersionKey, str | None] = {}

    def of(self, generation: int, keys: Iterable[VersionKey]) -> dict[VersionKey, str | None]:
        """The names of the versions `keys` as stored at `generation` (the caller reads it
        in the same snapshot); a version with no row is left out."""
        if generation != self.generation or len(self._names) > self.capacity:
            self._names.clear()
            self.generation = generation
        wanted = list(dict.fromkeys(keys))
        missing = [key for key in wanted if key not in self._names]
        for start in range(0, len(missing), _BATCH):
            self._names.update(self._read(missing[start : start + _BATCH]))
        return {key: self._names[key] for key in wanted if key in self._names}

    def _read(self, keys: list[VersionKey]) -> dict[VersionKey, str | None]:
        pairs = ",".join("(?,?)" for _ in keys)
        rows = self._db.query(
            # A join, so each version is looked up by its key (`IN (VALUES ...)` scans).
            f"SELECT d.document_id, d.version, d.version_name FROM (VALUES {pairs}) AS v "
            "JOIN documents d ON d.document_id = v.column1 AND d.version = v.column2",
            tuple(part for key in keys for part in key),
        )
        return {(str(r[0]), int(r[1])): r[2] for r in rows}
