"""Multi-corpus retrieval end to end: the demo documents in two corpora (and, through the
settings, a corpus in a second store on a real PostgreSQL server), asked together: each
corpus retrieved on its own, merged by composite confidence, each chunk naming its corpus."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragcite.cli.main import cli
from ragcite.config import load_settings
from ragcite.pipeline import Ragcite

from .conftest import DEMO

POLICIES = [
    "data-retention-policy-2019.md",
    "data-retention-policy-2024.md",
    "information-security-policy.docx",
    "returns-policy.html",
    "customer-support-sla.md",
]
PEOPLE = ["employee-handbook.pdf", "remote-work-guidelines.txt", "travel-and-expenses.md"]
BOTH = ("policies", "people")


@pytest.fixture(scope="module")
def two_corpora(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ragcite]:
    path = tmp_path_factory.mktemp("corpora") / "two.db"
    rag = Ragcite.open(load_settings(store=path))
    for corpus, names in (("policies", POLICIES), ("people", PEOPLE)):
        report = rag.ingest([DEMO / n for n in names], corpus=corpus)
        assert not report.failed and report.added == len(names)
    yield rag
    rag.close()


def test_each_corpus_is_asked_and_named(two_corpora: Ragcite) -> None:
    rag = two_corpora
    filters = rag.filters(corpora=BOTH)
    sources = rag.corpora.sources(filters)
    assert sources is not None and [s.name for s in sources] == list(BOTH)
    chunks, timings = rag.search("How long are backups kept, and who approves travel?", k=6,
                                 filters=filters)  # fmt: skip
    assert len(chunks) == 6 and {c.corpus for c in chunks} == set(BOTH)
    scores = [c.composite_confidence for c in chunks]
    assert scores == sorted(scores, reverse=True)  # merged by composite confidence
    for chunk in chunks:
        assert chunk.display.startswith(f"[{chunk.corpus}] {chunk.document_title}")
    assert "retrieve" in timings and "rerank" in timings
    alone, _ = rag.search("How long are backups kept?", filters=rag.filters(corpora=("people",)))
    assert {c.corpus for c in alone} == {"people"}
    assert not any(c.display.startswith("[") for c in alone)  # one corpus: no label


def test_a_small_corpus_is_not_crowded_out(two_corpora: Ragcite) -> None:
    # Retrieved together in one query, the policies would take every candidate slot.
    rag = two_corpora
    query = "data retention of backups and customer records"
    pooled = rag.retriever.retrieve(query, 4, rag.filters(corpora=BOTH)).chunks
    assert {c.corpus for c in pooled} == {"policies"}
    response = rag.ask_traced(query, k=4, filters=rag.filters(corpora=BOTH))
    assert {c.corpus for c in response.retrieved.chunks} == set(BOTH)


def test_ask_cites_with_the_corpus_in_the_display(two_corpora: Ragcite) -> None:
    response = two_corpora.ask(
        "How long do we keep customer PII?", filters=two_corpora.filters(corpora=BOTH)
    )
    assert response.answerable and response.cited_claims
    displays = [c.display for claim in response.cited_claims for c in claim.citations]
    assert displays and all(d.startswith("[policies] Data Retention Policy") for d in displays)


def test_a_corpus_in_another_store_named_in_the_settings(tmp_path: Path, postgres_url: str) -> None:
    main = tmp_path / "main.db"
    runner = CliRunner()
    for store, names in ((str(main), POLICIES), (postgres_url, PEOPLE)):
        result = runner.invoke(cli, ["--store", store, "ingest", *[str(DEMO / n) for n in names]])
        assert result.exit_code == 0, result.output
    config = tmp_path / "ragcite.toml"
    config.write_text(f'[corpora.people]\nstore = "{postgres_url}"\ncorpus = "default"\n')
    args = ["--config", str(config), "--store", str(main), "search", "--json", "-k", "6",
            "How long are backups kept, and who approves travel?"]  # fmt: skip
    result = runner.invoke(cli, [*args, "--corpus", "default", "--corpus", "people"])
    assert result.exit_code == 0, result.output
    chunks = json.loads(result.output)["chunks"]
    assert {c["corpus"] for c in chunks} == {"default", "people"}
    people = [c for c in chunks if c["corpus"] == "people"]
    assert all(c["display"].startswith("[people] ") for c in people)
    assert {c["document_id"] for c in people} <= {"employee-handbook", "remote-work-guidelines",
                                                  "travel-and-expenses"}  # fmt: skip


def test_the_api_corpora_field_fans_out(two_corpora: Ragcite) -> None:
    testclient = pytest.importorskip("fastapi.testclient")
    from ragcite.server.app import create_app

    # Served --open on loopback: this test is about the fan-out, not about keys.
    app = create_app(two_corpora, open_access=True)
    with testclient.TestClient(app, base_url="http://localhost") as client:
        body = client.post(
            "/ask", json={"question": "How long do we keep customer PII?", "corpora": list(BOTH)}
        ).json()
    assert body["sources"] and {s["corpus"] for s in body["sources"]} <= set(BOTH)
    assert all(s["display"].startswith(f"[{s['corpus']}] ") for s in body["sources"])
    citations = [c for claim in body["claims"] for c in claim["citations"]]
    assert citations and all(c["display"].startswith("[policies] ") for c in citations)
