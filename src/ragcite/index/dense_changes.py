"""What the dense index reads from the embedded store: its state, and the vectors to add.

Called inside one read transaction (`SQLiteDatabase.snapshot`), so the generation, the
removal log and the rows agree even while another process writes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ragcite.index.sqlite_db import SQLiteDatabase

VECTOR_PAGE = 20_000
"""Rows read at a time."""

Rowids = npt.NDArray[np.int64]
Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class StoreState:
    """The store as the dense index sees it."""

    generation: int
    store_id: str
    removal_seq: int
    """The last `chunk_removals.seq` (0: nothing removed yet)."""
    count: int
    dimension: int
    """The stored vectors' length (0: no chunk stored)."""
    max_rowid: int


def store_state(db: SQLiteDatabase) -> StoreState:
    meta: dict[str, str] = {
        str(r[0]): str(r[1])
        for r in db.query("SELECT key, value FROM meta WHERE key IN ('generation', 'store_id')")
    }
    seq = db.query_one("SELECT MAX(seq) FROM chunk_removals")
    rows = db.query_one("SELECT COUNT(*), MAX(rowid) FROM chunks")
    first = db.query_one("SELECT length(vector) FROM chunks LIMIT 1")
    return StoreState(
        generation=int(meta.get("generation", 0)),
        store_id=str(meta.get("store_id", "")),
        removal_seq=int(seq[0] or 0) if seq else 0,
        count=int(rows[0]) if rows else 0,
        dimension=int(first[0]) // 4 if first else 0,
        max_rowid=int(rows[1] or 0) if rows else 0,
    )


def removed_since(db: SQLiteDatabase, seq: int) -> Rowids:
    """The rowids removed or changed after removal `seq`, each once, ascending."""
    rows = db.query("SELECT DISTINCT chunk_rowid FROM chunk_removals WHERE seq > ?", (seq,))
    return np.sort(np.array([r[0] for r in rows], dtype=np.int64))


def vectors_of(db: SQLiteDatabase, rowids: Rowids, dimension: int) -> tuple[Rowids, Matrix]:
    """The stored vectors of those of `rowids` that exist now, ascending."""
    found_ids: list[int] = []
    blobs: list[bytes] = []
    for start in range(0, len(rowids), 500):
        part = [int(r) for r in rowids[start : start + 500]]
        marks = ",".join("?" * len(part))
        for row in db.query(
            f"SELECT rowid, vector FROM chunks WHERE rowid IN ({marks}) ORDER BY rowid",
            tuple(part),
        ):
            found_ids.append(int(row[0]))
            blobs.append(row[1])
    return _matrix(found_ids, blobs, dimension)


def sample_vectors(db: SQLiteDatabase, store: StoreState, count: int) -> Matrix | None:
    """About `count` stored vectors drawn at random (the same ones for the same store:
    seeded); None when the rowids are too sparse to find half of them."""
    rng = np.random.default_rng(store.max_rowid)
    draw = min(count, store.max_rowid)
    rowids = np.sort(rng.choice(store.max_rowid, draw, replace=False).astype(np.int64) + 1)
    _, vectors = vectors_of(db, rowids, store.dimension)
    return vectors if 2 * len(vectors) >= min(count, store.count) else None


def vector_pages(
    db: SQLiteDatabase, after: int, dimension: int, page: int = VECTOR_PAGE
) -> Iterator[tuple[Rowids, Matrix]]:
    """The stored vectors of rowids above `after`, in rowid order, `page` at a time (at 1M
    chunks, holding every row at once would double the peak memory)."""
    last = after
    while True:
        rows = db.query(
            "SELECT rowid, vector FROM chunks WHERE rowid > ? ORDER BY rowid LIMIT ?",
            (last, page),
        )
        if not rows:
            return
        yield _matrix([int(r[0]) for r in rows], [r[1] for r in rows], dimension)
        last = int(rows[-1][0])


def _matrix(ids: list[int], blobs: list[bytes], dimension: int) -> tuple[Rowids, Matrix]:
    flat = np.frombuffer(b"".join(blobs), dtype=np.float32)
    return np.array(ids, dtype=np.int64), flat.reshape(len(ids), dimension)
