"""What the web page relies on in the API: the question under either name, confidence in
words, one version label, version numbers like "v5" on upload, and offline /docs."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from .test_api import assert_problem

PII = "How long do we keep customer PII, and does the EU differ from the US?"


def test_question_may_be_sent_as_query(
    client: TestClient,
) -> None:
    by_question = client.post("/ask", json={"question": PII}).json()
    by_query = client.post("/ask", json={"query": PII}).json()
    assert by_question["query"] == by_query["query"] == PII
    assert [c["text"] for c in by_question["claims"]] == [c["text"] for c in by_query["claims"]]
    assert_problem(client.post("/ask", json={"query": " "}), 422, "the question is empty")


def test_confidence_reason_and_version_label(client: TestClient) -> None:
    body = client.post("/ask", json={"question": PII}).json()
    citations = [c for claim in body["claims"] for c in claim["citations"]]
    assert all(c["quote_status"] in ("exact", "normalized") for c in citations)
    assert all(c["support"] == "supported" for c in citations)
    assert body["confidence_reason"] == (
        f"{len(citations)} exact quotes, all supported by their sources."
    )
    source = body["sources"][0]
    assert source["version_label"] == f"v{source['document_version']} · {source['document_date']}"
    assert citations[0]["version_label"].startswith(f"v{citations[0]['document_version']} · ")

    nothing = client.post("/ask", json={"question": "What is the vesting schedule?"}).json()
    assert not nothing["answerable"]
    assert nothing["confidence_reason"] == "No passage in the documents answers the question."


def test_upload_version_accepts_v5_or_a_name_and_explains_a_bad_one(
    writable_client: TestClient,
) -> None:
    text = b"# Travel policy\n\nTrain travel is booked in second class.\n"
    added = writable_client.post(
        "/documents",
        files={"file": ("travel.md", text, "text/markdown")},
        data={"version": "v3", "effective_date": "2025-01-01"},
    )
    assert added.status_code == 201, added.text
    document = added.json()["document"]
    assert (document["version"], document["version_name"]) == (3, None)
    assert document["version_label"] == "v3 · 2025-01-01"
    # A name is kept and shown; its number is the next in sequence.
    named = writable_client.post(
        "/documents",
        files={"file": ("travel.md", text + b"Flights go economy.\n", "text/markdown")},
        data={"version": " 2025-Q3 ", "effective_date": "2025-07-01"},
    )
    assert named.status_code == 201, named.text
    document = named.json()["document"]
    assert (document["version"], document["version_name"]) == (4, "2025-Q3")
    assert document["version_label"] == "2025-Q3 · 2025-07-01"
    listed = {d["document_id"]: d for d in writable_client.get("/documents").json()["documents"]}
    travel = listed[document["document_id"]]
    assert travel["version_label"] == "2025-Q3 · 2025-07-01"
    assert [v["version_label"] for v in travel["versions"]] == [
        "2025-Q3 · 2025-07-01",
        "v3 · 2025-01-01",
    ]
    answer = writable_client.post("/ask", json={"question": "Which class do flights go in?"})
    labels = {s["version_label"] for s in answer.json()["sources"] if s["title"] == "Travel policy"}
    assert labels <= {"2025-Q3 · 2025-07-01"}
    for bad, said in (
        ("   ", "version field is empty"),
        ("x" * 65, "65 characters long; a version name may have at most 64"),
        ("Rev\tB", "'Rev\\tB' holds control characters"),
        ("v0", "'v0' is not a version number: numbers start at 1"),
    ):
        refused = writable_client.post(
            "/documents",
            files={"file": ("travel3.md", text + b"More.\n", "text/markdown")},
            data={"version": bad},
        )
        problem = assert_problem(refused, 422)
        assert said in problem["detail"], problem["detail"]


def test_docs_are_served_offline_without_a_key(client: TestClient) -> None:
    page = client.get("/docs", headers={"Authorization": ""})
    assert page.status_code == 200
    assert "/static/swagger-ui/swagger-ui-bundle.js" in page.text
    assert "cdn" not in page.text.lower() and "https://" not in page.text
    script = client.get("/static/swagger-ui/swagger-ui-bundle.js", headers={"Authorization": ""})
    assert script.status_code == 200 and len(script.content) > 100_000
    icon = client.get("/static/favicon.svg", headers={"Authorization": ""})
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")


def _events(client: TestClient, body: dict[str, object]) -> list[tuple[str, dict[str, Any]]]:
    with client.stream("POST", "/ask/stream", json=body) as response:
        assert response.status_code == 200
        raw = "".join(response.iter_text())
    events = []
    for block in raw.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_stream_reports_its_stages_with_counts_before_the_claims(client: TestClient) -> None:
    events = _events(client, {"query": PII + " (stages)"})  # new wording: not from the cache
    kinds = [kind for kind, _ in events]
    stages = [data for kind, data in events if kind == "stage"]
    final = events[-1][1]
    verified = [s["count"] for s in stages[3:]]
    assert [s["stage"] for s in stages] == ["searching", "passages", "checking"] + [
        "verified"
    ] * len(verified)
    assert stages[1]["count"] >= len(final["sources"]) > 0
    assert stages[2]["count"] >= len(final["claims"]) > 0
    # each verified claim was reported as it passed the gate, its claim event right after
    assert verified == list(range(1, len(verified) + 1))
    assert len(verified) == sum(c["verified"] for c in final["claims"]) > 0
    assert kinds.index("stage") < kinds.index("answer")
    assert max(i for i, k in enumerate(kinds) if k == "stage") < kinds.index("answer")
    after_verified = [kinds[i + 1] for i, e in enumerate(events) if e[1].get("stage") == "verified"]
    assert after_verified == ["claim"] * len(verified)
    assert events[0][1]["question"] == events[0][1]["query"] == PII + " (stages)"
    assert final["question"] == final["query"]


def test_stream_sends_each_claim_as_it_passes_the_gate(client: TestClient) -> None:
    events = _events(client, {"question": PII + " (claims as they pass)"})  # not cached
    kinds = [kind for kind, _ in events]
    final = events[-1][1]
    assert kinds[-1] == "response" and final["answerable"] and final["cached_at"] is None
    streamed = [data for kind, data in events if kind == "claim"]
    assert streamed, kinds
    # all of them before the answer text, while the gate was still checking
    assert max(i for i, k in enumerate(kinds) if k == "claim") < kinds.index("answer")
    assert kinds.index("stage") < kinds.index("claim")
    assert [c["index"] for c in streamed] == list(range(len(streamed)))
    # the same JSON as the final answer's verified claims, less the scores to come
    verified = [c for c in final["claims"] if c["verified"]]
    assert all(c["confidence"] is None and c["confidence_label"] is None for c in streamed)
    unscored = {"index", "confidence", "confidence_label"}
    assert [{k: v for k, v in c.items() if k not in unscored} for c in streamed] == [
        {k: v for k, v in c.items() if k not in unscored} for c in verified
    ]
    assert all(c["verified"] and c["citations"] for c in streamed)
    assert all(x["quote"] and x["version_label"] for c in streamed for x in c["citations"])


def test_ask_within_chosen_documents(client: TestClient) -> None:
    everywhere = client.post("/ask", json={"question": PII}).json()
    assert {s["document_id"] for s in everywhere["sources"]} >= {"data-retention-policy"}
    elsewhere = client.post(
        "/ask", json={"question": PII, "document_ids": ["employee-handbook"]}
    ).json()
    found = {s["document_id"] for s in elsewhere["sources"]}
    assert found <= {"employee-handbook"}, found
    within = client.post(
        "/ask", json={"question": PII, "document_ids": ["data-retention-policy"]}
    ).json()
    assert within["answerable"]
    assert {s["document_id"] for s in within["sources"]} == {"data-retention-policy"}
    assert within["question"] == PII


def test_feedback_takes_the_question_under_either_name(writable_client: TestClient) -> None:
    answer = writable_client.post("/ask", json={"question": PII}).json()
    chunk_id = answer["claims"][0]["citations"][0]["chunk_id"]
    for name in ("question", "query"):
        sent = writable_client.post(
            "/feedback", json={name: PII, "rating": "wrong_citation", "chunk_id": chunk_id}
        )
        assert sent.status_code in (200, 201), sent.text


def test_documents_list_marks_stale_versions(client: TestClient) -> None:
    listed = client.get("/documents").json()["documents"]
    versions = [v for d in listed for v in d["versions"]]
    assert all(isinstance(v["stale"], bool) for v in versions)
    assert all(d["stale"] == d["versions"][0]["stale"] for d in listed)
    stale_only = client.get("/documents", params={"stale": "true"}).json()["documents"]
    assert stale_only  # the demo's policies took effect in 2024: over 365 days ago
    assert {d["document_id"] for d in stale_only} == {
        d["document_id"] for d in listed if any(v["stale"] for v in d["versions"])
    }
    assert all(v["stale"] for d in stale_only for v in d["versions"])
