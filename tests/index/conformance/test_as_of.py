"""Conformance: searching the version of each document in force on a date, a version by
number, or the previous version. Run against every Store implementation."""

from __future__ import annotations

from datetime import date

import pytest

from ragcite.index.indexer import store_version
from ragcite.index.store import SearchFilters, Store
from ragcite.models import DocumentStatus

from .builders import axis, version

BOTH = (DocumentStatus.ACTIVE, DocumentStatus.SUPERSEDED)


@pytest.fixture
def versioned(store: Store) -> Store:
    """A policy of 2019 (v1), 2021 (v2) and 2024 (v3); an undated guide; a memo from 2022."""
    vectors = [axis(0)]
    for number, year in ((1, 2019), (2, 2021), (3, 2024)):
        store_version(
            store,
            version(
                "policy",
                number,
                [f"backups kept, policy of {year}"],
                vectors=vectors,
                effective_date=date(year, 3, 1),
            ),
        )
    store_version(store, version("guide", 1, ["backups guide"], vectors=vectors))
    store_version(
        store,
        version("memo", 1, ["backups memo"], vectors=vectors, effective_date=date(2022, 6, 1)),
    )
    return store


def _found(store: Store, filters: SearchFilters) -> set[tuple[str, int]]:
    dense = store.dense_search(axis(0), 20, filters)
    keyword = store.keyword_search("backups", 20, filters)
    found = {(h.chunk.document_id, h.chunk.document_version) for h in dense}
    assert found == {(h.chunk.document_id, h.chunk.document_version) for h in keyword}
    return found


@pytest.mark.parametrize(
    ("as_of", "expected"),
    [
        (date(2018, 12, 31), {("guide", 1)}),
        (date(2019, 3, 1), {("policy", 1), ("guide", 1)}),
        (date(2021, 2, 28), {("policy", 1), ("guide", 1)}),
        (date(2021, 3, 1), {("policy", 2), ("guide", 1)}),
        (date(2023, 1, 1), {("policy", 2), ("guide", 1), ("memo", 1)}),
        (date(2030, 1, 1), {("policy", 3), ("guide", 1), ("memo", 1)}),
    ],
)
def test_as_of_searches_the_version_in_force_then(
    versioned: Store, as_of: date, expected: set[tuple[str, int]]
) -> None:
    assert _found(versioned, SearchFilters(statuses=BOTH, as_of=as_of)) == expected


def test_a_deleted_newer_version_does_not_end_an_older_one(versioned: Store) -> None:
    versioned.delete_document("memo")
    found = _found(versioned, SearchFilters(statuses=BOTH, as_of=date(2023, 1, 1)))
    assert found == {("policy", 2), ("guide", 1)}


def test_version_number_and_previous_version(versioned: Store) -> None:
    assert _found(versioned, SearchFilters(statuses=BOTH, version=1)) == {
        ("policy", 1),
        ("guide", 1),
        ("memo", 1),
    }
    assert _found(versioned, SearchFilters(statuses=BOTH, previous_version=True)) == {("policy", 2)}
    # Within the statuses asked: superseded versions stay out of an active-only search.
    assert _found(versioned, SearchFilters(version=1)) == {("guide", 1), ("memo", 1)}
