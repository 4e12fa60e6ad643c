"""`ragcite migrate`: a collection copied SQLite → PostgreSQL → SQLite, vectors included,
answers searches exactly as before; a non-empty target is refused unless --append."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from ragcite.compose import existing_store, make_store
from ragcite.errors import StoreError
from ragcite.index.answers import (
    SavedAnswer,
    Tombstone,
    answers_store,
    erasing_store,
    saved_answer_of,
)
from ragcite.index.copy_store import copy_collection
from ragcite.index.corpus_access import corpus_access_store
from ragcite.index.feedback import feedback_store
from ragcite.index.store import NewVersion, Store
from ragcite.models import CitedResponse, Document

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
        assert [v.sentence_vectors for v in copy] == [v.sentence_vectors for v in original]
    assert any(blob is not None for v in original for blob in v.sentence_vectors or [])
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


def _saved(store: Store, answer_id: str, doc: Document, groups: tuple[str, ...] | None) -> None:
    chunk = next(
        v.chunks[0]
        for v in store.export_versions()
        if (v.document.document_id, v.document.version) == (doc.document_id, doc.version)
    )
    response = CitedResponse(
        query=f"What does {doc.title} say?",
        answer_id=answer_id,
        answer_text=chunk.chunk_text,
        answerable=True,
        source_chunks=[chunk],
    )
    when = datetime(2026, 3, 4, 5, 6, 7, 891011, tzinfo=UTC)
    answers_store(store).save_answer(
        saved_answer_of(response, key_name="hr-bot", groups=groups, created_at=when)
    )


@dataclass(frozen=True)
class Records:
    """A store's saved answers (all, and those an hr or a sales reader may read),
    tombstones and corpus access groups."""

    answers: list[SavedAnswer]
    hr_reads: list[str]
    sales_reads: list[str]
    tombstones: list[Tombstone]
    corpus_access: dict[str, tuple[str, ...]]


def _records(location: str | Path) -> Records:
    store = existing_store(str(location))
    try:
        answers = answers_store(store)
        return Records(
            answers.list_answers(access_groups=None),
            [a.answer_id for a in answers.list_answers(access_groups=("hr",))],
            [a.answer_id for a in answers.list_answers(access_groups=("sales",))],
            erasing_store(store).tombstones(),
            corpus_access_store(store).corpus_access(),
        )
    finally:
        store.close()


def test_saved_answers_tombstones_and_corpus_groups_go_over_and_back(
    demo_store_path: Path, postgres_url: str, tmp_path: Path
) -> None:
    source = existing_store(str(demo_store_path))
    kept, erased = source.list_documents()[:2]
    _saved(source, "kept-answer", kept, ("hr",))
    _saved(source, "redacted-answer", erased, None)
    erasing_store(source).erase_document(erased.document_id, erased_by="cli (test)")
    corpus_access_store(source).set_corpus_access(kept.corpus, ("hr", "legal"))
    source.close()
    expected = _records(demo_store_path)
    assert len(expected.answers) == 2 and len(expected.tombstones) == 1
    assert expected.corpus_access == {kept.corpus: ("hr", "legal")}
    assert expected.hr_reads == ["kept-answer"] and expected.sales_reads == []

    code, out = run("migrate", "--from", str(demo_store_path), "--to", postgres_url)
    assert code == 0, out
    assert "2 saved answers (0 already there), 1 tombstones, 1 corpus access lists" in out
    back = tmp_path / "back.db"
    assert run("migrate", "--from", postgres_url, "--to", str(back))[0] == 0
    assert _records(postgres_url) == expected and _records(back) == expected
    redacted = next(a for a in expected.answers if a.answer_id == "redacted-answer")
    assert redacted.erased_documents == (erased.document_id,)

    code, out = run("migrate", "--from", postgres_url, "--to", str(back), "--append")
    assert code == 0, out
    assert "0 saved answers (2 already there), 0 tombstones, 0 corpus access lists" in out
    assert _records(back) == expected


def test_a_copy_that_would_bring_back_an_erased_document_is_refused(
    demo_store_path: Path, postgres_url: str
) -> None:
    assert run("migrate", "--from", str(demo_store_path), "--to", postgres_url)[0] == 0
    source = existing_store(str(demo_store_path))
    erased = source.list_documents()[0].document_id
    erasing_store(source).erase_document(erased, erased_by="cli (test)")
    source.close()
    code, out = run("migrate", "--from", str(demo_store_path), "--to", postgres_url, "--append")
    assert code == 1 and f"'{erased}' was erased" in out and "documents erase" in out
    code, out = run("migrate", "--from", postgres_url, "--to", str(demo_store_path), "--append")
    assert code == 1 and f"'{erased}' was erased" in out
