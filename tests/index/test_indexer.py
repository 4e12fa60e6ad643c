"""Ingest through the real loaders, embedder and store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ragcite.embed.cached import CachedEmbedder
from ragcite.index.indexer import Indexer, document_id_for
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.store import SearchFilters
from ragcite.ingest.types import DocumentMetadata
from ragcite.models import DocumentStatus

from ..conftest import DEMO


@pytest.fixture
def indexer(tmp_path: Path, embedder: CachedEmbedder) -> Indexer:
    return Indexer(SQLiteStore(tmp_path / "s.db", dimension=embedder.dimension), embedder)


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_demo_corpus_ingests_and_reingest_changes_nothing(indexer: Indexer) -> None:
    first = indexer.ingest([DEMO])
    assert first.failed == [] and first.added == 12 and first.chunks > 50
    generation = indexer.store.corpus_version()
    second = indexer.ingest([DEMO])
    assert second.added == 0 and second.unchanged == 12
    assert indexer.store.corpus_version() == generation


def test_demo_versions_supersede(indexer: Indexer) -> None:
    indexer.ingest([DEMO])
    versions = {
        d.version: d.status
        for d in indexer.store.list_documents()
        if d.document_id == "data-retention-policy"
    }
    assert versions == {1: DocumentStatus.SUPERSEDED, 2: DocumentStatus.ACTIVE}


def test_chunk_offsets_point_at_the_document_text(indexer: Indexer) -> None:
    indexer.ingest([DEMO])
    for doc in indexer.store.list_documents():
        text = indexer.store.document_text(doc.document_id, doc.version).text
        every = SearchFilters(statuses=tuple(DocumentStatus), document_ids=(doc.document_id,))
        for hit in indexer.store.keyword_search(doc.title, 50, every):
            chunk = hit.chunk
            if chunk.document_version == doc.version:
                assert text[chunk.char_start : chunk.char_end] == chunk.chunk_text


def test_chunk_ids_are_stable_across_stores(tmp_path: Path, embedder: CachedEmbedder) -> None:
    ids = []
    for name in ("a.db", "b.db"):
        store = SQLiteStore(tmp_path / name, dimension=embedder.dimension)
        Indexer(store, embedder).ingest([DEMO / "travel-and-expenses.md"])
        ids.append(
            sorted(h.chunk.chunk_id for h in store.keyword_search("travel", 50, SearchFilters()))
        )
    assert ids[0] == ids[1] and ids[0]


def test_changed_file_becomes_a_new_version(tmp_path: Path, indexer: Indexer) -> None:
    path = _write(tmp_path / "docs", "leave.md", "# Leave\n\nStaff get 20 days of leave.\n")
    assert indexer.ingest([path]).added == 1
    path.write_text("# Leave\n\nStaff get 25 days of leave.\n", encoding="utf-8")
    report = indexer.ingest([path])
    assert [(o.document_id, o.version) for o in report.outcomes] == [("leave-md", 2)]
    hits = indexer.store.keyword_search("leave days", 5, SearchFilters())
    assert [h.chunk.chunk_text for h in hits] == ["Leave\n\nStaff get 25 days of leave."]


def test_bad_files_are_reported_and_the_rest_ingested(tmp_path: Path, indexer: Indexer) -> None:
    docs = tmp_path / "docs"
    _write(docs, "good.md", "# Good\n\nA perfectly fine document about expenses.\n")
    _write(docs, "empty.md", "   \n")
    (docs / "corrupt.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    (docs / "latin1.txt").write_bytes("Caf\xe9 policy".encode("latin-1"))
    (docs / "picture.png").write_bytes(b"\x89PNG")
    report = indexer.ingest([docs, tmp_path / "missing"])
    statuses = {o.path.name: o.status for o in report.outcomes}
    assert statuses == {
        "good.md": "added",
        "empty.md": "failed",
        "corrupt.pdf": "failed",
        "latin1.txt": "failed",
        "picture.png": "skipped",
        "missing": "failed",
    }
    for outcome in report.failed:
        assert outcome.error and str(outcome.path.name) in outcome.error
    assert indexer.store.counts().documents == 1


def test_unsupported_file_named_alone_fails(tmp_path: Path, indexer: Indexer) -> None:
    path = tmp_path / "sheet.xlsx"
    path.write_bytes(b"PK")
    [outcome] = indexer.ingest([path]).outcomes
    assert outcome.status == "failed" and "unsupported file type" in (outcome.error or "")


def test_caller_metadata_wins(tmp_path: Path, indexer: Indexer) -> None:
    path = shutil.copy(DEMO / "remote-work-guidelines.txt", tmp_path / "rw.txt")
    meta = DocumentMetadata(title="Remote Rules", document_id="remote", version=7)
    [outcome] = indexer.ingest([Path(path)], metadata=meta).outcomes
    assert (outcome.document_id, outcome.version) == ("remote", 7)
    assert indexer.store.latest_version("remote").title == "Remote Rules"  # type: ignore[union-attr]


def test_document_ids_come_from_the_relative_path(tmp_path: Path) -> None:
    assert document_id_for(tmp_path / "HR" / "Leave Policy.md", tmp_path) == "hr-leave-policy-md"
