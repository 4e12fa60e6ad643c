"""Document identity: derived IDs, and which file may replace which document."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ragcite.embed.cached import CachedEmbedder
from ragcite.errors import DocumentConflictError
from ragcite.index.identity import document_id_for
from ragcite.index.indexer import Indexer
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.ingest.types import DocumentMetadata
from ragcite.models import DocumentStatus


@pytest.fixture
def indexer(tmp_path: Path, embedder: CachedEmbedder) -> Indexer:
    return Indexer(SQLiteStore(tmp_path / "s.db", dimension=embedder.dimension), embedder)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _active(indexer: Indexer) -> dict[str, int]:
    return {
        d.document_id: d.version
        for d in indexer.store.list_documents()
        if d.status is DocumentStatus.ACTIVE
    }


def test_derived_ids_keep_the_extension_and_every_script(tmp_path: Path) -> None:
    assert document_id_for(tmp_path / "hr" / "policy.md", tmp_path) == "hr-policy-md"
    assert document_id_for(tmp_path / "報告.md", tmp_path) == "報告-md"
    assert document_id_for(tmp_path / "規則.md", tmp_path) == "規則-md"
    assert document_id_for(tmp_path / "Ärger Über.txt", tmp_path) == "ärger-über-txt"
    assert document_id_for(tmp_path / "हिन्दी.md", tmp_path) == "हिन्दी-md"
    symbols = document_id_for(tmp_path / "★★", tmp_path)
    assert symbols.startswith("file-") and symbols != document_id_for(tmp_path / "☆", tmp_path)


def test_same_stem_and_non_ascii_names_are_separate_documents(
    tmp_path: Path, indexer: Indexer
) -> None:
    docs = tmp_path / "docs"
    _write(docs / "policy.md", "# Policy\n\nRefunds take 14 days.\n")
    _write(docs / "policy.txt", "Refunds take 30 days in the old text policy.\n")
    _write(docs / "報告.md", "# 報告\n\nThe annual report lists revenue.\n")
    _write(docs / "規則.md", "# 規則\n\nThe rules list the office hours.\n")
    report = indexer.ingest([docs])
    assert report.failed == [] and report.added == 4
    assert _active(indexer) == {"policy-md": 1, "policy-txt": 1, "報告-md": 1, "規則-md": 1}


def test_a_file_from_another_source_never_replaces_a_document(
    tmp_path: Path, indexer: Indexer
) -> None:
    official = _write(tmp_path / "official" / "returns-policy.md", "# Returns\n\n30 days.\n")
    other = _write(tmp_path / "inbox" / "returns-policy.md", "# Returns\n\nUntil 2099.\n")
    assert indexer.ingest([official]).added == 1
    [outcome] = indexer.ingest([other]).outcomes
    assert outcome.status == "failed" and isinstance(outcome.failure, DocumentConflictError)
    error = outcome.error or ""
    assert str(other) in error and "returns-policy-md" in error
    assert "declare document_id: returns-policy-md" in error
    assert str(official.parent) not in error  # the other source is named by its file name
    assert indexer.store.counts().versions == 1
    assert indexer.store.document_text("returns-policy-md").text.endswith("30 days.")


def test_a_declared_id_or_the_same_source_makes_a_new_version(
    tmp_path: Path, indexer: Indexer
) -> None:
    path = _write(tmp_path / "a" / "leave.md", "# Leave\n\n20 days.\n")
    indexer.ingest([path])
    path.write_text("# Leave\n\n25 days.\n", encoding="utf-8")
    assert [(o.document_id, o.version) for o in indexer.ingest([path]).outcomes] == [
        ("leave-md", 2)
    ]
    other = _write(tmp_path / "b" / "leave.md", "# Leave\n\n30 days.\n")
    declared = DocumentMetadata(document_id="leave-md")
    [outcome] = indexer.ingest([other], metadata=declared).outcomes
    assert (outcome.status, outcome.version) == ("added", 3)
    assert _active(indexer) == {"leave-md": 3}


def test_a_file_stored_under_its_legacy_id_keeps_it(tmp_path: Path, indexer: Indexer) -> None:
    path = _write(tmp_path / "leave.md", "# Leave\n\n20 days.\n")
    indexer.ingest([path], metadata=DocumentMetadata(document_id="leave"))  # as before 0.x
    path.write_text("# Leave\n\n25 days.\n", encoding="utf-8")
    [outcome] = indexer.ingest([path]).outcomes
    assert (outcome.document_id, outcome.version) == ("leave", 2)


def test_symlink_loops_and_broken_links_are_reported(tmp_path: Path, indexer: Indexer) -> None:
    docs = tmp_path / "docs"
    _write(docs / "sub" / "note.md", "# Note\n\nA note about parking.\n")
    os.symlink(docs, docs / "sub" / "back")  # leads back to a folder that contains it
    os.symlink(docs / "self", docs / "self")  # points to itself
    os.symlink(tmp_path / "nowhere.md", docs / "gone.md")
    report = indexer.ingest([docs])
    assert report.added == 1
    skipped = {o.path.name: o.error or "" for o in report.outcomes if o.status == "skipped"}
    assert set(skipped) == {"back", "self", "gone.md"}
    assert "symlink loop" in skipped["back"] and "symlink loop" in skipped["self"]
    assert "broken symbolic link" in skipped["gone.md"]
    assert all("\n" not in line for line in skipped.values())
