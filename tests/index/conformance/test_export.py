"""Conformance: `export_versions` gives back every version exactly as stored (the basis
of `ragcite migrate`). Run against every Store implementation."""

from __future__ import annotations

import numpy as np

from ragcite.index.indexer import store_version
from ragcite.index.store import Store
from ragcite.ingest.types import PageSpan
from ragcite.models import DocumentStatus

from .builders import version


def test_export_gives_every_version_with_text_pages_chunks_and_vectors(store: Store) -> None:
    pages = (PageSpan(1, 0, 12), PageSpan(2, 12, 30))
    first = version("report", 1, ["first page", "second page text"], pages=pages, access=("hr",))
    second = version("report", 2, ["rewritten"])
    other = version("memo", 1, ["a memo", "with two chunks"], corpus="notes")
    for given in (first, second, other):
        store_version(store, given)
    store.delete_document("memo")

    exported = list(store.export_versions())
    assert [(v.document.document_id, v.document.version) for v in exported] == [
        ("memo", 1),
        ("report", 1),
        ("report", 2),
    ]
    memo, report_1, report_2 = exported
    assert memo.document.status is DocumentStatus.DELETED
    assert report_1.document.status is DocumentStatus.SUPERSEDED
    assert report_1.document.superseded_by == 2 and report_1.document.access == ("hr",)
    for stored, given in ((memo, other), (report_1, first), (report_2, second)):
        assert stored.text == given.text and stored.pages == given.pages
        assert [c.chunk_id for c in stored.chunks] == [c.chunk_id for c in given.chunks]
        assert [(c.chunk_text, c.char_start, c.char_end, c.page_number) for c in stored.chunks] == [
            (c.chunk_text, c.char_start, c.char_end, c.page_number) for c in given.chunks
        ]
        assert stored.vectors.dtype == np.float32
        np.testing.assert_array_equal(stored.vectors, given.vectors)  # bit for bit
        assert stored.document.content_sha256 == given.document.content_sha256
    assert [v.document.document_id for v in store.export_versions(corpus="notes")] == ["memo"]
    assert list(store.export_versions(corpus="nothing")) == []


def test_an_exported_version_stores_again_unchanged(store: Store) -> None:
    store_version(store, version("report", 1, ["one", "two"]))
    (exported,) = store.export_versions()
    with store.write() as writer:
        assert writer.remove_version("report", 1)
        writer.add_version(exported)
    (again,) = store.export_versions()
    assert again.document == exported.document and again.chunks == exported.chunks
    np.testing.assert_array_equal(again.vectors, exported.vectors)
