"""`as_of` on /ask and /ask/stream: the versions in force on that date answer."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

QUESTION = "How long are full system backups kept before being overwritten?"


def test_ask_as_of_answers_from_the_version_in_force(client: TestClient) -> None:
    old = client.post("/ask", json={"question": QUESTION, "as_of": "2020-06-01"}).json()
    assert "90 days" in old["answer"]
    codes = {w["code"] for w in old["warnings"]}
    assert {"answered_from_version", "superseded_answer"} <= codes
    now = client.post("/ask", json={"question": QUESTION}).json()
    assert "35 days" in now["answer"]
    assert not {w["code"] for w in now["warnings"]} & {"answered_from_version"}
    bad = client.post("/ask", json={"question": QUESTION, "as_of": "June 2020"})
    assert bad.status_code == 422


def test_the_stream_takes_as_of(client: TestClient) -> None:
    with client.stream(
        "POST", "/ask/stream", json={"question": QUESTION, "as_of": "2020-06-01"}
    ) as reply:
        raw = "".join(reply.iter_text())
    events = [json.loads(line[6:]) for line in raw.splitlines() if line.startswith("data: ")]
    assert "90 days" in events[-1]["answer"]
