"""The PostgreSQL store beyond the conformance suite: migrations, opening errors, the URL
without its password, concurrent writers in two processes and filtered HNSW search.
The tests that need a server get a real PostgreSQL 18 + pgvector 0.8 one
(tests/postgres_server.py).
"""

from __future__ import annotations

import multiprocessing
import socket
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector
from psycopg.rows import dict_row

from ragcite.errors import ConfigError, StoreError
from ragcite.index.indexer import store_version
from ragcite.index.postgres import open_postgres_store, search
from ragcite.index.postgres.schema import MIGRATIONS
from ragcite.index.postgres.store import PostgresStore
from ragcite.index.postgres.url import connection_settings, redact_url
from ragcite.index.store import SearchFilters
from ragcite.models import DocumentStatus
from ragcite.registry import STORES, find_builder, parse_store_url

from ..postgres_server import EmbeddedPostgres
from .conformance.builders import DIMENSION, version


def _sql(url: str, query: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of one statement on the store's database, straight through psycopg."""
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(query, args)
        return cursor.fetchall() if cursor.description else []


# -- the URL as shown -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://rag:s3cret@db:5432/kb", "postgresql://rag:***@db:5432/kb"),
        ("postgres://rag@db/kb", "postgres://rag@db/kb"),
        ("postgresql://db/kb?password=s3cret&sslmode=require", None),
        ("postgresql://rag:p%40ss:w@[::1]:5432/kb", "postgresql://rag:***@[::1]:5432/kb"),
        ("postgresql://rag:@db/kb", "postgresql://rag:***@db/kb"),
    ],
)
def test_redact_url_hides_every_password(url: str, shown: str | None) -> None:
    redacted = redact_url(url)
    assert "s3cret" not in redacted and "p%40ss" not in redacted
    if shown is not None:
        assert redacted == shown
    else:
        assert "password=***" in redacted and "sslmode=require" in redacted


def test_connection_settings_add_timeouts_unless_the_url_sets_them() -> None:
    settings = connection_settings("postgres://rag@db:5433/kb")
    assert (settings["host"], settings["port"], settings["dbname"]) == ("db", "5433", "kb")
    assert settings["connect_timeout"] == "10"
    assert "statement_timeout=60000" in settings["options"]
    own = connection_settings(
        "postgresql://rag@db/kb?connect_timeout=3&options=-c%20statement_timeout%3D5s"
    )
    assert own["connect_timeout"] == "3" and own["options"] == "-c statement_timeout=5s"
    with pytest.raises(ValueError, match="not a PostgreSQL URL"):
        connection_settings("mysql://rag:s3cret@db/kb")


def test_without_the_extra_the_builder_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg_pool", None)  # as if never installed
    with pytest.raises(ConfigError, match=r"pip install 'ragcite\[postgres\]'"):
        open_postgres_store(parse_store_url("postgresql://rag@db/kb"), dimension=DIMENSION)


def test_both_schemes_find_the_builder() -> None:
    for scheme in ("postgresql", "postgres"):
        spec = parse_store_url(f"{scheme}://rag@db/kb")
        assert find_builder(STORES, spec) is open_postgres_store


# -- opening ----------------------------------------------------------------------------


def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, never listening: connections are refused
        url = f"postgresql://rag:s3cret@127.0.0.1:{port}/kb"
        with pytest.raises(StoreError) as caught:
            open_postgres_store(parse_store_url(url), dimension=DIMENSION)
    message = str(caught.value)
    assert "s3cret" not in message and "\n" not in message
    assert f"postgresql://rag:***@127.0.0.1:{port}/kb" in message
    assert "cannot connect" in message


def test_migrations_are_recorded_and_reopening_is_idempotent(postgres_url: str) -> None:
    store = PostgresStore(postgres_url, dimension=DIMENSION)
    store_version(store, version("doc", 1, ["kept across opens"]))
    store.close()
    applied = _sql(postgres_url, "SELECT name FROM ragcite_migrations ORDER BY name")
    assert [name for (name,) in applied] == [name for name, _ in MIGRATIONS]
    reopened = PostgresStore(postgres_url, dimension=DIMENSION)
    assert reopened.counts().chunks == 1 and reopened.dimension == DIMENSION
    reopened.close()
    assert _sql(postgres_url, "SELECT count(*) FROM ragcite_migrations") == [(len(MIGRATIONS),)]
    indexes = {
        name
        for (name,) in _sql(
            postgres_url, "SELECT indexname FROM pg_indexes WHERE tablename = 'ragcite_chunks'"
        )
    }
    assert {"ragcite_chunks_embedding", "ragcite_chunks_search"} <= indexes


def test_a_store_from_a_newer_ragcite_is_refused(postgres_url: str) -> None:
    PostgresStore(postgres_url, dimension=DIMENSION).close()
    _sql(postgres_url, "INSERT INTO ragcite_migrations (name) VALUES ('m999_from_the_future')")
    with pytest.raises(StoreError, match=r"newer ragcite.*m999_from_the_future.*upgrade ragcite"):
        PostgresStore(postgres_url, dimension=DIMENSION)


def test_another_dimension_is_refused(postgres_url: str) -> None:
    PostgresStore(postgres_url, dimension=DIMENSION).close()
    with pytest.raises(StoreError, match=f"holds {DIMENSION}-dimensional vectors.*makes 8-"):
        PostgresStore(postgres_url, dimension=8)


def test_missing_pgvector_is_a_clear_error(postgres_server: EmbeddedPostgres) -> None:
    # A database without pgvector, and a role that may not create extensions.
    name = postgres_server.new_database(template="template0")
    try:
        with postgres_server.admin() as conn:
            conn.execute("DROP ROLE IF EXISTS plain_reader")
            conn.execute("CREATE ROLE plain_reader LOGIN PASSWORD 's3cret'")
        url = postgres_server.url(name, user="plain_reader:s3cret")
        with pytest.raises(StoreError) as caught:
            PostgresStore(url, dimension=DIMENSION)
        message = str(caught.value)
        assert "pgvector extension is missing" in message and "CREATE EXTENSION vector" in message
        assert "s3cret" not in message and "\n" not in message
    finally:
        postgres_server.drop_database(name)
        with postgres_server.admin() as conn:
            conn.execute("DROP ROLE IF EXISTS plain_reader")


# -- concurrent writers -------------------------------------------------------------------

VERSIONS = 6


def _ingest_versions(url: str, worker: int, start: Any, errors: Any) -> None:
    """One process: open the store, wait for the other, write versions 1..VERSIONS."""
    store = PostgresStore(url, dimension=DIMENSION)
    try:
        start.wait(timeout=60)
        for number in range(1, VERSIONS + 1):
            text = f"rule {number} as worker {worker} wrote it"
            store_version(store, version("shared", number, [text], sha=f"w{worker}-v{number}"))
    except Exception as exc:  # reported to the parent, which fails the test
        errors.put(f"worker {worker}: {type(exc).__name__}: {exc}")
    finally:
        store.close()


def test_two_processes_ingesting_one_document_leave_one_row_per_version(
    postgres_url: str,
) -> None:
    PostgresStore(postgres_url, dimension=DIMENSION).close()  # created before the race
    context = multiprocessing.get_context("spawn")
    start, errors = context.Barrier(2), context.Queue()
    workers = [
        context.Process(target=_ingest_versions, args=(postgres_url, w, start, errors))
        for w in (1, 2)
    ]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=120)
    reported = [errors.get() for _ in range(errors.qsize())] if not errors.empty() else []
    assert reported == [] and [p.exitcode for p in workers] == [0, 0]
    rows = _sql(
        postgres_url,
        "SELECT version, count(*) FROM ragcite_documents WHERE document_id = 'shared' "
        "GROUP BY version ORDER BY version",
    )
    assert rows == [(n, 1) for n in range(1, VERSIONS + 1)]
    store = PostgresStore(postgres_url, dimension=DIMENSION)
    documents = [d for d in store.list_documents() if d.document_id == "shared"]
    assert [d.status for d in documents] == [DocumentStatus.ACTIVE] + [
        DocumentStatus.SUPERSEDED
    ] * (VERSIONS - 1)
    assert store.counts().chunks == VERSIONS  # one chunk per version, none left over
    store.close()


def test_a_writer_waits_for_the_one_holding_its_document(postgres_url: str) -> None:
    store = PostgresStore(postgres_url, dimension=DIMENSION)
    holding, release = threading.Event(), threading.Event()

    def first() -> None:
        with store.write() as writer:
            assert writer.versions("doc") == []
            writer.add_version(version("doc", 1, ["first"], sha="first"))
            holding.set()
            assert release.wait(30)

    with ThreadPoolExecutor(2) as pool:
        holder = pool.submit(first)
        assert holding.wait(30)
        waiter = pool.submit(store_version, store, version("doc", 1, ["second"], sha="second"))
        with pytest.raises(TimeoutError):
            waiter.result(timeout=0.5)  # queued behind the first writer's document lock
        store_version(store, version("other", 1, ["another document"]))  # not queued
        release.set()
        holder.result(timeout=30)
        waiter.result(timeout=30)
    # The second writer saw the first's version 1 and replaced it: one row, its content.
    assert [d.content_sha256 for d in store.list_documents() if d.document_id == "doc"] == [
        "second"
    ]
    store.close()


# -- filtered HNSW search -------------------------------------------------------------------


def _library(url: str, vectors: np.ndarray) -> None:
    """One document of 50 chunks per row of `vectors`; doc-7 alone is in corpus 'rare'."""
    store = PostgresStore(url, dimension=DIMENSION)
    for d, chunk_vectors in enumerate(vectors):
        texts = [f"chunk {i} of document {d}" for i in range(50)]
        corpus = "rare" if d == 7 else "common"
        store.add_version(version(f"doc-{d}", 1, texts, vectors=chunk_vectors, corpus=corpus))
    store.close()


def _unit(vectors: np.ndarray) -> np.ndarray:
    return (vectors / np.linalg.norm(vectors, axis=-1, keepdims=True)).astype(np.float32)


@pytest.fixture(scope="module")
def thousand_chunks(
    postgres_server: EmbeddedPostgres,
) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """20 documents of 50 random chunks, one (doc-7) in the corpus 'rare': 5% of them.
    Built once for the tests that only search it."""
    schema = postgres_server.new_schema()
    url = postgres_server.schema_url(schema)
    rng = np.random.default_rng(7)
    vectors = _unit(rng.normal(size=(20, 50, DIMENSION)))
    _library(url, vectors)
    yield url, vectors, _unit(rng.normal(size=DIMENSION))
    postgres_server.drop_schema(schema)


@pytest.fixture
def far_rare_chunks(postgres_url: str) -> tuple[str, np.ndarray, np.ndarray]:
    """As `thousand_chunks`, but the 'rare' chunks lie on the far side from the query, so
    an index scan near the query meets almost none of them."""
    rng = np.random.default_rng(11)
    query = _unit(rng.normal(size=DIMENSION))
    side = np.where(np.arange(20) == 7, -1.0, 1.0)[:, None, None]
    vectors = _unit(side * 3 * query + rng.normal(size=(20, 50, DIMENSION)) / 8)
    _library(postgres_url, vectors)
    return postgres_url, vectors, query


RARE_NEAREST = (
    "SELECT c.chunk_id FROM ragcite_chunks c JOIN ragcite_documents d "
    "ON d.document_id = c.document_id AND d.version = c.document_version "
    "WHERE d.corpus = 'rare' ORDER BY c.embedding <=> %s LIMIT 10"
)
"""The ten 'rare' chunks nearest a query, as a search without ragcite's settings asks."""


def _forced_hnsw(url: str) -> psycopg.Connection[Any]:
    """A connection whose planner must take the HNSW index (no sequential or bitmap scans,
    no sorts), as it does on a large table; on 1,000 rows it would rightly go exact."""
    conn = psycopg.connect(url, autocommit=True, row_factory=dict_row)
    register_vector(conn)
    conn.execute("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off")
    return conn


def test_hnsw_search_under_a_selective_filter_still_returns_k(
    thousand_chunks: tuple[str, np.ndarray, np.ndarray],
) -> None:
    url, vectors, query = thousand_chunks
    rare = SearchFilters(corpora=("rare",))
    exact = [f"doc-7-1-{i}" for i in np.argsort(-(vectors[7] @ query))[:10]]
    with _forced_hnsw(url) as conn:
        # Without iterative scans, the index's 40 candidates hold few of the 5% eligible:
        conn.execute("SET hnsw.iterative_scan = off")
        plan = conn.execute(f"EXPLAIN {RARE_NEAREST}", (query,)).fetchall()
        assert "ragcite_chunks_embedding" in str(plan)  # the HNSW index is what is searched
        assert len(conn.execute(RARE_NEAREST, (query,)).fetchall()) < 10
        hits = search.dense_search(conn, query, 10, rare)
    assert len(hits) == 10 and {h.chunk.corpus for h in hits} == {"rare"}
    assert len({h.chunk.chunk_id for h in hits} & set(exact)) >= 8  # approximate, but close
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    store = PostgresStore(url, dimension=DIMENSION)  # the planner's own choice: exact here
    assert [h.chunk.chunk_id for h in store.dense_search(query, 10, rare)] == exact
    store.close()


def test_without_iterative_scans_the_search_goes_exact(
    thousand_chunks: tuple[str, np.ndarray, np.ndarray],
) -> None:
    # pgvector before 0.8: the index's 40 candidates hold 4 eligible chunks, so the
    # search asks again without the index.
    url, vectors, query = thousand_chunks
    exact = [f"doc-7-1-{i}" for i in np.argsort(-(vectors[7] @ query))[:10]]
    with _forced_hnsw(url) as conn:
        hits = search.dense_search(
            conn, query, 10, SearchFilters(corpora=("rare",)), iterative=False
        )
    assert [h.chunk.chunk_id for h in hits] == exact


def test_when_the_index_scan_gives_up_the_search_is_exact(
    far_rare_chunks: tuple[str, np.ndarray, np.ndarray],
) -> None:
    url, vectors, query = far_rare_chunks
    exact = [f"doc-7-1-{i}" for i in np.argsort(-(vectors[7] @ query))[:10]]
    with _forced_hnsw(url) as conn:
        conn.execute("SET hnsw.max_scan_tuples = 1")  # the iterative scan stops at once
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        assert len(conn.execute(RARE_NEAREST, (query,)).fetchall()) < 10
        hits = search.dense_search(conn, query, 10, SearchFilters(corpora=("rare",)))
    assert [h.chunk.chunk_id for h in hits] == exact
    assert [h.score for h in hits] == pytest.approx(sorted(vectors[7] @ query)[::-1][:10], abs=1e-5)
