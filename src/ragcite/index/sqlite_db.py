"""The SQLite file under the embedded store: opening it, reads, write transactions, generation.

One connection per store object, shared between threads behind a lock. A write runs in
BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error, so a crash never leaves half of it;
the `generation` in the meta table moves on every committed change (the corpus version).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ragcite.errors import StoreError
from ragcite.index.migrations import migrate

PAGE_CACHE_KIB = 65_536
"""SQLite's page cache of the connection, at most (its default is 2 MiB): keyword search
reads the question's posting lists and a length per matched chunk, which at 1M chunks
spill out of 2 MiB and are read again from the OS per query (BM25 over 200 questions'
words, 1M chunks: p50 64.7 ms with 2 MiB against 45.1 ms with 64 MiB, load average 13.8)."""


class SQLiteDatabase:
    """A migrated store file and its one connection."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=30
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")
            migrate(self._db)
        except OSError as exc:
            raise StoreError(
                f"{self.path}: cannot create the store ({exc.strerror}); choose a writable "
                "path with --store or RAGCITE_STORE"
            ) from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path}: cannot open the store ({exc}); is it a ragcite store file?"
            ) from None
        self.lock = threading.RLock()

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self.lock:
            try:
                cursor = self._db.execute(sql, args)
                cursor.row_factory = sqlite3.Row
                return cursor.fetchall()
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path}: store read failed ({exc})") from None

    def query_one(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        rows = self.query(sql, args)
        return rows[0] if rows else None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All of a write or none of it; a database error becomes a StoreError."""
        with self.lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as exc:
                raise StoreError(
                    f"{self.path}: cannot start a write ({exc}); nothing was changed"
                ) from None
            try:
                yield self._db
            except BaseException as exc:
                self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.DatabaseError):
                    raise StoreError(
                        f"{self.path}: store write failed ({exc}); nothing was changed"
                    ) from None
                raise
            self._db.execute("COMMIT")

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads that see one committed state of the file, whatever other processes write
        meanwhile (a read transaction; inside a write, that write's own view)."""
        with self.lock:
            if self._db.in_transaction:
                yield
                return
            try:
                self._db.execute("BEGIN")
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path}: cannot start a read ({exc})") from None
            try:
                yield
            finally:
                self._db.execute("COMMIT")

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the file and empty it (best effort: a reader of
        another process may hold it)."""
        with self.lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path}: checkpoint failed ({exc})") from None

    def generation(self) -> int:
        row = self.query_one("SELECT value FROM meta WHERE key = 'generation'")
        return int(row[0]) if row else 0

    def close(self) -> None:
        with self.lock:
            self._db.close()


def bump_generation(db: sqlite3.Connection) -> None:
    """Move the corpus version on; call inside the write that changed something."""
    db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")


def stored_dimension(db: sqlite3.Connection | SQLiteDatabase) -> int | None:
    """The length of the stored vectors (float32 blobs), None when no chunk is stored."""
    sql = "SELECT length(vector) FROM chunks LIMIT 1"
    rows = db.query(sql) if isinstance(db, SQLiteDatabase) else db.execute(sql).fetchall()
    return int(rows[0][0]) // 4 if rows else None
