"""Staleness end to end over the demo corpus (real dates: every demo document took effect
in 2024 or before, and none was ever verified): `stale_source` flags on answers,
`ragcite documents verify` and `--stale`, and `GET /documents?stale=true`."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite

from .cli.test_cli import run

QUESTION = "How many days of paid sick leave do employees get?"


def _cited_documents(rag: Ragcite) -> tuple[set[str], list[str]]:
    response = rag.ask(QUESTION)
    assert response.answerable
    cited = {
        chunk.document_id
        for claim in response.cited_claims
        for i in claim.source_chunk_ids
        if (chunk := response.chunk(i)) is not None
    }
    stale = [f.message for f in response.warning_flags if f.code == "stale_source"]
    return cited, stale


def test_citations_to_unverified_documents_are_flagged_until_verified(
    demo_store_path: Path,
) -> None:
    rag = Ragcite.open(load_settings(store_path=demo_store_path))
    cited, stale = _cited_documents(rag)
    assert "employee-handbook" in cited and len(stale) == len(cited)
    handbook = next(m for m in stale if "(employee-handbook)" in m)
    assert "took effect on 2024-02-01" in handbook and "365 days" in handbook
    for document_id in cited:
        rag.store.mark_verified(document_id, datetime.now(UTC))
    assert _cited_documents(rag) == (cited, [])  # the cached, flagged answer is not served
    rag.close()
    off = Ragcite.open(
        load_settings(store_path=demo_store_path, overrides={"lifecycle.stale_after_days": 0})
    )
    off.store.mark_verified("employee-handbook", datetime(2020, 1, 1, tzinfo=UTC))
    assert _cited_documents(off)[1] == []
    off.close()


def test_documents_stale_and_verify_commands(demo_store_path: Path) -> None:
    code, out = run("documents", "--stale", "--json", store=demo_store_path)
    assert code == 0
    stale = {d["document_id"]: d for d in json.loads(out)}
    assert "employee-handbook" in stale and "data-retention-policy" in stale
    assert stale["data-retention-policy"]["version"] == 2  # only the version in force
    assert all(d["status"] == "active" for d in stale.values())
    code, out = run("documents", "verify", "employee-handbook", store=demo_store_path)
    today = datetime.now(UTC).date().isoformat()
    assert code == 0 and f"employee-handbook v5: verified on {today}" in out
    code, out = run("documents", "--stale", "--json", store=demo_store_path)
    assert set(stale) - {d["document_id"] for d in json.loads(out)} == {"employee-handbook"}
    code, out = run("documents", "verify", "no-such-doc", store=demo_store_path)
    assert code == 1 and "no active document with id 'no-such-doc'" in out
    code, out = run("documents", "--json", store=demo_store_path)
    verified = [d for d in json.loads(out) if d["document_id"] == "employee-handbook"]
    assert code == 0 and verified[0]["last_verified"].startswith(today)


def test_documents_api_lists_stale_documents(demo_store_path: Path) -> None:
    from fastapi.testclient import TestClient

    from ragcite.server.app import create_app

    rag = Ragcite.open(load_settings(store_path=demo_store_path))
    rag.store.mark_verified("returns-policy", datetime.now(UTC))
    with TestClient(create_app(rag, open_access=True), base_url="http://localhost") as client:
        every = {d["document_id"] for d in client.get("/documents").json()["documents"]}
        stale = {d["document_id"] for d in client.get("/documents?stale=true").json()["documents"]}
    assert "employee-handbook" in stale and "returns-policy" in every - stale
    rag.close()
