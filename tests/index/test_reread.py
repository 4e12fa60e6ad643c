"""`ingest --reread`: an unchanged file read again replaces its version only if it now reads
or chunks differently, keeping the version number, status and verification; in each store."""

from __future__ import annotations

from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragcite.cli.main import cli
from ragcite.config import load_settings
from ragcite.index.store import SearchFilters
from ragcite.models import DocumentStatus
from ragcite.pipeline import Ragcite

TEXT = "FEES\n\n" + "\n\n".join(
    f"Clause {n}. A member who pays late is charged a fee of {n} pounds after {n + 6} days."
    for n in range(1, 30)
)
EVERY = SearchFilters(statuses=tuple(DocumentStatus))


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "fees.txt").write_text(TEXT, encoding="utf-8")
    return folder


def _rag(store: str, size: int) -> Ragcite:
    overrides = {"chunk.chunk_size": size, "chunk.chunk_overlap": 50, "cache.enabled": False}
    return Ragcite.open(load_settings(store=store, overrides=overrides))


def _chunk_ids(rag: Ragcite) -> set[str]:
    return {h.chunk.chunk_id for h in rag.store.keyword_search("fee pounds", 200, EVERY)}


def test_a_file_that_reads_the_same_stays_unchanged(docs: Path, empty_store: str) -> None:
    with closing(_rag(empty_store, 800)) as rag:
        assert rag.ingest([docs]).added == 1
        generation = rag.store.corpus_version()
        again = rag.ingest([docs], reread=True)
        assert again.added == 0 and again.unchanged == 1
        assert rag.store.corpus_version() == generation


def test_a_file_that_chunks_differently_replaces_its_version_in_place(
    docs: Path, empty_store: str
) -> None:
    verified = datetime(2026, 1, 5, tzinfo=UTC)
    with closing(_rag(empty_store, 800)) as rag:
        rag.ingest([docs])
        rag.store.mark_verified("fees-txt", verified)
        before = _chunk_ids(rag)
    with closing(_rag(empty_store, 300)) as rag:
        # Without --reread the unchanged file is skipped, whatever the settings.
        assert rag.ingest([docs]).unchanged == 1
        report = rag.ingest([docs], reread=True)
        assert report.added == 1 and report.outcomes[0].version == 1
        after = _chunk_ids(rag)
        assert after and not after & before and len(after) > len(before)
        (document,) = rag.store.list_documents()
        assert document.version == 1 and document.status is DocumentStatus.ACTIVE
        assert document.last_verified == verified


def test_a_superseded_version_stays_superseded_and_a_deleted_one_is_not_read_back(
    tmp_path: Path, empty_store: str
) -> None:
    old, new = tmp_path / "v1", tmp_path / "v2"
    for number, (folder, body) in enumerate(((old, TEXT), (new, TEXT + "\n\nClause 99.")), 1):
        folder.mkdir()
        (folder / "fees.txt").write_text(body, encoding="utf-8")
        meta = f"document_id: fees\nversion: {number}\n"
        (folder / "fees.txt.meta.yaml").write_text(meta, encoding="utf-8")
    with closing(_rag(empty_store, 800)) as rag:
        rag.ingest([old, new])
    with closing(_rag(empty_store, 300)) as rag:
        rag.ingest([old], reread=True)
        statuses = {d.version: d.status for d in rag.store.list_documents()}
        assert statuses == {1: DocumentStatus.SUPERSEDED, 2: DocumentStatus.ACTIVE}
        rag.store.delete_document("fees")
        report = rag.ingest([new], reread=True)
        assert report.added == 0 and report.unchanged == 1
        assert {d.status for d in rag.store.list_documents()} == {DocumentStatus.DELETED}


def test_the_cli_reads_unchanged_files_again(tmp_path: Path, docs: Path) -> None:
    store = str(tmp_path / "cli.db")
    runner = CliRunner()
    first = runner.invoke(cli, ["--store", store, "ingest", str(docs)])
    assert first.exit_code == 0, first.output
    config = tmp_path / "small.toml"
    config.write_text("[chunk]\nchunk_size = 300\nchunk_overlap = 50\n", encoding="utf-8")
    skipped = runner.invoke(cli, ["--store", store, "--config", str(config), "ingest", str(docs)])
    assert "0 added" in skipped.output and "1 unchanged" in skipped.output
    reread = ["--store", store, "--config", str(config), "ingest", "--reread", str(docs)]
    again = runner.invoke(cli, reread)
    assert again.exit_code == 0, again.output
    assert "1 added" in again.output and "fees-txt v1" in again.output
