"""A real uvicorn server on loopback with small limits: overload gets 503 + Retry-After,
slow sockets are closed, stalled bodies get 408. Bounded in requests and seconds."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from ragcite.server.app import create_app
from ragcite.server.limits import guarded_h11_protocol

from .conftest import _free_port

TIMEOUT_S = 1.0


@pytest.fixture(scope="module")
def small_server(
    tmp_path_factory: pytest.TempPathFactory, demo_store_template: Path
) -> Iterator[tuple[str, int]]:
    path = tmp_path_factory.mktemp("small") / "demo.db"
    shutil.copy(demo_store_template, path)
    overrides = {
        "server.max_in_flight": 1,
        "server.max_queued": 1,
        "server.queue_timeout_s": 30.0,
        "server.retry_after_s": 7,
        "server.body_read_timeout_s": TIMEOUT_S,
    }
    rag = Ragcite.open(load_settings(store_path=path, overrides=overrides))
    port = _free_port()
    config = uvicorn.Config(
        create_app(rag, open_access=True),  # served on loopback, as `ragcite serve --open`
        host="127.0.0.1",
        port=port,
        log_level="warning",
        timeout_keep_alive=1,
        http=guarded_h11_protocol(TIMEOUT_S),
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", port
    server.should_exit = True
    thread.join(timeout=10)
    rag.close()


def test_overload_is_answered_503_with_retry_after(small_server: tuple[str, int]) -> None:
    url, _ = small_server
    question = {"question": "How long do we keep customer PII?"}

    def ask(_: int) -> httpx.Response:
        return httpx.post(f"{url}/ask", json=question, timeout=60)

    with ThreadPoolExecutor(max_workers=12) as pool:
        replies = list(pool.map(ask, range(12)))
    codes = sorted(r.status_code for r in replies)
    assert set(codes) == {200, 503}, codes
    assert codes.count(200) >= 2  # one running and one queued at least
    busy = next(r for r in replies if r.status_code == 503)
    assert busy.headers["retry-after"] == "7"
    assert busy.json()["type"] == "urn:ragcite:problem:overloaded"
    assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200


def _closed_within(sock: socket.socket, seconds: float) -> bytes | None:
    """What the server sent before closing, or None if it is still open after `seconds`."""
    sock.settimeout(seconds)
    received = b""
    try:
        while chunk := sock.recv(4096):
            received += chunk
    except TimeoutError:
        return None
    return received


def test_slow_headers_and_idle_sockets_are_closed(small_server: tuple[str, int]) -> None:
    _, port = small_server
    sockets = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(10)]
    try:
        for i, sock in enumerate(sockets):
            if i % 2:  # half send part of the headers, half send nothing at all
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
        started = time.monotonic()
        assert all(_closed_within(sock, 10) is not None for sock in sockets)
        assert time.monotonic() - started < 10
    finally:
        for sock in sockets:
            sock.close()


def test_a_stalled_body_is_answered_408_and_closed(small_server: tuple[str, int]) -> None:
    _, port = small_server
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(
            b"POST /ask HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"question": '
        )
        received = _closed_within(sock, 10)
    assert received is not None and received.startswith(b"HTTP/1.1 408"), received
    assert b"stalled" in received


def test_the_body_timer_stops_once_the_body_is_in() -> None:
    """A streaming response waits on `receive` for a disconnect as long as it runs: only the
    body's pieces are timed."""
    from ragcite.config import ServerSettings
    from ragcite.server.limits import LoadLimit, SlowBody

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert (await receive())["body"] == b"{}"
        assert (await receive())["type"] == "http.disconnect"  # comes after the timeout

    async def receive_slow_disconnect() -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 1:
            return {"type": "http.request", "body": b"{}", "more_body": False}
        await anyio.sleep(0.3)
        return {"type": "http.disconnect"}

    async def stalled_body() -> dict[str, Any]:
        await anyio.sleep(0.3)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(_: Any) -> None:
        return None

    settings = ServerSettings(body_read_timeout_s=0.1)
    scope = {"type": "http", "path": "/ask", "method": "POST", "headers": []}
    calls = 0
    anyio.run(LoadLimit(app, settings=settings), scope, receive_slow_disconnect, send)
    with pytest.raises(SlowBody):
        anyio.run(LoadLimit(app, settings=settings), scope, stalled_body, send)
