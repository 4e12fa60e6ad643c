"""m050: a store made before version names opens with the column added, its versions
unnamed and labelled as before; named versions can be added to it."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

from ragcite.index.indexer import store_version
from ragcite.index.sqlite_store import open_sqlite_store
from ragcite.registry import parse_store_url

from .conformance.builders import DIMENSION, version


def test_an_older_store_gains_version_names(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = open_sqlite_store(parse_store_url(str(path)), dimension=DIMENSION)
    store_version(store, version("plan", 1, ["the plan"], effective_date=date(2024, 4, 1)))
    store.close()
    with sqlite3.connect(path) as db:  # as a store from before m050 was
        db.execute("ALTER TABLE documents DROP COLUMN version_name")
        db.execute("DELETE FROM migrations WHERE name = 'm050_version_names'")
    store = open_sqlite_store(parse_store_url(str(path)), dimension=DIMENSION)
    try:
        old = store.latest_version("plan")
        assert old is not None and old.version_name is None
        assert old.version_label == "v1 · 2024-04-01"
        store_version(store, version("plan", 2, ["the new plan"], version_name="Rev B"))
        assert [d.version_label for d in store.list_documents()] == ["Rev B", "v1 · 2024-04-01"]
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        names = [row[0] for row in db.execute("SELECT name FROM migrations")]
    assert "m050_version_names" in names
