"""The HTTP API in-process: every route, good and bad input, problem details for errors."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from ragcite.index.feedback import feedback_store
from ragcite.server.sse import answer_pieces

PII = "How long do we keep customer PII, and does the EU differ from the US?"
VESTING = "What is the vesting schedule for employee stock options?"


def assert_problem(response: object, status: int, *words: str) -> dict[str, object]:
    assert getattr(response, "status_code", None) == status
    assert response.headers["content-type"].startswith("application/problem+json")  # type: ignore[attr-defined]
    body: dict[str, object] = response.json()  # type: ignore[attr-defined]
    assert set(body) >= {"type", "title", "status", "detail"}
    assert body["status"] == status
    for word in words:
        assert word in str(body["detail"]), body
    return body


def test_ask_returns_verified_claims_with_quotes_and_display_metadata(client: TestClient) -> None:
    body = client.post("/ask", json={"question": PII}).json()
    assert body["answerable"] is True
    assert body["claims"]
    for claim in body["claims"]:
        assert claim["verified"]
        for citation in claim["citations"]:
            assert citation["quote"] and citation["quote_status"] != "not_found"
            assert citation["display"].startswith("Data Retention Policy")
            start, end = citation["document_span"]
            text = client.get(
                f"/documents/{citation['document_id']}/text",
                params={"version": citation["document_version"]},
            ).json()["text"]
            assert " ".join(text[start:end].split()) == " ".join(citation["quote"].split())


def test_ask_unanswerable_gives_the_closest_material(client: TestClient) -> None:
    body = client.post("/ask", json={"question": VESTING}).json()
    assert body["answerable"] is False
    assert body["answer"].startswith("I couldn't find this in the documents; closest material:")
    assert body["sources"] and body["claims"] == []


def test_ask_rejects_an_empty_question(client: TestClient) -> None:
    for question in ("", "   "):
        assert_problem(client.post("/ask", json={"question": question}), 422, "question is empty")


def test_ask_rejects_malformed_json_and_missing_fields(client: TestClient) -> None:
    bad = client.post(
        "/ask", content=b'{"question": ', headers={"content-type": "application/json"}
    )
    assert_problem(bad, 400, "not valid JSON")
    assert_problem(client.post("/ask", json={}), 422, "question")
    assert_problem(client.post("/ask", json={"question": "x", "top_k": 0}), 422, "top_k")
    assert_problem(client.post("/ask", json={"question": "x" * 2001}), 422, "question")


def test_json_bodies_have_a_size_limit(client: TestClient) -> None:
    huge = json.dumps({"question": "x" * (2 * 1024 * 1024)})
    assert_problem(
        client.post("/ask", content=huge, headers={"content-type": "application/json"}),
        413,
        "limit",
    )


def test_ask_stream_sends_claims_then_answer_then_the_response(client: TestClient) -> None:
    with client.stream("POST", "/ask/stream", json={"question": PII}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        raw = "".join(response.iter_text())
    events = []
    for block in raw.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "started" and kinds[-1] == "response"
    # every claim (fresh from the gate, or from the cache) arrives before the answer text
    assert max(i for i, k in enumerate(kinds) if k == "claim") < kinds.index("answer")
    final = events[-1][1]
    assert "".join(data["text"] for kind, data in events if kind == "answer") == final["answer"]
    streamed = [data for kind, data in events if kind == "claim"]
    verified = [c for c in final["claims"] if c["verified"]]
    assert [c["text"] for c in streamed] == [c["text"] for c in verified]
    assert [[x["chunk_id"] for x in c["citations"]] for c in streamed] == [
        [x["chunk_id"] for x in c["citations"]] for c in verified
    ]


def test_ask_stream_rejects_an_empty_question_before_streaming(client: TestClient) -> None:
    assert_problem(client.post("/ask/stream", json={"question": " "}), 422, "question is empty")


def test_answer_pieces_join_back_exactly() -> None:
    text = "First sentence. Second one!  Third?\nFourth without end"
    assert "".join(answer_pieces(text)) == text
    assert len(answer_pieces(text)) == 4
    assert answer_pieces("") == []


def test_documents_list_versions_and_status(client: TestClient) -> None:
    documents = {d["document_id"]: d for d in client.get("/documents").json()["documents"]}
    retention = documents["data-retention-policy"]
    assert [v["version"] for v in retention["versions"]] == [2, 1]
    assert [v["status"] for v in retention["versions"]] == ["active", "superseded"]
    # The one version label answers and the page use: number and effective date.
    newest = retention["versions"][0]
    assert retention["version_label"] == f"v2 · {newest['effective_date']}"
    assert newest["version_label"] == retention["version_label"]


def test_document_text_has_page_boundaries(client: TestClient) -> None:
    body = client.get("/documents/employee-handbook/text").json()
    assert body["document"]["document_id"] == "employee-handbook"
    pages = body["pages"]
    assert len(pages) > 1 and pages[0]["page"] == 1
    assert all(0 <= p["char_start"] < p["char_end"] <= len(body["text"]) for p in pages)
    assert_problem(client.get("/documents/no-such-document/text"), 404, "no-such-document")


def test_chunk_with_document_metadata_and_neighbours(client: TestClient) -> None:
    claim = client.post("/ask", json={"question": PII}).json()["claims"][0]
    chunk_id = claim["citations"][0]["chunk_id"]
    body = client.get(f"/chunks/{chunk_id}").json()
    assert body["chunk"]["chunk_id"] == chunk_id
    assert body["document"]["document_id"] == body["chunk"]["document_id"]
    assert body["before"] or body["after"]
    for neighbour in body["before"]:
        assert neighbour["char_start"] < body["chunk"]["char_start"]
    assert_problem(client.get("/chunks/c_0000000000000000"), 404, "c_0000000000000000")


def test_upload_ingests_a_file_and_it_can_be_asked_then_deleted(
    writable_client: TestClient,
) -> None:
    text = b"# Stock options\n\nEmployee stock options vest over four years, one-year cliff.\n"
    added = writable_client.post(
        "/documents",
        files={"file": ("equity.md", text, "text/markdown")},
        data={"title": "Equity Plan"},
    )
    assert added.status_code == 201, added.text
    assert added.json()["document"]["document_id"] == "equity-md"
    assert added.json()["document"]["title"] == "Equity Plan"
    again = writable_client.post(
        "/documents", files={"file": ("equity.md", text)}, data={"title": "Equity Plan"}
    )
    assert again.status_code == 200 and again.json()["status"] == "unchanged"
    answer = writable_client.post("/ask", json={"question": "How do stock options vest?"}).json()
    assert answer["answerable"]
    assert any(c["citations"][0]["document_id"] == "equity-md" for c in answer["claims"])
    deleted = writable_client.delete("/documents/equity-md")
    assert deleted.json() == {"document_id": "equity-md", "versions_deleted": 1}
    listed = {d["document_id"]: d for d in writable_client.get("/documents").json()["documents"]}
    assert listed["equity-md"]["status"] == "deleted"
    assert_problem(writable_client.delete("/documents/never-was"), 404, "never-was")


def test_upload_refuses_unsupported_corrupt_empty_and_huge_files(
    writable_client: TestClient,
) -> None:
    post = writable_client.post
    assert_problem(
        post("/documents", files={"file": ("tool.exe", b"MZ")}),
        415,
        "tool.exe",
        "unsupported file type",
    )
    assert_problem(
        post("/documents", files={"file": ("broken.pdf", b"not a pdf at all")}), 422, "broken.pdf"
    )
    assert_problem(post("/documents", files={"file": ("empty.txt", b"")}), 422, "empty.txt")
    fifty_mb = b"a" * (50 * 1024 * 1024)
    assert_problem(post("/documents", files={"file": ("big.txt", fifty_mb)}), 413, "limit")
    no_file = post("/documents", data={"title": "no file"}, files={"other": ("x.txt", b"x")})
    assert_problem(no_file, 422, "file")
    # A plain form post (what a page on another site can send) is refused outright.
    assert_problem(post("/documents", data={"title": "no file"}), 415, "multipart/form-data")


def test_feedback_is_persisted_in_the_store(writable_client: TestClient) -> None:
    answer = writable_client.post("/ask", json={"question": PII}).json()
    chunk_id = answer["claims"][0]["citations"][0]["chunk_id"]
    sent = {
        "query": PII,
        "rating": "wrong_citation",
        "chunk_id": chunk_id,
        "comment": "off by a year",
        "response": {"answer": "…"},
    }
    reply = writable_client.post("/feedback", json=sent)
    assert reply.status_code == 201
    assert reply.json()["id"] >= 1
    rag = writable_client.app.state.ragcite.rag  # type: ignore[attr-defined]
    stored = feedback_store(rag.store).list_feedback()
    assert stored[0].rating == "wrong_citation" and stored[0].comment == "off by a year"
    assert stored[0].chunk_id == chunk_id
    assert json.loads(stored[0].response_json) == {"answer": "…"}
    assert_problem(
        writable_client.post("/feedback", json={"query": PII, "rating": "meh"}), 422, "rating"
    )
    missing = {"query": PII, "rating": "helpful", "chunk_id": "c_1"}
    assert_problem(writable_client.post("/feedback", json=missing), 404, "c_1")


def test_healthz_openapi_page_and_unknown_routes(client: TestClient) -> None:
    health = client.get("/healthz").json()
    assert health["status"] == "ok" and health["chunks"] > 0
    paths = client.get("/openapi.json").json()["paths"]
    for route in (
        "/ask",
        "/ask/stream",
        "/verify",
        "/documents",
        "/documents/{document_id}",
        "/documents/{document_id}/text",
        "/chunks/{chunk_id}",
        "/feedback",
        "/healthz",
    ):
        assert route in paths
    page = client.get("/")
    assert page.status_code == 200 and "Ask a question about your documents" in page.text
    assert "http" not in page.text.split("<body>")[0]  # nothing loaded from the internet
    assert client.get("/static/js/core.js").status_code == 200
    assert_problem(client.get("/no-such-route"), 404, "openapi")
    assert_problem(client.put("/ask", json={}), 405)


def test_verify_checks_any_answer_against_given_sources(client: TestClient) -> None:
    sources = [
        {"id": "s1", "text": "The primary caregiver receives 20 weeks of parental leave."},
        {"id": "s2", "text": "Expenses over $5,000 need the CFO's approval."},
    ]
    good = client.post(
        "/verify",
        json={
            "answer": {
                "citations": [{"source_id": "s1", "quote": "receives 20 weeks of parental leave"}]
            },
            "sources": sources,
        },
    ).json()
    assert good["all_verified"] is True
    assert good["citations"][0]["quote_status"] == "exact"
    bad = client.post(
        "/verify",
        json={
            "answer": {
                "citations": [
                    {"source_id": "s9", "quote": "20 weeks"},
                    {"source_id": "s2", "quote": "receives 20 weeks of parental leave"},
                ]
            },
            "sources": sources,
        },
    ).json()
    assert bad["all_verified"] is False
    assert [c["verified"] for c in bad["citations"]] == [False, False]
    assert_problem(
        client.post("/verify", json={"answer": {}, "sources": sources}),
        422,
        "neither claims nor citations",
    )
    assert_problem(client.post("/verify", json={"answer": {"citations": []}}), 422, "sources")
