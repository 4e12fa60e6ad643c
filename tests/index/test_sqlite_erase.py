"""Erasure in the embedded store: the erased text is gone from the file itself."""

from __future__ import annotations

from pathlib import Path

from ragcite.index.answers import answers_store, saved_answer_of
from ragcite.index.indexer import store_version
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.store import SearchFilters

from .conformance.builders import DIMENSION, version
from .conformance.test_answers_and_erasure import MARKER, answer_citing


def _file_bytes(path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))


def test_erased_text_is_not_in_the_store_file(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    store = SQLiteStore(path, dimension=DIMENSION)
    store_version(store, version("keep", 1, ["Backups are kept for 35 days."]))
    store_version(store, version("gone", 1, [f"The vault code is {MARKER} today."]))
    store_version(store, version("gone", 2, [f"The vault code is still {MARKER}."]))
    response = answer_citing(store, ["gone-2-0", "keep-1-0"])
    answers_store(store).save_answer(saved_answer_of(response))
    store.answer_cache.put("k", response.model_dump_json(), corpus_version="g3", ttl_s=60)
    store.feedback.add_feedback("code?", "wrong_citation", chunk_id="gone-2-0", claim_text=MARKER)
    assert MARKER.encode() in _file_bytes(path)
    store.erase_document("gone", erased_by="cli")
    assert MARKER.encode() not in _file_bytes(path)  # secure_delete and a WAL checkpoint
    assert store.keyword_search("vault code", 5, SearchFilters()) == []
    assert [
        hit.chunk.document_id for hit in store.keyword_search("backups", 5, SearchFilters())
    ] == ["keep"]
    store._db.query("VACUUM")
    assert MARKER.encode() not in _file_bytes(path)
    store.close()
    assert MARKER.encode() not in _file_bytes(path)
