"""The PostgreSQL database under the store: opening it, the connection pool, transactions.

Opening checks, in order and each with a one-line StoreError naming the URL without its
password: the server answers, pgvector is installed (created when the role may), the
migrations are applied, and the vector column has the embedder's dimension. Then a
psycopg pool serves reads and writes; pgvector's adapter is registered on every
connection, so vectors travel in binary.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from ragcite.errors import StoreError
from ragcite.index.postgres.schema import migrate
from ragcite.index.postgres.url import CONNECT_TIMEOUT_S, connection_settings, redact_url

POOL_MAX_SIZE = 8
"""Connections one store object keeps open at most (threads of a server share them)."""

PGVECTOR_MIN = (0, 5)
"""The first pgvector with HNSW indexes."""

PGVECTOR_ITERATIVE = (0, 8)
"""The first pgvector whose HNSW scans go on until enough rows pass the filters."""

Row = dict[str, Any]


class PostgresDatabase:
    """A migrated store database behind a connection pool."""

    def __init__(self, url: str, dimension: int | None) -> None:
        self.where = redact_url(url)
        try:
            self._settings: dict[str, Any] = connection_settings(url)
        except (ValueError, psycopg.ProgrammingError) as exc:
            raise StoreError(f"{self.where}: not a valid PostgreSQL URL ({exc})") from None
        with self._connect() as conn:
            try:
                self.pgvector = _ensure_pgvector(conn, self.where)
                migrate(conn, dimension, self.where)
                self.stored_dimension = _vector_dimension(conn)
            except psycopg.Error as exc:
                raise StoreError(
                    f"{self.where}: cannot prepare the store ({_first_line(exc)}); the role "
                    "needs CREATE on the database's schema the first time"
                ) from None
        self._pool: ConnectionPool[psycopg.Connection[Row]] = ConnectionPool(
            kwargs={**self._settings, "row_factory": dict_row, "autocommit": True},
            min_size=1,
            max_size=POOL_MAX_SIZE,
            configure=register_vector,
            timeout=CONNECT_TIMEOUT_S * 3,
            open=False,
            name="ragcite",
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT_S * 2)
        except PoolTimeout:
            self._pool.close()
            raise StoreError(
                f"{self.where}: the server stopped accepting connections while the store "
                "opened; check that it is running and has connections to spare"
            ) from None
        self.iterative_scans = self.pgvector >= PGVECTOR_ITERATIVE

    def query(self, query: Any, args: Any = ()) -> list[Row]:
        """Rows of one read, as dicts."""
        with self.connection() as conn:
            return conn.execute(query, args).fetchall()

    def query_one(self, query: Any, args: Any = ()) -> Row | None:
        rows = self.query(query, args)
        return rows[0] if rows else None

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Row]]:
        """A pooled connection; a database error becomes a StoreError."""
        try:
            with self._pool.connection() as conn:
                yield conn
        except PoolTimeout:
            raise StoreError(
                f"{self.where}: no database connection free or reachable in time; is the server up?"
            ) from None
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: store read failed ({_first_line(exc)})") from None

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection[Row]]:
        """All of a write or none of it; a database error becomes a StoreError."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                yield conn
        except PoolTimeout:
            raise StoreError(
                f"{self.where}: no database connection free or reachable in time; "
                "nothing was changed"
            ) from None
        except psycopg.Error as exc:
            raise StoreError(
                f"{self.where}: store write failed ({_first_line(exc)}); nothing was changed"
            ) from None

    def generation(self) -> int:
        row = self.query_one("SELECT value FROM ragcite_meta WHERE key = 'generation'")
        return int(row["value"]) if row else 0

    def close(self) -> None:
        self._pool.close()

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            return psycopg.connect(**self._settings, autocommit=True)
        except psycopg.OperationalError as exc:
            raise StoreError(
                f"{self.where}: cannot connect to the PostgreSQL server ({_first_line(exc)}); "
                "check the host, port, user and password, and that the server is running"
            ) from None


def bump_generation(conn: psycopg.Connection[Any]) -> None:
    """Move the corpus version on; call inside the write that changed something."""
    conn.execute("UPDATE ragcite_meta SET value = value + 1 WHERE key = 'generation'")


def _ensure_pgvector(conn: psycopg.Connection[Any], where: str) -> tuple[int, ...]:
    """pgvector's version in this database, the extension created when it is missing."""
    query = "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
    row = conn.execute(query).fetchone()
    if row is None:
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:
            raise StoreError(
                f"{where}: the pgvector extension is missing and could not be created "
                f"({_first_line(exc)}); install pgvector on the server and run "
                "'CREATE EXTENSION vector' in this database as a superuser"
            ) from None
        row = conn.execute(query).fetchone()
    version = tuple(int(part) for part in str(row[0] if row else "0").split(".")[:3])
    if version < PGVECTOR_MIN:
        raise StoreError(
            f"{where}: pgvector {row[0] if row else '?'} is too old for HNSW indexes; "
            "upgrade it to 0.5 or newer (0.8 for filtered index scans): "
            "ALTER EXTENSION vector UPDATE"
        )
    return version


def _vector_dimension(conn: psycopg.Connection[Any]) -> int | None:
    row = conn.execute(
        "SELECT atttypmod FROM pg_attribute "
        "WHERE attrelid = 'ragcite_chunks'::regclass AND attname = 'embedding'"
    ).fetchone()
    return int(row[0]) if row and row[0] > 0 else None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
