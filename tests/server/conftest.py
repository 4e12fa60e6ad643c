"""Server fixtures: the app in-process over the demo store, and a real uvicorn server, each
once over the embedded SQLite store and once over a real PostgreSQL + pgvector server."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="needs the server extra: pip install -e '.[server]'")

import uvicorn
from fastapi.testclient import TestClient

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from ragcite.server.app import create_app

from ..conftest import STORE_KINDS
from ..postgres_server import EmbeddedPostgres


@contextmanager
def demo_pipeline(request: pytest.FixtureRequest, kind: str) -> Iterator[Ragcite]:
    """A pipeline over a private copy of the demo store of `kind` (sqlite or postgres)."""
    if kind == "sqlite":
        path = request.getfixturevalue("tmp_path_factory").mktemp("demo") / "demo.db"
        shutil.copy(request.getfixturevalue("demo_store_template"), path)
        rag = Ragcite.open(load_settings(store=path))
        yield rag
        rag.close()
        return
    server: EmbeddedPostgres = request.getfixturevalue("postgres_server")
    name = server.new_database(template=request.getfixturevalue("demo_postgres_template"))
    rag = Ragcite.open(load_settings(store=server.url(name)))
    yield rag
    rag.close()
    server.drop_database(name)


@pytest.fixture(scope="module", params=STORE_KINDS)
def client(request: pytest.FixtureRequest, demo_rag: Ragcite) -> Iterator[TestClient]:
    """The app over the demo corpus in each store, for tests that only read."""
    if request.param == "sqlite":  # the shared session pipeline
        with TestClient(create_app(demo_rag)) as test_client:
            yield test_client
        return
    with demo_pipeline(request, request.param) as rag, TestClient(create_app(rag)) as test_client:
        yield test_client


@pytest.fixture
def writable_client(demo_store: str, tmp_path: Path) -> Iterator[TestClient]:
    """The app over a private copy of the demo store, for tests that upload, delete or rate."""
    rag = Ragcite.open(load_settings(store=demo_store))
    with TestClient(create_app(rag, upload_dir=tmp_path / "uploads")) as test_client:
        yield test_client
    rag.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module", params=STORE_KINDS)
def live_server(request: pytest.FixtureRequest) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1 over a copy of the demo store in each store kind;
    yields its base URL."""
    with demo_pipeline(request, request.param) as rag:
        yield from _serve(rag)


def _serve(rag: Ragcite) -> Iterator[str]:
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(rag), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the uvicorn server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
