"""Shared fixtures: real models, real stores, each test in its own data directory."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, settings

from ragcite.config import Settings, load_settings
from ragcite.embed.cached import CachedEmbedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.llm.local import llama_server, smollm2_path
from ragcite.pipeline import Ragcite

from .postgres_server import EmbeddedPostgres
from .redis_server import RedisServer

# Property-based tests: a small CI profile by default; `bench` runs them at scale by hand
# (`pytest tests/verify/test_gate_properties.py --hypothesis-profile=bench`).
_SLOW_FIXTURES = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile(
    "ci", max_examples=150, deadline=None, derandomize=True, suppress_health_check=_SLOW_FIXTURES
)
settings.register_profile(
    "bench", max_examples=10_000, deadline=None, suppress_health_check=_SLOW_FIXTURES
)
settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo"
SHARED_DATASETS = ROOT.parent / "shared" / "datasets"


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads the user's store or settings: each gets its own data directory."""
    monkeypatch.setenv("RAGCITE_STORE", str(tmp_path / "store" / "ragcite.db"))
    monkeypatch.delenv("RAGCITE_CONFIG", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def embedder() -> CachedEmbedder:
    """The real int8 MiniLM embedder, loaded once per session."""
    return CachedEmbedder(MiniLMEmbedder())


@pytest.fixture(scope="session")
def demo_store_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo corpus ingested once per session into a store file that tests copy."""
    path = tmp_path_factory.mktemp("demo-template") / "demo.db"
    rag = Ragcite.open(load_settings(store_path=path))
    report = rag.ingest([DEMO])
    assert not report.failed, report.failed
    rag.close()
    return path


@pytest.fixture(scope="session")
def demo_rag(
    tmp_path_factory: pytest.TempPathFactory, demo_store_template: Path
) -> Iterator[Ragcite]:
    """A read-only pipeline over the demo corpus, shared by the tests that only ask.

    Without the answer cache: the tests sharing it check what the stages compute (the
    cache has its own tests, tests/test_answer_cache.py)."""
    path = tmp_path_factory.mktemp("demo-shared") / "demo.db"
    shutil.copy(demo_store_template, path)
    rag = Ragcite.open(load_settings(store_path=path, overrides={"cache.enabled": False}))
    yield rag
    rag.close()


@pytest.fixture
def demo_store_path(tmp_path: Path, demo_store_template: Path) -> Path:
    """A private copy of the ingested demo store, for tests that write."""
    path = tmp_path / "demo.db"
    shutil.copy(demo_store_template, path)
    return path


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(store_path=tmp_path / "store.db")


@pytest.fixture(scope="session")
def llama_server_url() -> Iterator[str]:
    """A real llama.cpp OpenAI-compatible server (xllamacpp) running SmolLM2, shared by
    the generator and support-judge tests: its base URL (`http://127.0.0.1:PORT`)."""
    server = llama_server(smollm2_path(), n_ctx=2048, n_threads=1, port=0)
    url = str(server.listening_address)
    deadline = time.monotonic() + 30
    while httpx.get(f"{url}/health", timeout=5).status_code != 200:
        assert time.monotonic() < deadline, "the llama.cpp server did not become healthy"
        time.sleep(0.2)
    yield url
    del server  # the binding stops the HTTP server and frees the model


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[EmbeddedPostgres]:
    """A real PostgreSQL 18 + pgvector server on 127.0.0.1 for the session, removed after."""
    server = EmbeddedPostgres()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def demo_postgres_template(postgres_server: EmbeddedPostgres) -> str:
    """The demo corpus ingested once per session into a PostgreSQL database that tests copy
    (`CREATE DATABASE … TEMPLATE`): its name."""
    name = postgres_server.new_database()
    rag = Ragcite.open(load_settings(store=postgres_server.url(name)))
    report = rag.ingest([DEMO])
    assert not report.failed, report.failed
    rag.close()  # a template database must have no open connections
    return name


STORE_KINDS = ("sqlite", "postgres")
"""The stores every end-to-end test runs on: the embedded default and the server engine."""


@pytest.fixture(params=STORE_KINDS)
def demo_store(request: pytest.FixtureRequest) -> Iterator[str]:
    """A private, writable copy of the ingested demo corpus in each store: its location
    (a SQLite path, or a PostgreSQL URL)."""
    if request.param == "sqlite":
        yield str(request.getfixturevalue("demo_store_path"))
        return
    server: EmbeddedPostgres = request.getfixturevalue("postgres_server")
    name = server.new_database(template=request.getfixturevalue("demo_postgres_template"))
    yield server.url(name)
    server.drop_database(name)


@pytest.fixture(params=STORE_KINDS)
def empty_store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty store in each store kind: its location."""
    if request.param == "sqlite":
        return str(tmp_path / "store" / "fresh.db")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def postgres_url(postgres_server: EmbeddedPostgres) -> Iterator[str]:
    """The URL of a fresh, empty store location (its own schema, in a database with
    pgvector installed), dropped after the test."""
    schema = postgres_server.new_schema()
    yield postgres_server.schema_url(schema)
    postgres_server.drop_schema(schema)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real Redis server (Debian's redis-server) on a loopback port for the session,
    persisting nothing, stopped after."""
    try:
        server = RedisServer(tmp_path_factory.mktemp("redis"))
    except FileNotFoundError:
        pytest.skip(
            "redis-server is not installed: apt-get install redis-server (scripts/test.sh "
            "installs it when run as root)"
        )
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The URL of the session's Redis server, emptied for this test."""
    redis_server.flush()
    return redis_server.url
