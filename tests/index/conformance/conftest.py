"""The `store` fixture: every Store implementation, each test run against each.

A new implementation joins the suite with one entry in STORES: a function that gets
the pytest request (for its own fixtures, e.g. a database server) and returns an
empty store of DIMENSION-long vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ragcite.index.feedback import FeedbackStore, feedback_store
from ragcite.index.postgres import open_postgres_store
from ragcite.index.sqlite_store import open_sqlite_store
from ragcite.index.store import Store
from ragcite.registry import parse_store_url

from .builders import DIMENSION


def _sqlite(request: pytest.FixtureRequest) -> Store:
    tmp_path: Path = request.getfixturevalue("tmp_path")
    return open_sqlite_store(parse_store_url(str(tmp_path / "store.db")), dimension=DIMENSION)


def _postgres(request: pytest.FixtureRequest) -> Store:
    url: str = request.getfixturevalue("postgres_url")
    return open_postgres_store(parse_store_url(url), dimension=DIMENSION)


STORES: dict[str, Callable[[pytest.FixtureRequest], Store]] = {
    "sqlite": _sqlite,
    "postgres": _postgres,
}


@pytest.fixture(params=sorted(STORES))
def store(request: pytest.FixtureRequest) -> Iterator[Store]:
    opened = STORES[request.param](request)
    yield opened
    opened.close()


@pytest.fixture
def feedback(store: Store) -> FeedbackStore:
    return feedback_store(store)
