"""Server fixtures: the app in-process over the demo store, and a real uvicorn server."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="needs the server extra: pip install -e '.[server]'")

import uvicorn
from fastapi.testclient import TestClient

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from ragcite.server.app import create_app


@pytest.fixture(scope="module")
def client(demo_rag: Ragcite) -> Iterator[TestClient]:
    """The app over the shared demo pipeline, for tests that only read."""
    with TestClient(create_app(demo_rag)) as test_client:
        yield test_client


@pytest.fixture
def writable_client(demo_store_path: Path, tmp_path: Path) -> Iterator[TestClient]:
    """The app over a private copy of the demo store, for tests that upload, delete or rate."""
    rag = Ragcite.open(load_settings(store_path=demo_store_path))
    with TestClient(create_app(rag, upload_dir=tmp_path / "uploads")) as test_client:
        yield test_client
    rag.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, demo_store_template: Path
) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1 over a copy of the demo store; yields its base URL."""
    path = tmp_path_factory.mktemp("live") / "demo.db"
    shutil.copy(demo_store_template, path)
    rag = Ragcite.open(load_settings(store_path=path))
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
    rag.close()
