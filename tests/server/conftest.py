"""Server fixtures: the app in-process over the demo store, and a real uvicorn server, each
once over the embedded SQLite store and once over a real PostgreSQL + pgvector server.

Each store gets an admin key and a reader key (groups `staff`); `client` reads with the
reader key, `writable_client` writes with the admin key. Clients call the app as
`http://localhost`, one of the default allowed hosts."""

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
from ragcite.index.keys import create_key, key_store
from ragcite.pipeline import Ragcite
from ragcite.server.app import create_app

from ..conftest import STORE_KINDS
from ..postgres_server import EmbeddedPostgres

BASE_URL = "http://localhost"
READER_GROUPS = ("staff",)


def make_keys(rag: Ragcite) -> dict[str, str]:
    """An admin key and a reader key (groups READER_GROUPS) in `rag`'s store: their tokens."""
    keys = key_store(rag.store)
    return {
        "admin": create_key(keys, "test-admin", (), admin=True)[1],
        "reader": create_key(keys, "test-reader", READER_GROUPS)[1],
    }


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


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


@pytest.fixture(scope="session")
def demo_tokens(demo_rag: Ragcite) -> dict[str, str]:
    """The keys of the shared demo store (made once: key names are unique per store)."""
    return make_keys(demo_rag)


@pytest.fixture(scope="module", params=STORE_KINDS)
def client(request: pytest.FixtureRequest, demo_rag: Ragcite) -> Iterator[TestClient]:
    """The app over the demo corpus in each store with the reader key, for tests that only
    read."""
    if request.param == "sqlite":  # the shared session pipeline
        tokens = request.getfixturevalue("demo_tokens")
        with TestClient(
            create_app(demo_rag), base_url=BASE_URL, headers=bearer(tokens["reader"])
        ) as test_client:
            yield test_client
        return
    with demo_pipeline(request, request.param) as rag:
        reader = bearer(make_keys(rag)["reader"])
        with TestClient(create_app(rag), base_url=BASE_URL, headers=reader) as test_client:
            yield test_client


@pytest.fixture
def writable_tokens(demo_store: str) -> Iterator[tuple[Ragcite, dict[str, str]]]:
    """A private copy of the demo store (in each store kind) with its own keys."""
    rag = Ragcite.open(load_settings(store=demo_store))
    yield rag, make_keys(rag)
    rag.close()


@pytest.fixture
def writable_client(
    writable_tokens: tuple[Ragcite, dict[str, str]], tmp_path: Path
) -> Iterator[TestClient]:
    """The app over a private copy of the demo store with the admin key, for tests that
    upload, delete or rate; `writable_client.tokens` holds both keys."""
    rag, tokens = writable_tokens
    app = create_app(rag, upload_dir=tmp_path / "uploads")
    with TestClient(app, base_url=BASE_URL, headers=bearer(tokens["admin"])) as test_client:
        test_client.tokens = tokens  # type: ignore[attr-defined]
        yield test_client


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module", params=STORE_KINDS)
def live_server(request: pytest.FixtureRequest) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1 over a copy of the demo store in each store kind,
    serving `--open` (no keys, as on loopback); yields its base URL."""
    with demo_pipeline(request, request.param) as rag:
        yield from _serve(rag, open_access=True)


@pytest.fixture(scope="module")
def keyed_server(request: pytest.FixtureRequest) -> Iterator[tuple[str, dict[str, str]]]:
    """A real uvicorn server that needs keys: its base URL and the tokens of its keys."""
    with demo_pipeline(request, "sqlite") as rag:
        tokens = make_keys(rag)
        for url in _serve(rag, open_access=False):
            yield url, tokens


def _serve(rag: Ragcite, *, open_access: bool) -> Iterator[str]:
    port = _free_port()
    app = create_app(rag, open_access=open_access)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
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
