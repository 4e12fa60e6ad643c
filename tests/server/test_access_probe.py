"""The access probe: many asks with keys of different groups against a corpus holding
restricted documents; not one restricted chunk ID, document ID, title or piece of text may
appear in any field of any response (each response is serialised and searched).

RAGCITE_PROBE_ASKS sets how many asks (default 1,000; about 15 s in-process). Every
restricted chunk is also asked for directly (/chunks, /documents/{id}/text, feedback), and
must be answered exactly like a missing one.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ragcite.config import load_settings
from ragcite.index.keys import create_key, key_store
from ragcite.pipeline import Ragcite
from ragcite.server.app import create_app

from .conftest import BASE_URL, bearer

PROBE_ASKS = int(os.environ.get("RAGCITE_PROBE_ASKS", "1000"))

RESTRICTED = {
    "compensation-bands.md": (
        ("hr",),
        "Zorblax Compensation Bands",
        [
            "Engineers at level four earn between 141,000 and 163,000 quokka credits a year.",
            "Executives receive 45 weeks of parental leave under the zorblax programme.",
            "Customer PII about board members is kept for 99 years in the quokka vault.",
            "Travel expenses of directors over $9,000 are approved by the zorblax committee.",
        ],
    ),
    "merger-plans.md": (
        ("board", "execs"),
        "Vexilla Acquisition Memo",
        [
            "The company will acquire Vexilla Corp for 2.3 billion dollars in March.",
            "Remote work ends for the Vexilla integration team on the first of June.",
            "Hardware returns from Vexilla customers are refunded within 365 days.",
        ],
    ),
    "litigation-hold.md": (
        ("legal",),
        "Brambleton Litigation Hold",
        [
            "Data about the Brambleton dispute must be retained until the court releases it.",
            "Support tickets from Brambleton get no SLA and go to the legal team.",
            "Security incidents involving Brambleton laptops are reported to outside counsel.",
        ],
    ),
}

KEYS = {
    "public": (),
    "staff": ("staff",),
    "hr": ("hr",),
    "board": ("board",),
    "legal-and-staff": ("legal", "staff"),
}

DEMO_QUESTIONS = [
    "How long do we keep customer PII?",
    "How much parental leave does the primary caregiver get?",
    "Who approves travel expenses?",
    "What is the returns window for hardware?",
    "When must the VPN be on?",
    "What is the support SLA for priority one tickets?",
    "How are security incidents reported?",
    "Can I work remotely?",
]
TEMPLATES = [
    "{}",
    "What does the policy say: {}",
    "Is it true that {}",
    "Tell me about {}",
    "{} Who decided this?",
]


@dataclass(frozen=True)
class Restricted:
    """What a restricted document must never show: its IDs, title, and text pieces."""

    access: tuple[str, ...]
    document_id: str
    title: str
    chunk_ids: tuple[str, ...]
    shingles: frozenset[str]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _shingles(text: str, n: int = 4) -> set[str]:
    words = _words(text)
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


@pytest.fixture(scope="module")
def probe_store(
    tmp_path_factory: pytest.TempPathFactory, demo_store_template: Path
) -> Iterator[tuple[Ragcite, list[Restricted]]]:
    folder = tmp_path_factory.mktemp("probe")
    shutil.copy(demo_store_template, folder / "probe.db")
    rag = Ragcite.open(load_settings(store_path=folder / "probe.db"))
    files = folder / "restricted"
    files.mkdir()
    for name, (access, title, sentences) in RESTRICTED.items():
        front = f"---\ntitle: {title}\naccess: [{', '.join(access)}]\n---\n\n"
        (files / name).write_text(front + f"# {title}\n\n" + "\n\n".join(sentences) + "\n")
    report = rag.ingest([files])
    assert not report.failed, report.failed
    public = " ".join(
        rag.store.document_text(d.document_id, d.version).text
        for d in rag.store.list_documents()
        if not d.access
    )
    public_shingles = _shingles(public)
    restricted = []
    for doc in rag.store.list_documents():
        if not doc.access:
            continue
        text = rag.store.document_text(doc.document_id).text
        chunk_rows = rag.search(doc.title, k=50)[0]  # admin: finds the document's chunks
        ids = tuple(c.chunk_id for c in chunk_rows if c.document_id == doc.document_id)
        assert ids, doc.document_id
        restricted.append(
            Restricted(
                doc.access,
                doc.document_id,
                doc.title,
                ids,
                frozenset(_shingles(text) - public_shingles),
            )
        )
    assert len(restricted) == len(RESTRICTED)
    yield rag, restricted
    rag.close()


@pytest.fixture(scope="module")
def probe_clients(
    probe_store: tuple[Ragcite, list[Restricted]],
) -> Iterator[dict[str, TestClient]]:
    rag, _ = probe_store
    keys = key_store(rag.store)
    app = create_app(rag)
    clients = {}
    for name, groups in KEYS.items():
        token = create_key(keys, f"probe-{name}", groups)[1]
        clients[name] = TestClient(app, base_url=BASE_URL, headers=bearer(token))
    admin = create_key(keys, "probe-admin", (), admin=True)[1]
    clients["admin"] = TestClient(app, base_url=BASE_URL, headers=bearer(admin))
    yield clients
    for client in clients.values():
        client.close()


def _hidden_from(groups: tuple[str, ...], restricted: list[Restricted]) -> list[Restricted]:
    return [r for r in restricted if not set(r.access) & set(groups)]


def _leaks(payload: Any, hidden: list[Restricted]) -> list[str]:
    """Every restricted ID, title or text piece found anywhere in `payload` (the caller's
    own question, echoed as `query` and `question`, left out: it is their input, not the
    store's)."""
    if isinstance(payload, dict):
        payload = {k: v for k, v in payload.items() if k not in ("query", "question")}
    text = json.dumps(payload, ensure_ascii=False)
    words = " ".join(_words(text))
    found = []
    for doc in hidden:
        found += [x for x in (doc.document_id, doc.title, *doc.chunk_ids) if x in text]
        found += [s for s in doc.shingles if f" {s} " in f" {words} "]
    return found


def _questions(restricted: list[Restricted]) -> Iterator[str]:
    sentences = [s for _, _, texts in RESTRICTED.values() for s in texts]
    titles = [r.title for r in restricted]
    pool = [t.format(s) for t in TEMPLATES for s in [*sentences, *titles, *DEMO_QUESTIONS]]
    return itertools.cycle(pool)


def test_no_restricted_text_reaches_any_answer(
    probe_store: tuple[Ragcite, list[Restricted]], probe_clients: dict[str, TestClient]
) -> None:
    _, restricted = probe_store
    questions = _questions(restricted)
    seen_own = dict.fromkeys(KEYS, 0)
    leaks: list[tuple[str, str, list[str]]] = []
    asks = 0
    for key_name in itertools.islice(itertools.cycle(KEYS), PROBE_ASKS):
        question = next(questions)
        reply = probe_clients[key_name].post("/ask", json={"question": question})
        assert reply.status_code == 200, reply.text
        asks += 1
        body = reply.json()
        hidden = _hidden_from(KEYS[key_name], restricted)
        found = _leaks(body, hidden)
        if found:
            leaks.append((key_name, question, found))
        readable = {r.document_id for r in restricted} - {r.document_id for r in hidden}
        cited = {s["document_id"] for s in body["sources"]}
        seen_own[key_name] += bool(cited & readable)
    assert asks == PROBE_ASKS
    assert leaks == []
    # The probe can fail: keys that may read a restricted document do get it.
    assert seen_own["hr"] > 0 and seen_own["board"] > 0 and seen_own["legal-and-staff"] > 0


def test_the_stream_holds_nothing_restricted(
    probe_store: tuple[Ragcite, list[Restricted]], probe_clients: dict[str, TestClient]
) -> None:
    _, restricted = probe_store
    hidden = _hidden_from(KEYS["staff"], restricted)
    for sentence in [s for _, _, texts in RESTRICTED.values() for s in texts]:
        with probe_clients["staff"].stream(
            "POST", "/ask/stream", json={"question": sentence}
        ) as reply:
            raw = "".join(reply.iter_text())
        events = [json.loads(line[6:]) for line in raw.splitlines() if line.startswith("data: ")]
        assert [_leaks(e, hidden) for e in events] == [[]] * len(events)


def test_restricted_documents_and_chunks_answer_like_missing_ones(
    probe_store: tuple[Ragcite, list[Restricted]], probe_clients: dict[str, TestClient]
) -> None:
    _, restricted = probe_store
    for key_name, groups in KEYS.items():
        client = probe_clients[key_name]
        hidden = _hidden_from(groups, restricted)
        listed = client.get("/documents").json()
        assert _leaks(listed, hidden) == []
        for doc in hidden:
            missing = client.get("/documents/no-such-doc/text")
            reply = client.get(f"/documents/{doc.document_id}/text")
            assert reply.status_code == missing.status_code == 404
            assert reply.json()["detail"] == missing.json()["detail"].replace(
                "no-such-doc", doc.document_id
            )
            for chunk_id in doc.chunk_ids:
                reply = client.get(f"/chunks/{chunk_id}")
                assert reply.status_code == 404
                assert reply.json()["detail"] == f"no chunk with id '{chunk_id}' in the store"
                rated = client.post(
                    "/feedback", json={"query": "q", "rating": "helpful", "chunk_id": chunk_id}
                )
                assert rated.status_code == 404
    # The admin reads them all.
    admin = probe_clients["admin"]
    for doc in restricted:
        assert admin.get(f"/documents/{doc.document_id}/text").status_code == 200
        assert admin.get(f"/chunks/{doc.chunk_ids[0]}").status_code == 200
