"""Small files embedded together: the same store as one file at a time, outcomes in order,
a failing file failing alone, a document's versions numbered in file order."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragcite.config import IngestSettings
from ragcite.embed.cached import CachedEmbedder
from ragcite.index import version_embedding
from ragcite.index.indexer import ALONE_TEXTS, GROUP_TEXTS, Indexer
from ragcite.index.ingest_outcomes import FileOutcome
from ragcite.index.sentence_vectors import decode_sentence_vectors
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.models import DocumentStatus
from ragcite.text.sentence_forms import chunk_sentence_forms

from ..conftest import DEMO

SMALL = ["customer-support-sla.md", "travel-and-expenses.md", "fee-schedule.html"]


def _indexer(path: Path, embedder: CachedEmbedder) -> Indexer:
    return Indexer(SQLiteStore(path, dimension=embedder.dimension), embedder)


def _stored(path: Path) -> dict[str, tuple[str, str | None, np.ndarray, bytes | None]]:
    """chunk ID -> (text, heading, vector, sentence blob), read from the SQLite file."""
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT chunk_id, chunk_text, section_heading, vector, sentence_vectors FROM chunks"
        ).fetchall()
    return {r[0]: (r[1], r[2], np.frombuffer(r[3], dtype=np.float32), r[4]) for r in rows}


def test_files_embedded_together_store_what_each_alone_stores(
    tmp_path: Path, embedder: CachedEmbedder
) -> None:
    files = [DEMO / name for name in SMALL]
    together = _indexer(tmp_path / "together.db", embedder)
    embedder.clear()
    report = together.ingest(files)
    assert report.failed == [] and report.added == 3
    alone = _indexer(tmp_path / "alone.db", embedder)
    for path in files:
        embedder.clear()  # each file's texts through the model again, on their own
        assert alone.ingest_file(path, root=DEMO).status == "added"
    grouped, single = _stored(tmp_path / "together.db"), _stored(tmp_path / "alone.db")
    assert grouped.keys() == single.keys() and len(grouped) == report.chunks
    for chunk_id, (text, heading, vector, blob) in grouped.items():
        other = single[chunk_id]
        # The int8 model quantises each batch on its own scale: other neighbours in a batch
        # move a vector in its fourth decimal, never more.
        assert float(vector @ other[2]) > 0.999
        forms = chunk_sentence_forms(text, heading)
        ours, theirs = (decode_sentence_vectors(b or b"", forms) for b in (blob, other[3]))
        assert ours is not None and theirs is not None
        assert np.min(np.sum(ours * theirs, axis=1)) > 0.999


def test_outcomes_come_in_file_order_and_a_bad_file_fails_alone(
    tmp_path: Path, embedder: CachedEmbedder
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a-leave.md").write_text("# Leave\n\nStaff get 25 days of leave a year.\n")
    (folder / "b-empty.txt").write_text("   \n")
    (folder / "c-broken.md").write_text("---\ntitle: never closed\n\nBody.\n")
    (folder / "d-travel.md").write_text("# Travel\n\nTrains are booked in standard class.\n")
    (folder / "e-notes.xyz").write_text("not a supported type")
    indexer = _indexer(tmp_path / "s.db", embedder)
    heard: list[FileOutcome] = []
    report = indexer.ingest([folder], on_file=heard.append)
    by_name = {o.path.name: o.status for o in report.outcomes}
    assert by_name == {
        "e-notes.xyz": "skipped",
        "a-leave.md": "added",
        "b-empty.txt": "failed",
        "c-broken.md": "failed",
        "d-travel.md": "added",
    }
    read = [o.path.name for o in report.outcomes if o.status != "skipped"]
    assert read == ["a-leave.md", "b-empty.txt", "c-broken.md", "d-travel.md"]
    assert [o.path.name for o in heard] == read  # each heard once, in file order
    assert indexer.store.counts().versions == 2


def test_a_documents_versions_in_one_ingest_are_numbered_in_file_order(
    tmp_path: Path, embedder: CachedEmbedder
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, days in (("policy-a.md", 20), ("policy-b.md", 25), ("policy-c.md", 25)):
        (folder / name).write_text(
            f"---\ndocument_id: leave-policy\n---\n# Leave\n\nStaff get {days} days a year.\n"
        )
    indexer = _indexer(tmp_path / "s.db", embedder)
    report = indexer.ingest([folder])
    assert [(o.path.name, o.status, o.version) for o in report.outcomes] == [
        ("policy-a.md", "added", 1),
        ("policy-b.md", "added", 2),
        ("policy-c.md", "unchanged", 2),  # the bytes of the version stored just before
    ]
    statuses = {d.version: d.status for d in indexer.store.list_documents()}
    assert statuses == {1: DocumentStatus.SUPERSEDED, 2: DocumentStatus.ACTIVE}


def test_small_files_share_groups_up_to_group_texts_and_a_big_file_embeds_alone(
    tmp_path: Path, embedder: CachedEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo corpus's small files go through the model in as few groups as
    `GROUP_TEXTS` allows; a file of `ALONE_TEXTS` texts or more goes alone."""
    groups: list[list[int]] = []
    original = Indexer._embed_group

    def recorded(self: Indexer, group: list[Any]) -> list[Any]:
        groups.append([len(p.plan.texts) for p in group])
        return original(self, group)

    monkeypatch.setattr(Indexer, "_embed_group", recorded)
    report = _indexer(tmp_path / "demo.db", embedder).ingest([DEMO])
    assert not report.failed
    assert all(sum(g) < GROUP_TEXTS + max(g) for g in groups)  # a group closes once it is full
    assert all(len(g) == 1 for g in groups if max(g) >= ALONE_TEXTS)
    # 721 texts of small files, under the cap: one group, but for the one a document's
    # second version closes early (it waits until the first is stored)
    assert sum(n for g in groups for n in g) < GROUP_TEXTS
    assert len(groups) == 2


def test_a_group_embeds_in_one_step_and_a_file_alone_in_steps(
    tmp_path: Path, embedder: CachedEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group is neither time-checked nor reports progress while it embeds, so its texts go
    through the model in one step, sorted by length across all of them (steps of
    `ingest.embed_batch` pad more: 1.83 against 1.79 s for the demo's texts); a file alone
    keeps its steps, with a time check and progress after each."""
    steps: list[tuple[int, int]] = []
    original = version_embedding.embed_in_steps

    def recorded(embedder: Any, texts: list[str], step: int, **kwargs: Any) -> Any:
        steps.append((len(texts), step))
        return original(embedder, texts, step, **kwargs)

    monkeypatch.setattr(version_embedding, "embed_in_steps", recorded)
    store = SQLiteStore(tmp_path / "s.db", dimension=embedder.dimension)
    indexer = Indexer(store, embedder, limits=IngestSettings(embed_batch=16))
    assert indexer.ingest([DEMO / name for name in SMALL]).added == 3
    assert len(steps) == 1 and steps[0][0] > 16 and steps[0][1] == steps[0][0]
    steps.clear()
    assert indexer.ingest_file(DEMO / "returns-policy.html", root=DEMO).status == "added"
    assert steps == [(steps[0][0], 16)]
