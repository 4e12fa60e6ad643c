"""Files loaded ahead on a worker thread while a group embeds: the same store as loading
each in its turn, nothing parsed that is unchanged, a file's load error its own outcome."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from ragcite.embed.cached import CachedEmbedder
from ragcite.index import indexer as indexer_module
from ragcite.index import load_ahead
from ragcite.index.indexer import Indexer
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.ingest.loaders import load_document

from ..conftest import DEMO


def _indexer(path: Path, embedder: CachedEmbedder) -> Indexer:
    return Indexer(SQLiteStore(path, dimension=embedder.dimension), embedder)


def _loads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(file name, thread name) of every file the indexer loads, as it loads them."""
    loads: list[tuple[str, str]] = []

    def recorded(path: Path, **kwargs: Any) -> Any:
        loads.append((path.name, threading.current_thread().name))
        return load_document(path, **kwargs)

    monkeypatch.setattr(load_ahead, "load_document", recorded)
    return loads


def _chunks(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT chunk_id, document_id, document_version, chunk_text, char_start, char_end,"
            " page_number, section_heading FROM chunks ORDER BY chunk_id"
        ).fetchall()


def test_files_after_a_group_load_on_the_worker_and_store_the_same(
    tmp_path: Path, embedder: CachedEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads = _loads(monkeypatch)
    report = _indexer(tmp_path / "ahead.db", embedder).ingest([DEMO])
    assert not report.failed
    # The demo's first group closes at a document's second version; the files after it
    # load on the worker while that group embeds.
    ahead = [name for name, thread in loads if thread.startswith("ragcite-load")]
    assert "employee-handbook.pdf" in ahead and len(ahead) >= 8
    monkeypatch.setattr(load_ahead, "AHEAD_FILES", 0)  # nothing loaded ahead
    loads.clear()
    again = _indexer(tmp_path / "in-turn.db", embedder).ingest([DEMO])
    assert all(thread == threading.current_thread().name for _, thread in loads)
    assert [(o.path, o.status, o.chunks) for o in again.outcomes] == [
        (o.path, o.status, o.chunks) for o in report.outcomes
    ]
    assert _chunks(tmp_path / "ahead.db") == _chunks(tmp_path / "in-turn.db")


def test_unchanged_files_are_not_loaded_ahead(
    tmp_path: Path, embedder: CachedEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a-leave.md", "b-travel.md", "c-pay.md"):
        (folder / name).write_text(f"# {name}\n\nStaff read the {name} rules once a year.\n")
    indexer = _indexer(tmp_path / "s.db", embedder)
    assert indexer.ingest([folder]).added == 3
    (folder / "a-leave.md").write_text("# Leave\n\nStaff get 27 days of leave a year.\n")
    monkeypatch.setattr(indexer_module, "GROUP_TEXTS", 1)  # each added file embeds alone
    loads = _loads(monkeypatch)
    report = indexer.ingest([folder])
    assert [o.status for o in report.outcomes] == ["added", "unchanged", "unchanged"]
    assert [name for name, _ in loads] == ["a-leave.md"]  # b and c were never parsed


def test_a_file_that_fails_loading_ahead_fails_alone_with_its_own_error(
    tmp_path: Path, embedder: CachedEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a-leave.md").write_text("# Leave\n\nStaff get 25 days of leave a year.\n")
    (folder / "b-broken.md").write_text("---\ntitle: never closed\n\nBody.\n")
    (folder / "c-travel.md").write_text("# Travel\n\nTrains are booked in standard class.\n")
    monkeypatch.setattr(indexer_module, "GROUP_TEXTS", 1)
    loads = _loads(monkeypatch)
    report = _indexer(tmp_path / "s.db", embedder).ingest([folder])
    assert ("b-broken.md", "ragcite-load_0") in loads
    outcomes = {o.path.name: o for o in report.outcomes}
    assert [o.status for o in report.outcomes] == ["added", "failed", "added"]
    with pytest.raises(Exception) as in_turn:
        load_document(folder / "b-broken.md")
    assert outcomes["b-broken.md"].error == str(in_turn.value)


def test_a_file_loaded_ahead_has_its_time_counted_from_when_its_loading_began(
    tmp_path: Path, embedder: CachedEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a-leave.md").write_text("# Leave\n\nStaff get 25 days of leave a year.\n")
    (folder / "b-travel.md").write_text("# Travel\n\nTrains are booked in standard class.\n")
    monkeypatch.setattr(indexer_module, "GROUP_TEXTS", 1)
    began: dict[str, float] = {}
    limits: dict[str, float | None] = {}
    original_job = Indexer._job

    def job(self: Indexer, path: Path, *args: Any) -> Any:
        made = original_job(self, path, *args)
        if len(args) == 5 and args[4] is not None:  # a job of the ingest loop
            began[path.name] = args[4].started(path) or -1.0
            limits[path.name] = made.limits.deadline
        return made

    monkeypatch.setattr(Indexer, "_job", job)
    indexer = _indexer(tmp_path / "s.db", embedder)
    assert indexer.ingest([folder]).added == 2
    assert began["a-leave.md"] == -1.0  # loaded in its turn
    assert began["b-travel.md"] > 0  # loaded ahead, while a-leave.md embedded
    assert limits["b-travel.md"] == began["b-travel.md"] + indexer.limits.max_seconds_per_file
