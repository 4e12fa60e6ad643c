"""The PostgreSQL + pgvector store: a server engine for teams (`postgresql://…` store URLs).

Modules, one job each: `url` (connection settings, the URL without its password),
`schema` (named, ordered migrations), `db` (the connection pool, transactions, errors),
`rows` (documents and chunks in and out of their tables), `filters` (search filters as
SQL), `search` (dense and keyword queries), `writer` (the unit of work), `feedback`
and `store` (the `Store` itself and its builder). psycopg is imported only by
these modules, so the embedded store never needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragcite.errors import missing_extra
from ragcite.registry import BackendSpec

if TYPE_CHECKING:
    from ragcite.index.postgres.store import PostgresStore


def open_postgres_store(spec: BackendSpec, *, dimension: int | None) -> PostgresStore:
    """The `postgresql` (and `postgres`) store builder, entry point `ragcite.stores`;
    `spec.rest` is the whole URL: `postgresql://user:password@host:5432/database`.
    Needs the `postgres` extra (psycopg, psycopg-pool, pgvector).

    >>> store = open_postgres_store(parse_store_url("postgresql://rag@db/kb"), dimension=384)
    >>> store.dimension
    384
    """
    try:
        import pgvector.psycopg  # noqa: F401
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as exc:
        raise missing_extra(exc.name or "psycopg", "postgres") from None
    from ragcite.index.postgres.store import PostgresStore

    return PostgresStore(spec.rest or spec.text, dimension=dimension)
