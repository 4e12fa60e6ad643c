"""Conformance: corpus access groups. A chunk is readable only when the reader satisfies
both its corpus's groups and its document's groups (no groups: public), in every read and
search. Run against every Store implementation."""

from __future__ import annotations

import pytest

from ragcite.errors import NotFoundError
from ragcite.index.corpus_access import corpus_access_store
from ragcite.index.indexer import store_version
from ragcite.index.store import SearchFilters, Store

from .builders import axis, version

LEGAL_ONLY = ("legal",)


@pytest.fixture
def two_corpora(store: Store) -> Store:
    """A public corpus, and an `hr` corpus (restricted to hr, legal) holding a public
    document and one restricted to `legal`."""
    vectors = [axis(0)]
    store_version(store, version("handbook", 1, ["leave is 20 days"], vectors=vectors))
    store_version(store, version("payroll", 1, ["leave pay is 100%"], corpus="hr", vectors=vectors))
    store_version(
        store,
        version("case", 1, ["leave dispute"], corpus="hr", access=LEGAL_ONLY, vectors=vectors),
    )
    corpus_access_store(store).set_corpus_access("hr", ("hr", "legal"))
    return store


def _searched(store: Store, groups: tuple[str, ...] | None) -> set[str]:
    filters = SearchFilters(access_groups=groups)
    dense = store.dense_search(axis(0), 10, filters)
    keyword = store.keyword_search("leave", 10, filters)
    return {h.chunk.document_id for h in dense} | {h.chunk.document_id for h in keyword}


def test_corpus_access_is_listed_and_can_be_cleared(two_corpora: Store) -> None:
    acl = corpus_access_store(two_corpora)
    assert acl.corpus_access() == {"hr": ("hr", "legal")}
    before = two_corpora.corpus_version()
    acl.set_corpus_access("hr", ())
    assert acl.corpus_access() == {}
    assert two_corpora.corpus_version() != before  # cached answers never outlive a change
    assert _searched(two_corpora, ()) == {"handbook", "payroll"}


@pytest.mark.parametrize(
    ("groups", "expected"),
    [
        (None, {"handbook", "payroll", "case"}),  # admin / local CLI
        ((), {"handbook"}),
        (("staff",), {"handbook"}),
        (("hr",), {"handbook", "payroll"}),  # the corpus, but not the legal-only document
        (("legal",), {"handbook", "payroll", "case"}),
    ],
)
def test_search_needs_both_corpus_and_document_groups(
    two_corpora: Store, groups: tuple[str, ...] | None, expected: set[str]
) -> None:
    assert _searched(two_corpora, groups) == expected
    listed = {d.document_id for d in two_corpora.list_documents(access_groups=groups)}
    assert listed == expected


def test_reads_of_a_restricted_corpus_are_not_found(two_corpora: Store) -> None:
    assert two_corpora.document_text("payroll", access_groups=("hr",)).text
    assert two_corpora.get_chunks(["payroll-1-0"], access_groups=("hr",))
    for groups in ((), ("staff",)):
        with pytest.raises(NotFoundError):
            two_corpora.document_text("payroll", access_groups=groups)
        with pytest.raises(NotFoundError):
            two_corpora.neighbours("payroll-1-0", access_groups=groups)
        assert two_corpora.get_chunks(["payroll-1-0", "case-1-0"], access_groups=groups) == []
        assert two_corpora.list_documents("hr", access_groups=groups) == []
