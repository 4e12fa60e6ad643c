"""Who may call the server: keys (401), admin-only writes (403), cross-site requests,
allowed hosts, `--open` on loopback only, and no server paths in any response."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from ragcite.cli.main import cli
from ragcite.errors import ConfigError
from ragcite.index.keys import key_store
from ragcite.pipeline import Ragcite
from ragcite.server.app import create_app
from ragcite.server.auth import check_open_host, host_name, is_loopback

from .conftest import BASE_URL, bearer
from .test_api import PII, assert_problem

UPLOAD = {"file": ("equity.md", b"# Equity\n\nStock options vest over four years.\n")}


@pytest.fixture
def anonymous(writable_tokens: tuple[Ragcite, dict[str, str]], tmp_path: Path) -> TestClient:
    rag, _ = writable_tokens
    return TestClient(create_app(rag, upload_dir=tmp_path / "uploads"), base_url=BASE_URL)


def test_every_data_route_needs_a_valid_key(
    anonymous: TestClient, writable_tokens: tuple[Ragcite, dict[str, str]]
) -> None:
    rag, tokens = writable_tokens
    key_store(rag.store).revoke_key("test-reader")
    calls = [
        ("POST", "/ask", {"json": {"question": PII}}),
        ("POST", "/ask/stream", {"json": {"question": PII}}),
        ("POST", "/verify", {"json": {"answer": {}, "sources": []}}),
        ("GET", "/documents", {}),
        ("GET", "/documents/employee-handbook/text", {}),
        ("GET", "/chunks/c_0000000000000000", {}),
        ("POST", "/feedback", {"json": {"query": "q", "rating": "helpful"}}),
        ("POST", "/documents", {"files": UPLOAD}),
        ("DELETE", "/documents/employee-handbook", {}),
        ("GET", "/no-such-route", {}),
    ]
    for headers in (
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Basic dXNlcjpwdw=="},
        bearer("rck_not-a-real-key"),
        bearer(tokens["reader"]),  # revoked above
        {"Authorization": tokens["admin"]},  # no scheme
    ):
        for method, path, extra in calls:
            reply = anonymous.request(method, path, headers=headers, **extra)  # type: ignore[arg-type]
            assert_problem(reply, 401, "API key")
            assert reply.headers["www-authenticate"].startswith("Bearer")
    assert anonymous.get("/documents", headers=bearer(tokens["admin"])).status_code == 200


def test_the_page_its_files_health_and_schema_need_no_key(anonymous: TestClient) -> None:
    assert "Ask a question" in anonymous.get("/").text
    assert anonymous.get("/static/js/core.js").status_code == 200
    assert anonymous.get("/healthz").json()["status"] == "ok"
    assert "/ask" in anonymous.get("/openapi.json").json()["paths"]


def test_only_admin_keys_upload_or_delete(writable_client: TestClient) -> None:
    reader = bearer(writable_client.tokens["reader"])  # type: ignore[attr-defined]
    refused = writable_client.post("/documents", files=UPLOAD, headers=reader)
    assert_problem(refused, 403, "test-reader", "admin key")
    assert_problem(
        writable_client.delete("/documents/employee-handbook", headers=reader), 403, "admin"
    )
    assert writable_client.get("/documents/employee-handbook/text", headers=reader).is_success
    assert writable_client.post("/documents", files=UPLOAD).status_code == 201  # admin
    assert writable_client.delete("/documents/equity-md").json()["versions_deleted"] == 1
    # A deleted document: kept for the admin's audit, gone for readers.
    assert writable_client.get("/documents/equity-md/text").is_success
    assert_problem(writable_client.get("/documents/equity-md/text", headers=reader), 404, "equity")


def test_cross_site_requests_are_refused(writable_client: TestClient) -> None:
    ask = {"question": PII}
    for origin in ("https://evil.example", "null", "http://localhost.evil.example"):
        reply = writable_client.post("/ask", json=ask, headers={"Origin": origin})
        assert_problem(reply, 403, "cross-site")
        upload = writable_client.post("/documents", files=UPLOAD, headers={"Origin": origin})
        assert_problem(upload, 403, "cross-site")
        assert_problem(
            writable_client.delete("/documents/employee-handbook", headers={"Origin": origin}),
            403,
        )
    fetch_meta = {"Sec-Fetch-Site": "cross-site"}
    assert_problem(writable_client.post("/ask", json=ask, headers=fetch_meta), 403)
    # What an HTML form on another site can send: urlencoded or plain text.
    form = writable_client.post("/feedback", data={"query": "q", "rating": "helpful"})
    assert_problem(form, 415, "application/json")
    text = writable_client.post(
        "/ask", content=json.dumps(ask), headers={"Content-Type": "text/plain"}
    )
    assert_problem(text, 415)
    # The page itself (same origin) and the loopback names are fine.
    for origin in ("http://localhost", "http://127.0.0.1:8000", "http://[::1]:8000"):
        assert writable_client.post("/ask", json=ask, headers={"Origin": origin}).is_success


def test_unknown_host_names_are_refused(writable_tokens: tuple[Ragcite, dict[str, str]]) -> None:
    rag, tokens = writable_tokens
    rebound = TestClient(
        create_app(rag), base_url="http://attacker.example:8000", headers=bearer(tokens["admin"])
    )
    assert_problem(rebound.get("/documents"), 400, "server.allowed_hosts")
    assert rebound.get("/healthz").status_code == 200  # load balancers probe by address
    team = create_app(rag, allowed_hosts=(".corp.example",))
    with TestClient(team, base_url="http://rag.corp.example", headers=bearer(tokens["admin"])) as c:
        assert c.get("/documents").status_code == 200
        ok = c.post("/ask", json={"question": PII}, headers={"Origin": "https://rag.corp.example"})
        assert ok.status_code == 200


def test_open_mode_needs_no_key_and_is_refused_beyond_loopback(
    writable_tokens: tuple[Ragcite, dict[str, str]],
) -> None:
    rag, _ = writable_tokens
    with TestClient(create_app(rag, open_access=True), base_url=BASE_URL) as open_client:
        assert open_client.get("/documents").status_code == 200
        assert open_client.post("/ask", json={"question": PII}).status_code == 200
        evil = open_client.post("/ask", json={"question": PII}, headers={"Origin": "https://x.y"})
        assert_problem(evil, 403, "cross-site")
    for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"):
        check_open_host(host)
        assert is_loopback(host)
    for host in ("0.0.0.0", "::", "192.168.1.5", "example.com"):
        with pytest.raises(ConfigError, match="loopback"):
            check_open_host(host)
    result = CliRunner().invoke(cli, ["serve", "--open", "--host", "0.0.0.0"])
    assert result.exit_code == 1
    assert "--open serves without API keys" in result.output and "0.0.0.0" in result.output
    assert host_name("[::1]:8000") == "::1" and host_name("Example.COM:80") == "example.com"


def test_no_response_names_a_server_path(
    writable_client: TestClient, demo_store_path: Path
) -> None:
    """Every route, good and bad requests, scanned for the store's folder and the home dir."""
    folder = str(demo_store_path.parent)
    chunk_id = writable_client.post("/ask", json={"question": PII}).json()["sources"][0]["chunk_id"]
    replies = [
        writable_client.get("/healthz"),
        writable_client.get("/documents"),
        writable_client.get("/documents/employee-handbook/text"),
        writable_client.get(f"/chunks/{chunk_id}"),
        writable_client.get("/chunks/nope"),
        writable_client.get("/documents/nope/text"),
        writable_client.delete("/documents/never-was"),
        writable_client.post("/ask", json={"question": PII}),
        writable_client.post("/ask", json={"question": ""}),
        writable_client.post("/documents", files={"file": ("bad.pdf", b"not a pdf")}),
        writable_client.post("/documents", files={"file": ("tool.exe", b"MZ")}),
        writable_client.post("/documents", files=UPLOAD),
        writable_client.post("/feedback", json={"query": "q", "rating": "helpful"}),
    ]
    for reply in replies:
        assert folder not in reply.text, (reply.request.url, reply.text[:300])
        assert str(Path.home()) + "/" not in reply.text, reply.request.url
    listed = writable_client.get("/documents").json()["documents"]
    assert all(not d["source_uri"].startswith("/") for d in listed)


def test_server_side_errors_keep_their_details_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from ragcite.errors import GenerationError, NotFoundError, StoreError
    from ragcite.server.problems import error_problem_body

    secret = "/srv/private/kb.db: store read failed (disk I/O error)"
    body = error_problem_body(StoreError(secret))
    assert body["status"] == 503 and "/srv" not in json.dumps(body)
    assert body["detail"].startswith("the store could not be read or written")
    assert secret in caplog.text
    llm = error_problem_body(GenerationError("http://user:pw@llm.internal:8080 timed out"))
    assert llm["status"] == 502 and "llm.internal" not in json.dumps(llm)
    assert error_problem_body(NotFoundError("no chunk with id 'x' in the store"))["detail"] == (
        "no chunk with id 'x' in the store"
    )


def test_serve_says_when_no_key_could_get_in(demo_store_path: Path) -> None:
    from ragcite.cli.context import AppContext
    from ragcite.cli.serve import access_notes

    app = AppContext(store=str(demo_store_path))
    notes = access_notes(app, "0.0.0.0", open_access=False)
    assert any("no API keys yet" in n for n in notes)
    assert any("server.allowed_hosts" in n for n in notes)
    assert access_notes(app, "127.0.0.1", open_access=True) == [
        "--open: no API keys needed, everyone on this machine is an admin"
    ]
    key_store(app.rag.store).add_key("ops", (), True, "0" * 64)
    assert access_notes(app, "127.0.0.1", open_access=False) == []
    app.close()
