"""The LLM clients and the one HTTP error mapping, against a real HTTP server on loopback
that speaks the OpenAI chat-completions and Anthropic Messages wire formats.

The server checks the key, echoes what it was asked, and can be scripted to answer 400
(no structured outputs), 401, 429, 500 or a body that is not JSON.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from ragcite.errors import GenerationError, ModelError
from ragcite.llm.anthropic import MessagesClient
from ragcite.llm.complete import build_completion
from ragcite.llm.http import JSONAPI, error_message
from ragcite.llm.openai import ChatClient

KEY = "sk-loopback-secret"


@dataclass
class FakeLLM:
    script: list[str] = field(default_factory=list)
    requests: list[tuple[str, dict[str, Any], dict[str, str]]] = field(default_factory=list)
    url: str = ""


def _openai_reply(body: dict[str, Any]) -> dict[str, Any]:
    asked = body["messages"][-1]["content"]
    text = json.dumps({"echo": asked}) if "response_format" in body else f"echo: {asked}"
    return {"choices": [{"message": {"role": "assistant", "content": text}}], "model": "m"}


def _anthropic_reply(body: dict[str, Any]) -> dict[str, Any]:
    asked = body["messages"][-1]["content"]
    return {"content": [{"type": "text", "text": f"echo: {asked}"}], "stop_reason": "end_turn"}


def _handler(state: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _reply(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append((self.path, body, dict(self.headers)))
            mode = state.script.pop(0) if state.script else "ok"
            key = self.headers.get("x-api-key") or self.headers.get("Authorization", "")
            if not key.endswith(KEY):
                return self._reply(401, {"error": {"message": "invalid key"}})
            if mode == "no-schema" and "json_schema" in json.dumps(body):
                return self._reply(400, {"error": {"message": "response_format not supported"}})
            if mode == "429":
                return self._reply(429, {"error": "slow down"}, {"Retry-After": "0"})
            if mode == "500":
                return self._reply(500, {"type": "error", "error": {"message": "overloaded"}})
            if mode == "garbage":
                return self._reply(200, b"<html>proxy login</html>")
            if self.path == "/v1/chat/completions":
                return self._reply(200, _openai_reply(body))
            if self.path == "/messages":
                return self._reply(200, _anthropic_reply(body))
            return self._reply(404, {"error": {"message": f"no route {self.path}"}})

    return Handler


@pytest.fixture(scope="module")
def _server() -> Iterator[FakeLLM]:
    state = FakeLLM()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def llm(_server: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> FakeLLM:
    _server.script.clear()
    _server.requests.clear()
    monkeypatch.setenv("RAGCITE_LLM_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    return _server


def test_chat_completion_sends_the_key_and_temperature_zero(llm: FakeLLM) -> None:
    chat = ChatClient(f"{llm.url}/v1/", "m")
    assert chat.complete("hello", max_tokens=7) == "echo: hello"
    [(path, body, headers)] = llm.requests
    assert path == "/v1/chat/completions" and headers["Authorization"] == f"Bearer {KEY}"
    assert body == {
        "model": "m",
        "messages": [{"role": "user", "content": "hello"}],
        "temperature": 0,
        "max_tokens": 7,
    }
    assert KEY not in repr(chat) and chat.model_id == f"openai-compatible:{llm.url}/v1#m"


def test_a_server_without_structured_outputs_gets_json_mode(llm: FakeLLM) -> None:
    chat = ChatClient(f"{llm.url}/v1", "m")
    llm.script[:] = ["no-schema", "no-schema"]
    schema = {"type": "object", "properties": {"echo": {"type": "string"}}}
    reply = chat.chat([{"role": "user", "content": "q"}], max_tokens=9, schema=schema)
    assert json.loads(reply) == {"echo": "q"}
    assert chat.response_format == "json_object"  # remembered
    sent = [body.get("response_format", {}).get("type") for _, body, _ in llm.requests]
    assert sent == ["json_schema", "json_object"]
    chat.chat([{"role": "user", "content": "q"}], max_tokens=9, schema=schema)
    assert llm.requests[-1][1]["response_format"] == {"type": "json_object"}


def test_a_rejected_key_names_its_variable(llm: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGCITE_LLM_API_KEY", "wrong")
    with pytest.raises(GenerationError, match=r"rejected the key \(401\): check \$RAGCITE_LLM_API"):
        ChatClient(f"{llm.url}/v1", "m").complete("q", max_tokens=4)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "wrong")
    claude = MessagesClient("claude-x", base_url=llm.url)
    with pytest.raises(GenerationError, match=r"Anthropic API rejected .*\$ANTHROPIC_API_KEY"):
        claude.complete("q", max_tokens=4)
    assert "wrong" not in repr(claude)


def test_status_errors_carry_the_servers_message(llm: FakeLLM) -> None:
    llm.script[:] = ["500"]
    with pytest.raises(GenerationError, match="anthropic:claude-x: HTTP 500: overloaded"):
        MessagesClient("claude-x", base_url=llm.url).complete("q", max_tokens=4)
    assert len(llm.requests) == 1  # generators do not retry: the ladder decides
    with pytest.raises(GenerationError, match="HTTP 404: no route /nowhere/chat/completions"):
        ChatClient(f"{llm.url}/nowhere", "m").complete("q", max_tokens=4)


def test_a_body_that_is_not_json(llm: FakeLLM) -> None:
    llm.script[:] = ["garbage"]
    with pytest.raises(GenerationError, match="not JSON: <html>proxy login</html>"):
        ChatClient(f"{llm.url}/v1", "m").complete("q", max_tokens=4)


def test_retries_rate_limits_and_server_errors_when_asked(llm: FakeLLM) -> None:
    api = JSONAPI(
        llm.url,
        {"Authorization": f"Bearer {KEY}"},
        service="the test API",
        who="test:m",
        key_env="RAGCITE_LLM_API_KEY",
        timeout_s=5,
        error=ModelError,
        max_retries=2,
        backoff_s=0.01,
    )
    llm.script[:] = ["429", "500"]
    payload = api.post("/v1/chat/completions", {"messages": [{"role": "user", "content": "x"}]})
    assert payload["choices"][0]["message"]["content"] == "echo: x"
    assert len(llm.requests) == 3
    llm.script[:] = ["500"] * 3
    with pytest.raises(ModelError, match="test:m: HTTP 500: overloaded"):
        api.post("/v1/chat/completions", {"messages": [{"role": "user", "content": "x"}]})


def test_unreachable_servers_say_where(llm: FakeLLM) -> None:
    with pytest.raises(GenerationError, match=r"cannot reach http://127.0.0.1:9/v1 \(Connect"):
        ChatClient("http://127.0.0.1:9/v1", "m", timeout_s=5).complete("q", max_tokens=4)


def test_build_completion_uses_the_spec_and_the_token_cap(llm: FakeLLM) -> None:
    complete = build_completion(f"openai-compatible:{llm.url}/v1#m", max_tokens=5)
    assert complete("hi") == "echo: hi"
    assert llm.requests[-1][1]["max_tokens"] == 5
    claude = build_completion("anthropic:claude-x", max_tokens=6)
    assert callable(claude)  # the real API URL: built, not called


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"error": {"message": "bad model", "type": "x"}}', "bad model"),
        ('{"message": "invalid api token"}', "invalid api token"),
        ('{"error": "model not found"}', "model not found"),
        ("upstream timed out\n", "upstream timed out"),
        ("", "(empty body)"),
    ],
)
def test_error_message_extraction(body: str, message: str) -> None:
    assert error_message(body) == message
