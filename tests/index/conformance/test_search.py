"""Conformance: dense and keyword search, filters, similarities and neighbours.
Run against every Store implementation."""

from __future__ import annotations

import pytest

from ragcite.embed.cached import CachedEmbedder
from ragcite.errors import NotFoundError
from ragcite.index.indexer import store_version
from ragcite.index.store import SearchFilters, Store
from ragcite.models import DocumentStatus

from .builders import at_cosine, axis, version

EVERY_STATUS = SearchFilters(statuses=tuple(DocumentStatus))


@pytest.fixture
def library(store: Store) -> Store:
    """Four documents across two corpora, one restricted to lawyers, one to two groups,
    one superseded version; every chunk about contracts, at a known cosine to axis 0."""
    store_version(store, version("hr", 1, ["contracts for staff"], vectors=[at_cosine(0.9)]))
    store_version(
        store,
        version(
            "legal",
            1,
            ["contracts for lawyers"],
            corpus="legal",
            access=("lawyers",),
            vectors=[at_cosine(0.95)],
        ),
    )
    store_version(
        store,
        version(
            "board",
            1,
            ["contracts for the board"],
            access=("board", "execs"),
            vectors=[at_cosine(0.5)],
        ),
    )
    store_version(store, version("old", 1, ["contracts, old wording"], vectors=[at_cosine(0.99)]))
    store_version(store, version("old", 2, ["contracts, new wording"], vectors=[at_cosine(0.7)]))
    return store


FILTER_CASES = [
    (SearchFilters(), {"hr", "legal", "board", "old"}),
    (SearchFilters(corpora=("legal",)), {"legal"}),
    (SearchFilters(corpora=("default", "legal")), {"hr", "legal", "board", "old"}),
    (SearchFilters(corpora=()), set()),
    (SearchFilters(access_groups=()), {"hr", "old"}),  # no groups: public documents only
    (SearchFilters(access_groups=("staff",)), {"hr", "old"}),
    (SearchFilters(access_groups=("lawyers",)), {"hr", "old", "legal"}),
    (SearchFilters(access_groups=("execs", "nobody")), {"hr", "old", "board"}),
    (SearchFilters(document_ids=("hr", "board")), {"hr", "board"}),
    (SearchFilters(statuses=(DocumentStatus.SUPERSEDED,)), {"old"}),
    (SearchFilters(corpora=("default",), access_groups=("lawyers",)), {"hr", "old"}),
]


@pytest.mark.parametrize(("filters", "expected"), FILTER_CASES)
def test_filters_apply_to_both_searches(
    library: Store, filters: SearchFilters, expected: set[str]
) -> None:
    dense = library.dense_search(axis(0), 10, filters)
    keyword = library.keyword_search("contracts", 10, filters)
    assert {h.chunk.document_id for h in dense} == expected
    assert {h.chunk.document_id for h in keyword} == expected


def test_status_filter_selects_versions(library: Store) -> None:
    old = SearchFilters(document_ids=("old",), statuses=(DocumentStatus.SUPERSEDED,))
    assert [h.chunk.document_version for h in library.dense_search(axis(0), 5, old)] == [1]
    every = SearchFilters(document_ids=("old",), statuses=tuple(DocumentStatus))
    assert sorted(
        h.chunk.document_version for h in library.keyword_search("old new", 5, every)
    ) == [
        1,
        2,
    ]


def test_dense_search_is_cosine_order_best_first_and_k(library: Store) -> None:
    hits = library.dense_search(axis(0), 10, SearchFilters(access_groups=("lawyers", "board")))
    assert [h.chunk.document_id for h in hits] == ["legal", "hr", "old", "board"]
    assert [h.score for h in hits] == pytest.approx([0.95, 0.9, 0.7, 0.5], abs=1e-5)
    top = library.dense_search(axis(0), 2, SearchFilters(access_groups=("lawyers",)))
    assert [h.chunk.document_id for h in top] == ["legal", "hr"]
    assert library.dense_search(axis(0), 0, SearchFilters()) == []


def test_dense_search_filters_inside_the_query(store: Store) -> None:
    # Fifty near-perfect matches in one corpus and one poor match in another: a search
    # that filtered its top k afterwards would find nothing for the other corpus.
    for i in range(50):
        store.add_version(version(f"near-{i}", 1, [f"near {i}"], vectors=[at_cosine(0.99)]))
    store.add_version(version("far", 1, ["far"], corpus="other", vectors=[at_cosine(0.1)]))
    hits = store.dense_search(axis(0), 3, SearchFilters(corpora=("other",)))
    assert [h.chunk.document_id for h in hits] == ["far"]
    assert hits[0].score == pytest.approx(0.1, abs=1e-5)


def test_keyword_search_filters_inside_the_query(store: Store) -> None:
    for i in range(30):
        store.add_version(version(f"many-{i}", 1, ["refund refund refund"]))
    store.add_version(version("rare", 1, ["a long text that mentions a refund once"], corpus="x"))
    hits = store.keyword_search("refund", 2, SearchFilters(corpora=("x",)))
    assert [h.chunk.document_id for h in hits] == ["rare"]


def test_keyword_search_is_bm25_order(store: Store) -> None:
    store.add_version(version("dense", 1, ["refund policy: refund within thirty days, refund"]))
    store.add_version(version("once", 1, ["the travel policy covers trains and one refund rule"]))
    store.add_version(version("none", 1, ["the travel policy covers trains and hotels"]))
    hits = store.keyword_search("refund", 10, SearchFilters())
    assert [h.chunk.document_id for h in hits] == ["dense", "once"]
    assert hits[0].score > hits[1].score > 0
    both = store.keyword_search("refund trains", 10, SearchFilters())
    assert both[0].chunk.document_id == "once"  # the only chunk with both words
    assert [h.score for h in both] == sorted((h.score for h in both), reverse=True)
    assert len(store.keyword_search("refund", 1, SearchFilters())) == 1


def test_keyword_search_matches_word_forms(store: Store) -> None:
    store.add_version(version("doc", 1, ["Employees are refunded for travelling"]))
    assert [
        h.chunk.document_id for h in store.keyword_search("refund travel", 5, EVERY_STATUS)
    ] == ["doc"]


def test_keyword_search_finds_irregular_forms_the_corpus_uses(store: Store) -> None:
    """A stemmer cannot reach "lost" from "lose" or "paid" from "pay": a question's
    irregular word that no chunk holds is searched in its other forms too."""
    store.add_version(version("lost", 1, ["Lost laptops must be reported within 4 hours."]))
    store.add_version(version("other", 1, ["Laptops are encrypted before they are issued."]))
    hits = store.keyword_search("What if I lose my laptop?", 5, EVERY_STATUS)
    assert hits[0].chunk.document_id == "lost"
    assert {h.chunk.document_id for h in hits} == {"lost", "other"}
    assert [h.chunk.document_id for h in store.keyword_search("lose", 5, EVERY_STATUS)] == ["lost"]


def test_keyword_search_keeps_an_irregular_word_the_corpus_holds(store: Store) -> None:
    """A word the documents use is not diluted by its other forms: "keep" does not also
    search "kept" when some chunk says "keep"."""
    store.add_version(version("keep", 1, ["We keep invoices for seven years."]))
    store.add_version(version("kept", 1, ["Badge logs are kept for a year."]))
    hits = store.keyword_search("keep", 5, EVERY_STATUS)
    assert [h.chunk.document_id for h in hits] == ["keep"]
    # "paid" is in no chunk, so its base form is searched too
    store.add_version(version("pay", 1, ["We pay salaries monthly."]))
    assert [h.chunk.document_id for h in store.keyword_search("paid", 5, EVERY_STATUS)] == ["pay"]


@pytest.mark.parametrize(
    "query",
    [
        '"unbalanced',
        'say "NEAR"',
        "NEAR(a b)",
        "a NEAR/2 b",
        "a AND OR NOT",
        "*",
        "pay*",
        "-minus -",
        "col:umn",
        "title:contracts",
        "^start",
        "(((",
        "{a b}: c",
        "'; DROP TABLE chunks; --",
    ],
)
def test_fts_syntax_in_a_query_is_safe(store: Store, query: str) -> None:
    store.add_version(version("doc", 1, ["the NEAR operator, quotes and payments"]))
    hits = store.keyword_search(query, 5, SearchFilters())
    assert all(h.chunk.document_id == "doc" for h in hits)
    assert store.counts().chunks == 1


def test_quoted_words_are_searched_as_words(store: Store) -> None:
    store.add_version(version("doc", 1, ["the NEAR operator, quotes and payments"]))
    assert [h.chunk.document_id for h in store.keyword_search('"payments"', 5, EVERY_STATUS)] == [
        "doc"
    ]
    assert [h.chunk.document_id for h in store.keyword_search("NEAR", 5, EVERY_STATUS)] == ["doc"]


def test_punctuation_only_and_empty_queries_find_nothing(store: Store) -> None:
    store.add_version(version("doc", 1, ["some text"]))
    for query in ["", "   ", "?!...", "—–-", '""', "()"]:
        assert store.keyword_search(query, 5, SearchFilters()) == []


def test_stopword_only_queries_are_safe(store: Store) -> None:
    store.add_version(version("doc", 1, ["what it is and what it was"]))
    store.add_version(version("other", 1, ["payments"]))
    hits = store.keyword_search("what is it", 5, SearchFilters())
    assert [h.chunk.document_id for h in hits] == ["doc"]  # stopwords alone are still words


def test_dense_search_with_real_embeddings(store: Store, embedder: CachedEmbedder) -> None:
    texts = [
        "Customer personal data is deleted seven years after the account closes.",
        "Staff may work from home two days a week.",
        "Hotel costs are reimbursed up to 150 euros a night.",
    ]
    for i, text in enumerate(texts):
        store.add_version(version(f"doc-{i}", 1, [text], vectors=embedder.embed([text])))
    query = embedder.embed(["How long do we keep customer PII?"])[0]
    hits = store.dense_search(query, 3, SearchFilters())
    assert hits[0].chunk.document_id == "doc-0"
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(-1.0 <= h.score <= 1.0 for h in hits)


def test_similarities(library: Store) -> None:
    scores = library.similarities(axis(0), ["hr-1-0", "board-1-0", "missing"])
    assert scores == pytest.approx({"hr-1-0": 0.9, "board-1-0": 0.5}, abs=1e-5)
    assert library.similarities(axis(0), []) == {}


def test_get_chunks_keeps_the_order_asked(library: Store) -> None:
    chunks = library.get_chunks(["legal-1-0", "missing", "hr-1-0"])
    assert [c.chunk_id for c in chunks] == ["legal-1-0", "hr-1-0"]
    legal = chunks[0]
    assert (legal.document_title, legal.corpus, legal.document_status) == (
        "Legal",
        "legal",
        DocumentStatus.ACTIVE,
    )
    assert library.get_chunks([]) == []


def test_neighbours_in_reading_order(store: Store) -> None:
    store.add_version(version("doc", 1, ["one", "two", "three", "four", "five"]))
    assert [c.chunk_text for c in store.neighbours("doc-1-2")] == ["two", "three", "four"]
    assert [c.chunk_text for c in store.neighbours("doc-1-0", before=2, after=2)] == [
        "one",
        "two",
        "three",
    ]
    assert [c.chunk_text for c in store.neighbours("doc-1-4", before=0, after=0)] == ["five"]
    with pytest.raises(NotFoundError, match="missing"):
        store.neighbours("missing")
