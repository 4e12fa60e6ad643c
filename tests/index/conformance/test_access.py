"""Conformance: who may read what. Every method that returns text or metadata applies the
reader's access groups inside its query; what a reader may not see is answered exactly
like what does not exist. Run against every Store implementation."""

from __future__ import annotations

import pytest

from ragcite.errors import NotFoundError
from ragcite.index.indexer import store_version
from ragcite.index.store import Store
from ragcite.models import Document

from .builders import version

PUBLIC, HR, STAFF = (), ("hr",), ("staff", "nobody")


@pytest.fixture
def restricted(store: Store) -> Store:
    """A public handbook, an HR-only salary table (two versions), and a deleted public memo."""
    store_version(store, version("handbook", 1, ["leave is 20 days", "travel is booked"]))
    store_version(store, version("salaries", 1, ["ceo earns a lot"], access=("hr", "board")))
    store_version(
        store, version("salaries", 2, ["ceo earns more", "cfo earns less"], access=("hr",))
    )
    store_version(store, version("memo", 1, ["old memo"]))
    store.delete_document("memo")
    return store


def _ids(documents: list[Document]) -> set[tuple[str, int]]:
    return {(d.document_id, d.version) for d in documents}


def test_list_documents_shows_only_what_the_reader_may_see(restricted: Store) -> None:
    everything = {("handbook", 1), ("salaries", 1), ("salaries", 2), ("memo", 1)}
    assert _ids(restricted.list_documents()) == everything  # an admin: all, deleted too
    assert _ids(restricted.list_documents(access_groups=HR)) == {
        ("handbook", 1),
        ("salaries", 1),
        ("salaries", 2),
    }
    assert _ids(restricted.list_documents(access_groups=("board",))) == {
        ("handbook", 1),
        ("salaries", 1),
    }
    assert _ids(restricted.list_documents(access_groups=PUBLIC)) == {("handbook", 1)}
    assert _ids(restricted.list_documents(access_groups=STAFF)) == {("handbook", 1)}
    assert restricted.list_documents("nowhere", access_groups=HR) == []
    assert _ids(restricted.list_documents("default", access_groups=STAFF)) == {("handbook", 1)}


def test_document_text_of_a_restricted_document_is_not_found(restricted: Store) -> None:
    assert restricted.document_text("salaries", access_groups=HR).text.startswith("ceo earns more")
    assert restricted.document_text("salaries").document.version == 2
    # The newest version the reader may see, not a newer one they may not.
    assert restricted.document_text("salaries", access_groups=("board",)).document.version == 1
    for groups in (PUBLIC, STAFF):
        with pytest.raises(NotFoundError) as hidden:
            restricted.document_text("salaries", access_groups=groups)
        with pytest.raises(NotFoundError) as missing:
            restricted.document_text("no-such-thing", access_groups=groups)
        assert str(hidden.value) == str(missing.value).replace("no-such-thing", "salaries")
        with pytest.raises(NotFoundError, match="version 1"):
            restricted.document_text("salaries", 1, access_groups=groups)
    # A deleted document's text is kept for audit (admins) but no reader sees it.
    assert restricted.document_text("memo").text == "old memo"
    with pytest.raises(NotFoundError):
        restricted.document_text("memo", access_groups=HR)


def test_get_chunks_leaves_out_what_the_reader_may_not_see(restricted: Store) -> None:
    asked = ["salaries-2-0", "handbook-1-0", "memo-1-0", "salaries-1-0"]
    assert [c.chunk_id for c in restricted.get_chunks(asked)] == asked
    assert [c.chunk_id for c in restricted.get_chunks(asked, access_groups=HR)] == [
        "salaries-2-0",
        "handbook-1-0",
        "salaries-1-0",
    ]
    assert [c.chunk_id for c in restricted.get_chunks(asked, access_groups=("board",))] == [
        "handbook-1-0",
        "salaries-1-0",
    ]
    assert [c.chunk_id for c in restricted.get_chunks(asked, access_groups=PUBLIC)] == [
        "handbook-1-0"
    ]


def test_neighbours_of_a_restricted_chunk_are_not_found(restricted: Store) -> None:
    around = restricted.neighbours("salaries-2-0", access_groups=HR)
    assert [c.chunk_id for c in around] == ["salaries-2-0", "salaries-2-1"]
    assert [c.chunk_id for c in restricted.neighbours("handbook-1-1", access_groups=PUBLIC)] == [
        "handbook-1-0",
        "handbook-1-1",
    ]
    for chunk_id in ("salaries-2-1", "memo-1-0"):
        with pytest.raises(NotFoundError) as hidden:
            restricted.neighbours(chunk_id, access_groups=STAFF)
        assert str(hidden.value) == f"no chunk with id '{chunk_id}' in the store"
    assert [c.chunk_id for c in restricted.neighbours("memo-1-0")] == ["memo-1-0"]
