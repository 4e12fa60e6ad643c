"""`ragcite migrate`: a collection copied SQLite → PostgreSQL → SQLite, vectors included,
answers searches exactly as before; a non-empty target is refused unless --append."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ragcite.compose import existing_store, make_store
from ragcite.errors import StoreError
from ragcite.index.copy_store import copy_collection
from ragcite.index.feedback import feedback_store
from ragcite.index.store import NewVersion

from .test_cli import run

QUERIES = ("backup retention", "parental leave for the primary caregiver", "travel approval")


def _search(store: str | Path, query: str) -> list[tuple[str, float, float]]:
    code, out = run("search", query, "--json", "-k", "8", store=store)
    assert code == 0, out
    return [
        (c["chunk_id"], c["scores"]["vector_similarity"], c["scores"]["composite_confidence"])
        for c in json.loads(out)["chunks"]
    ]


def _exported(location: str | Path) -> list[NewVersion]:
    store = existing_store(str(location))
    try:
        return list(store.export_versions())
    finally:
        store.close()


def test_round_trip_sqlite_postgres_sqlite_searches_alike(
    demo_store_path: Path, postgres_url: str, tmp_path: Path
) -> None:
    rated = existing_store(str(demo_store_path))
    feedback_store(rated).add_feedback("How long are backups kept?", "up", comment="good")
    rated.close()
    code, out = run("migrate", "--from", str(demo_store_path), "--to", postgres_url)
    assert code == 0, out
    assert "versions copied" in out and "1 feedback records copied" in out
    assert "counts checked: 11 documents, 12 versions" in out
    back = tmp_path / "back.db"
    code, out = run("migrate", "--from", postgres_url, "--to", str(back))
    assert code == 0, out

    original, middle, returned = map(_exported, (demo_store_path, postgres_url, back))
    for copy in (middle, returned):
        assert [v.document for v in copy] == [v.document for v in original]
        assert [v.chunks for v in copy] == [v.chunks for v in original]
        assert [(v.text, v.pages) for v in copy] == [(v.text, v.pages) for v in original]
        for a, b in zip(copy, original, strict=True):
            np.testing.assert_array_equal(a.vectors, b.vectors)  # never re-embedded
    for query in QUERIES:
        assert _search(back, query) == _search(demo_store_path, query)
    returned_store = existing_store(str(back))
    (record,) = feedback_store(returned_store).list_feedback()
    returned_store.close()
    assert (record.query, record.comment) == ("How long are backups kept?", "good")


def test_a_non_empty_target_is_refused_unless_append(
    demo_store_path: Path, postgres_url: str
) -> None:
    assert run("migrate", "--from", str(demo_store_path), "--to", postgres_url)[0] == 0
    code, out = run("migrate", "--from", str(demo_store_path), "--to", postgres_url)
    assert code == 1 and "already holds 11 documents" in out and "--append" in out
    code, out = run("migrate", "--from", str(demo_store_path), "--to", postgres_url, "--append")
    assert code == 0 and "0 versions copied" in out and "12 already there" in out
    assert "counts checked: 11 documents, 12 versions" in out


def test_one_corpus_only(demo_store_path: Path, tmp_path: Path) -> None:
    target = tmp_path / "one.db"
    code, out = run(
        "migrate", "--from", str(demo_store_path), "--to", str(target), "--corpus", "nothing"
    )
    assert code == 0 and "0 versions copied" in out and "0 documents" in out


def test_bad_sources_are_one_line_errors(tmp_path: Path, demo_store_path: Path) -> None:
    missing = tmp_path / "missing.db"
    code, out = run("migrate", "--from", str(missing), "--to", str(tmp_path / "t.db"))
    assert code == 1 and f"no store at {missing}" in out and not missing.exists()
    code, out = run("migrate", "--from", str(demo_store_path), "--to", str(demo_store_path))
    assert code == 1 and "the same store" in out


def test_a_source_written_during_the_copy_is_a_count_mismatch(
    demo_store_path: Path, tmp_path: Path
) -> None:
    source = existing_store(str(demo_store_path))
    target = make_store(str(tmp_path / "fresh.db"), dimension=source.dimension)
    extra = next(source.export_versions())
    moved = NewVersion(
        extra.document.model_copy(update={"document_id": "late-arrival"}),
        extra.text,
        extra.pages,
        [c.model_copy(update={"chunk_id": f"late-{c.chunk_id}"}) for c in extra.chunks],
        extra.vectors,
    )
    written: list[bool] = []

    def write_once(_: NewVersion) -> None:  # another process ingesting meanwhile
        if not written:
            written.append(True)
            source.add_version(moved)

    with pytest.raises(StoreError, match="does not add up"):
        copy_collection(source, target, on_version=write_once)
    source.close()
    target.close()
