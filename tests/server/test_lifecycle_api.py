"""Saved answers, re-checking and erasure through the API, on both store kinds: every
answer is saved for its key, read back only by readers of all its sources, and an erased
document cannot be read back through any route."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from ragcite.index.feedback import feedback_store
from ragcite.pipeline import Ragcite

from .conftest import bearer
from .test_api import assert_problem

QUESTION = "How long are full system backups kept before being overwritten?"
POLICY = "data-retention-policy"


def _reader(client: TestClient) -> dict[str, str]:
    return bearer(client.tokens["reader"])  # type: ignore[attr-defined]


def _stream_response(client: TestClient, question: str) -> dict[str, object]:
    with client.stream("POST", "/ask/stream", json={"question": question}) as stream:
        body = "".join(stream.iter_text())
    data = body.split("event: response\ndata: ", 1)[1].split("\n\n", 1)[0]
    return dict(json.loads(data))


def test_answers_are_saved_for_their_key_and_rechecked(writable_client: TestClient) -> None:
    reader = _reader(writable_client)
    asked = writable_client.post("/ask", json={"question": QUESTION}, headers=reader).json()
    answer_id = asked["answer_id"]
    assert len(answer_id) == 28
    saved = writable_client.get(f"/answers/{answer_id}", headers=reader)
    assert saved.status_code == 200, saved.text
    assert saved.json()["key_name"] == "test-reader"
    assert saved.json()["response"]["answer"] == asked["answer"]
    streamed = _stream_response(writable_client, "How many days of paid sick leave?")
    assert writable_client.get(f"/answers/{streamed['answer_id']}").status_code == 200
    again = writable_client.post("/ask", json={"question": QUESTION}, headers=reader).json()
    assert again["answer_id"] != answer_id  # a cached serve is an answer of its own
    checked = writable_client.post(f"/answers/{answer_id}/recheck", json={}, headers=reader).json()
    assert checked["still_verified"] and checked["claims"]
    assert {c["status"] for c in checked["claims"]} == {"verified"}
    assert_problem(writable_client.get("/answers/nope", headers=reader), 404, "nope")
    assert_problem(writable_client.post("/answers/nope/recheck", json={}), 404, "nope")


def test_feedback_records_the_key_that_gave_it(
    writable_client: TestClient, writable_tokens: tuple[Ragcite, dict[str, str]]
) -> None:
    body = {"query": QUESTION, "rating": "not_helpful"}
    given = writable_client.post("/feedback", json=body, headers=_reader(writable_client))
    assert given.status_code == 201 and given.json()["key_name"] == "test-reader"
    rag, _ = writable_tokens
    assert feedback_store(rag.store).list_feedback()[0].key_name == "test-reader"


def test_an_erased_document_cannot_be_read_back_through_any_route(
    writable_client: TestClient,
) -> None:
    reader = _reader(writable_client)
    asked = writable_client.post("/ask", json={"question": QUESTION}, headers=reader).json()
    cited = [c["citations"][0] for c in asked["claims"]]
    assert any(c["document_id"] == POLICY for c in cited)
    chunk_id = next(c["chunk_id"] for c in cited if c["document_id"] == POLICY)
    writable_client.post("/ask", json={"question": QUESTION}, headers=reader)  # now cached
    assert_problem(writable_client.post(f"/documents/{POLICY}/erase", json={}, headers=reader), 403)
    erased = writable_client.post(f"/documents/{POLICY}/erase", json={})
    assert erased.status_code == 200, erased.text
    assert erased.json()["versions_erased"] == 2 and erased.json()["saved_answers_redacted"] >= 2
    assert erased.json()["erased"]["erased_by"] == "key:test-admin"
    listed = writable_client.get("/documents").json()
    assert POLICY not in {d["document_id"] for d in listed["documents"]}
    assert [t["document_id"] for t in listed["erased"]] == [POLICY]
    assert "erased" not in writable_client.get("/documents", headers=reader).json()
    assert_problem(writable_client.get(f"/documents/{POLICY}/text"), 404, POLICY)
    assert_problem(writable_client.get(f"/documents/{POLICY}/text?version=1"), 404)
    assert_problem(writable_client.get(f"/chunks/{chunk_id}"), 404, chunk_id)
    after = writable_client.post("/ask", json={"question": QUESTION}, headers=reader).json()
    assert "35 days" not in json.dumps(after) and "cached_answer" not in json.dumps(after)
    assert all(s["document_id"] != POLICY for s in after["sources"])
    assert_problem(writable_client.get(f"/answers/{asked['answer_id']}", headers=reader), 404)
    kept = writable_client.get(f"/answers/{asked['answer_id']}").json()
    assert "35 days" not in json.dumps(kept) and kept["erased_documents"] == [POLICY]
    checked = writable_client.post(f"/answers/{asked['answer_id']}/recheck", json={}).json()
    assert "erased" in {c["status"] for c in checked["claims"]}
    assert_problem(writable_client.post(f"/documents/{POLICY}/erase", json={}), 404, POLICY)
    gone = writable_client.delete("/documents/returns-policy?erase=true")
    assert gone.status_code == 200 and gone.json()["versions_erased"] == 1
