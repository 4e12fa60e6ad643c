"""Corpus access groups through every route: a corpus restricted to `board` holds
documents without groups of their own; a key without `board` sees nothing of it through
/ask, /ask/stream, /chunks, /documents, /documents/{id}/text, the nearest sources of an
unanswered question, feedback, or an answer cached before the corpus was restricted."""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ragcite.config import load_settings
from ragcite.index.corpus_access import corpus_access_store
from ragcite.index.keys import create_key, key_store
from ragcite.pipeline import Ragcite
from ragcite.server.app import create_app

from .conftest import BASE_URL, bearer
from .test_access_probe import TEMPLATES, Restricted, _leaks, _shingles

CORPUS = "boardroom"
SENTENCES = [
    "The quarterly dividend of Fennimore Holdings is 7.25 thimble tokens per share.",
    "Customer PII from the Fennimore pilot is kept in the ocelot archive for 80 years.",
    "Directors may expense up to 12,500 thimble tokens a night on Fennimore travel.",
]
KEYS = {"public": (), "staff": ("staff",), "board": ("board",), "board-staff": ("board", "staff")}
ASKS = 60


@pytest.fixture(scope="module")
def boardroom(
    tmp_path_factory: pytest.TempPathFactory, demo_store_template: Path
) -> Iterator[tuple[Ragcite, Restricted, dict[str, TestClient]]]:
    """The demo store plus a public-looking document in corpus `boardroom`, with a key per
    group set; the corpus is restricted to `board` only after each key asked once, so
    answers cached before the change exist."""
    folder = tmp_path_factory.mktemp("corpus-probe")
    shutil.copy(demo_store_template, folder / "probe.db")
    rag = Ragcite.open(load_settings(store_path=folder / "probe.db"))
    (folder / "files").mkdir()
    text = "---\ntitle: Fennimore Board Minutes\n---\n\n# Minutes\n\n" + "\n\n".join(SENTENCES)
    (folder / "files" / "fennimore-minutes.md").write_text(text + "\n")
    assert not rag.ingest([folder / "files"], corpus=CORPUS).failed
    keys = key_store(rag.store)
    app = create_app(rag)
    clients = {
        name: TestClient(
            app, base_url=BASE_URL, headers=bearer(create_key(keys, f"c-{name}", groups)[1])
        )
        for name, groups in KEYS.items()
    }
    admin = create_key(keys, "c-admin", (), admin=True)[1]
    clients["admin"] = TestClient(app, base_url=BASE_URL, headers=bearer(admin))
    document = next(d for d in rag.store.list_documents() if d.corpus == CORPUS)
    chunk_ids = tuple(
        c.chunk_id
        for c in rag.search("Fennimore", k=50)[0]
        if c.document_id == document.document_id
    )
    shingles = _shingles(rag.store.document_text(document.document_id).text) - _shingles(
        " ".join(
            rag.store.document_text(d.document_id, d.version).text
            for d in rag.store.list_documents()
            if d.corpus != CORPUS
        )
    )
    restricted = Restricted(
        ("board",), document.document_id, document.title, chunk_ids, frozenset(shingles)
    )
    for client in clients.values():  # cached while the corpus is still public
        reply = client.post("/ask", json={"question": SENTENCES[0]})
        assert restricted.document_id in reply.text
    corpus_access_store(rag.store).set_corpus_access(CORPUS, ("board",))
    yield rag, restricted, clients
    for client in clients.values():
        client.close()
    rag.close()


def _hidden(name: str, restricted: Restricted) -> list[Restricted]:
    return [] if "board" in KEYS.get(name, ("board",)) else [restricted]


def test_asks_and_cached_answers_hold_nothing_of_the_corpus(
    boardroom: tuple[Ragcite, Restricted, dict[str, TestClient]],
) -> None:
    _, restricted, clients = boardroom
    pool = [t.format(s) for t in TEMPLATES for s in [*SENTENCES, restricted.title]]
    seen = dict.fromkeys(KEYS, 0)
    leaks = []
    for name, question in zip(itertools.cycle(KEYS), itertools.cycle(pool), strict=False):
        if sum(seen.values()) >= ASKS:
            break
        seen[name] += 1
        body = clients[name].post("/ask", json={"question": question}).json()
        found = _leaks(body, _hidden(name, restricted))
        if found:
            leaks.append((name, question, found))
        if name.startswith("board") and question == SENTENCES[0]:
            assert restricted.document_id in json.dumps(body)  # the probe can fail
    assert leaks == []


def test_the_stream_and_nearest_sources_hold_nothing(
    boardroom: tuple[Ragcite, Restricted, dict[str, TestClient]],
) -> None:
    _, restricted, clients = boardroom
    for sentence in SENTENCES:
        with clients["staff"].stream("POST", "/ask/stream", json={"question": sentence}) as reply:
            raw = "".join(reply.iter_text())
        events = [json.loads(line[6:]) for line in raw.splitlines() if line.startswith("data: ")]
        assert events and [_leaks(e, [restricted]) for e in events] == [[]] * len(events)
    unanswered = clients["public"].post("/ask", json={"question": "Fennimore ocelot thimble?"})
    assert not unanswered.json()["answerable"]
    assert _leaks(unanswered.json(), [restricted]) == []


def test_documents_chunks_and_feedback_answer_like_missing_ones(
    boardroom: tuple[Ragcite, Restricted, dict[str, TestClient]],
) -> None:
    _, restricted, clients = boardroom
    for name in ("public", "staff"):
        client = clients[name]
        assert _leaks(client.get("/documents").json(), [restricted]) == []
        assert client.get(f"/documents/{restricted.document_id}/text").status_code == 404
        for chunk_id in restricted.chunk_ids:
            assert client.get(f"/chunks/{chunk_id}").status_code == 404
            rated = client.post(
                "/feedback", json={"query": "q", "rating": "helpful", "chunk_id": chunk_id}
            )
            assert rated.status_code == 404
    for name in ("board", "admin"):
        client = clients[name]
        assert client.get(f"/documents/{restricted.document_id}/text").status_code == 200
        assert client.get(f"/chunks/{restricted.chunk_ids[0]}").status_code == 200
