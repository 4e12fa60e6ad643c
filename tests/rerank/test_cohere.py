"""The Cohere rerank client against a real HTTP server on loopback speaking Cohere's v2 format.

The server scores each document by the share of the query's words it contains, returns
results best first (as Cohere does), checks the bearer key, and can be scripted to
answer 429, 500, a slow reply or malformed JSON.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from ragcite.errors import ConfigError, ModelError
from ragcite.models import SourceChunk
from ragcite.rerank.cohere import CohereReranker, relevance_scores

KEY = "test-cohere-key"
QUERY = "how long is parental leave"


@dataclass
class FakeCohere:
    """What the server will answer next (consumed in order; then "ok") and what it saw."""

    script: list[str] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""


def _handler(state: FakeCohere) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            pass

        def _reply(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client timed out first, as the timeout test wants

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append(body)
            mode = state.script.pop(0) if state.script else "ok"
            if self.path != "/v2/rerank":
                return self._reply(404, b'{"message": "not found"}')
            if self.headers.get("Authorization") != f"Bearer {KEY}":
                return self._reply(401, b'{"message": "invalid api token"}')
            if mode == "429":
                return self._reply(429, b'{"message": "too many requests"}', {"Retry-After": "0"})
            if mode == "500":
                return self._reply(500, b'{"message": "internal server error, try again"}')
            if mode == "garbage":
                return self._reply(200, b"<html>not json</html>")
            if mode == "bad-index":
                return self._reply(200, b'{"results": [{"index": 9, "relevance_score": 0.5}]}')
            if mode == "slow":
                time.sleep(1.0)
            words = set(body["query"].lower().split())
            results = [
                {"index": i, "relevance_score": len(words & set(doc.lower().split())) / len(words)}
                for i, doc in enumerate(body["documents"])
            ]
            results.sort(key=lambda r: -r["relevance_score"])
            payload = {"id": "r1", "results": results[: body["top_n"]], "meta": {}}
            return self._reply(200, json.dumps(payload).encode())

    return Handler


@pytest.fixture(scope="module")
def _server() -> Iterator[tuple[ThreadingHTTPServer, FakeCohere]]:
    state = FakeCohere()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, state
    server.shutdown()
    server.server_close()


@pytest.fixture
def cohere(
    _server: tuple[ThreadingHTTPServer, FakeCohere], monkeypatch: pytest.MonkeyPatch
) -> FakeCohere:
    state = _server[1]
    state.script.clear()
    state.requests.clear()
    monkeypatch.setenv("COHERE_API_KEY", KEY)
    monkeypatch.setenv("RAGCITE_COHERE_BASE_URL", state.url)
    return state


def _chunks() -> list[SourceChunk]:
    texts = ["Backups are kept 35 days.", "Parental leave is 16 weeks long.", "Leave requests."]
    return [
        SourceChunk(
            chunk_id=f"c_{i}",
            document_id="d",
            document_title="Handbook",
            chunk_text=t,
            char_start=0,
            char_end=len(t),
        )
        for i, t in enumerate(texts)
    ]


def test_scores_come_back_in_document_order(cohere: FakeCohere) -> None:
    reranker = CohereReranker("rerank-v3.5", backoff_s=0.01)
    scores = reranker.score(QUERY, _chunks())
    assert len(scores) == 3 and all(0.0 <= s <= 1.0 for s in scores)
    assert scores[1] > scores[2] > scores[0]  # the server sent them best first
    [request] = cohere.requests
    assert request["model"] == "rerank-v3.5" and request["top_n"] == 3
    assert request["documents"][1] == "Handbook\nParental leave is 16 weeks long."
    assert reranker.name == "cohere:rerank-v3.5"
    assert reranker.score(QUERY, []) == []
    assert KEY not in repr(reranker)


def test_retries_a_rate_limit_once(cohere: FakeCohere) -> None:
    cohere.script[:] = ["429"]
    scores = CohereReranker("rerank-v3.5", backoff_s=0.01).score(QUERY, _chunks())
    assert len(cohere.requests) == 2 and scores[1] > 0


def test_server_errors_are_retried_then_reported(cohere: FakeCohere) -> None:
    cohere.script[:] = ["500"] * 3
    reranker = CohereReranker("rerank-v3.5", backoff_s=0.01, max_retries=2)
    with pytest.raises(ModelError, match=r"HTTP 500: .*internal server error"):
        reranker.score(QUERY, _chunks())
    assert len(cohere.requests) == 3


def test_malformed_json_is_a_model_error(cohere: FakeCohere) -> None:
    cohere.script[:] = ["garbage"]
    with pytest.raises(ModelError, match="not JSON: <html>not json</html>"):
        CohereReranker("rerank-v3.5", backoff_s=0.01).score(QUERY, _chunks())
    cohere.script[:] = ["bad-index"]
    with pytest.raises(ModelError, match="names document 9"):
        CohereReranker("rerank-v3.5", backoff_s=0.01).score(QUERY, _chunks())


def test_a_rejected_key_names_the_variable(
    cohere: FakeCohere, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COHERE_API_KEY", "wrong")
    with pytest.raises(ModelError, match=r"rejected the key \(401\): check \$COHERE_API_KEY"):
        CohereReranker("rerank-v3.5", backoff_s=0.01).score(QUERY, _chunks())
    assert len(cohere.requests) == 1  # an auth failure is not retried


def test_missing_key_is_a_config_error(cohere: FakeCohere, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COHERE_API_KEY")
    with pytest.raises(ConfigError, match="COHERE_API_KEY"):
        CohereReranker("rerank-v3.5")


def test_timeouts_and_unreachable_servers(
    cohere: FakeCohere, monkeypatch: pytest.MonkeyPatch
) -> None:
    cohere.script[:] = ["slow", "slow"]
    reranker = CohereReranker("rerank-v3.5", timeout_s=0.2, max_retries=1, backoff_s=0.01)
    with pytest.raises(ModelError, match="within the timeout"):
        reranker.score(QUERY, _chunks())
    monkeypatch.setenv("RAGCITE_COHERE_BASE_URL", "http://127.0.0.1:9")
    with pytest.raises(ModelError, match="cannot reach the rerank API"):
        CohereReranker("rerank-v3.5", max_retries=0).score(QUERY, _chunks())


def test_relevance_scores_clamps_and_fills_gaps() -> None:
    payload = {"results": [{"index": 1, "relevance_score": 1.2}]}
    assert relevance_scores(payload, 3, "cohere:m") == [0.0, 1.0, 0.0]
    with pytest.raises(ModelError, match="no results list"):
        relevance_scores({"data": []}, 1, "cohere:m")
