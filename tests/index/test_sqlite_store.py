"""The embedded store, against real SQLite and faiss."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from ragcite.errors import NotFoundError, StoreError
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.store import NewVersion, SearchFilters
from ragcite.models import Document, DocumentStatus, SourceChunk


def _version(
    doc_id: str,
    version: int,
    texts: list[str],
    *,
    corpus: str = "default",
    access: tuple[str, ...] = (),
    sha: str | None = None,
) -> NewVersion:
    document = Document(
        document_id=doc_id,
        corpus=corpus,
        title=doc_id.title(),
        source_uri=f"/tmp/{doc_id}.md",
        version=version,
        content_sha256=sha or f"{doc_id}-{version}",
        access=access,
    )
    chunks, offset = [], 0
    for i, text in enumerate(texts):
        chunks.append(
            SourceChunk(
                chunk_id=f"{doc_id}-{version}-{i}",
                document_id=doc_id,
                document_version=version,
                document_title=document.title,
                chunk_text=text,
                char_start=offset,
                char_end=offset + len(text),
            )
        )
        offset += len(text) + 2
    rng = np.random.default_rng(abs(hash((doc_id, version))) % 2**32)
    vectors = rng.normal(size=(len(texts), 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return NewVersion(document, "\n\n".join(texts), (), chunks, vectors)


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    return SQLiteStore(tmp_path / "s.db")


def test_new_version_supersedes_the_old_one(store: SQLiteStore) -> None:
    store.add_version(_version("policy", 1, ["old rule about backups"]))
    store.add_version(_version("policy", 2, ["new rule about backups"]))
    versions = {d.version: d for d in store.list_documents()}
    assert versions[1].status is DocumentStatus.SUPERSEDED and versions[1].superseded_by == 2
    assert versions[2].status is DocumentStatus.ACTIVE
    hits = store.keyword_search("backups", 10, SearchFilters())
    assert [h.chunk.document_version for h in hits] == [2]
    every = SearchFilters(statuses=(DocumentStatus.ACTIVE, DocumentStatus.SUPERSEDED))
    assert len(store.keyword_search("backups", 10, every)) == 2


def test_older_version_arriving_late_is_stored_superseded(store: SQLiteStore) -> None:
    store.add_version(_version("policy", 2, ["new"]))
    stored = store.add_version(_version("policy", 1, ["old"]))
    assert stored.status is DocumentStatus.SUPERSEDED
    assert store.latest_version("policy").status is DocumentStatus.ACTIVE  # type: ignore[union-attr]


def test_same_version_with_new_content_replaces_it(store: SQLiteStore) -> None:
    store.add_version(_version("policy", 1, ["alpha text"], sha="a"))
    store.add_version(_version("policy", 1, ["beta text"], sha="b"))
    assert store.counts().chunks == 1
    assert store.keyword_search("alpha", 5, SearchFilters()) == []
    assert len(store.keyword_search("beta", 5, SearchFilters())) == 1


def test_a_failed_write_changes_nothing(store: SQLiteStore) -> None:
    store.add_version(_version("a", 1, ["first document"]))
    generation = store.corpus_version()
    duplicate = _version("b", 1, ["x", "y"])
    clash = duplicate.chunks[1].model_copy(update={"chunk_id": "a-1-0"})  # collides with a's chunk
    broken = NewVersion(
        duplicate.document, duplicate.text, (), [duplicate.chunks[0], clash], duplicate.vectors
    )
    with pytest.raises(StoreError, match="nothing was changed"):
        store.add_version(broken)
    assert store.latest_version("b") is None
    assert store.counts().chunks == 1 and store.corpus_version() == generation


def test_dense_search_respects_filters(store: SQLiteStore) -> None:
    store.add_version(_version("hr", 1, ["leave"], corpus="hr"))
    store.add_version(_version("legal", 1, ["contracts"], corpus="legal", access=("lawyers",)))
    query = store.similarities(np.zeros(384, dtype=np.float32), [])  # empty is fine
    assert query == {}
    vector = _version("legal", 1, ["contracts"], corpus="legal").vectors[0]
    top = store.dense_search(vector, 5, SearchFilters())
    assert top[0].chunk.document_id == "legal" and top[0].score == pytest.approx(1.0, abs=1e-5)
    only_hr = store.dense_search(vector, 5, SearchFilters(corpora=("hr",)))
    assert [h.chunk.document_id for h in only_hr] == ["hr"]
    outsiders = store.dense_search(vector, 5, SearchFilters(access_groups=("staff",)))
    assert [h.chunk.document_id for h in outsiders] == ["hr"]
    insiders = store.dense_search(vector, 5, SearchFilters(access_groups=("lawyers",)))
    assert {h.chunk.document_id for h in insiders} == {"hr", "legal"}


def test_index_follows_writes_from_another_connection(tmp_path: Path) -> None:
    first, second = SQLiteStore(tmp_path / "s.db"), SQLiteStore(tmp_path / "s.db")
    v = _version("doc", 1, ["shared text"])
    assert first.dense_search(v.vectors[0], 3, SearchFilters()) == []
    second.add_version(v)
    assert [h.chunk.chunk_id for h in first.dense_search(v.vectors[0], 3, SearchFilters())] == [
        "doc-1-0"
    ]


def test_delete_hides_every_version(store: SQLiteStore) -> None:
    store.add_version(_version("gone", 1, ["secret"]))
    assert store.delete_document("gone") == 1
    assert store.keyword_search("secret", 5, SearchFilters()) == []
    with pytest.raises(NotFoundError):
        store.delete_document("never-was")


def test_keyword_query_with_fts_syntax_is_safe(store: SQLiteStore) -> None:
    store.add_version(_version("doc", 1, ["the NEAR operator and quotes"]))
    for query in ['"unbalanced', "NEAR(a b)", "a AND OR NOT", "*", "col:umn"]:
        store.keyword_search(query, 5, SearchFilters())


def test_neighbours_and_text(store: SQLiteStore) -> None:
    store.add_version(_version("doc", 1, ["one", "two", "three"]))
    assert [c.chunk_text for c in store.neighbours("doc-1-1")] == ["one", "two", "three"]
    assert store.document_text("doc").text == "one\n\ntwo\n\nthree"
    with pytest.raises(NotFoundError):
        store.neighbours("missing")


def test_not_a_store_file_is_a_clear_error(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.db"
    bogus.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot open the store"):
        SQLiteStore(bogus)


def test_migrations_are_recorded_once(tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "m.db").close()
    SQLiteStore(tmp_path / "m.db").close()
    names = sqlite3.connect(tmp_path / "m.db").execute("SELECT name FROM migrations").fetchall()
    assert names == [("m001_create_tables",)]
