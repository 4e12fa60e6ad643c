"""The answer cache's backends, each against a real server or file: the store's own
table (SQLite, PostgreSQL) and Redis (a real redis-server on loopback)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.errors import ConfigError, StoreError
from ragcite.index.cache import (
    AnswerCache,
    ResilientAnswerCache,
    access_scope,
    answer_key,
    normalised_question,
)
from ragcite.index.postgres import open_postgres_store
from ragcite.index.redis_cache import RedisAnswerCache
from ragcite.index.sqlite_store import open_sqlite_store
from ragcite.index.store import SearchFilters
from ragcite.registry import parse_store_url

from .conformance.builders import DIMENSION

Opened = tuple[AnswerCache, Callable[[], None]]


def _sqlite(request: pytest.FixtureRequest) -> Opened:
    tmp_path: Path = request.getfixturevalue("tmp_path")
    store = open_sqlite_store(parse_store_url(str(tmp_path / "s.db")), dimension=DIMENSION)
    return store.answer_cache, store.close


def _postgres(request: pytest.FixtureRequest) -> Opened:
    url: str = request.getfixturevalue("postgres_url")
    store = open_postgres_store(parse_store_url(url), dimension=DIMENSION)
    return store.answer_cache, store.close


def _redis(request: pytest.FixtureRequest) -> Opened:
    url: str = request.getfixturevalue("redis_url")
    return RedisAnswerCache(url, namespace="test"), lambda: None


BACKENDS = {"sqlite": _sqlite, "postgres": _postgres, "redis": _redis}


@pytest.fixture(params=sorted(BACKENDS))
def cache(request: pytest.FixtureRequest) -> Iterator[AnswerCache]:
    opened, close = BACKENDS[request.param](request)
    yield opened
    close()


def test_miss_then_hit(cache: AnswerCache) -> None:
    assert cache.get("k1") is None
    before = datetime.now(UTC)
    cache.put("k1", '{"answer": 1}', corpus_version="g1", ttl_s=60)
    found = cache.get("k1")
    assert found is not None and found.response_json == '{"answer": 1}'
    assert before - timedelta(seconds=1) <= found.created_at <= datetime.now(UTC)
    assert found.created_at.tzinfo is not None
    assert cache.get("k2") is None
    cache.put("k1", '{"answer": 2}', corpus_version="g1", ttl_s=60)  # replaced, not doubled
    assert (cache.get("k1") or found).response_json == '{"answer": 2}'


def test_entries_expire_after_their_ttl(cache: AnswerCache) -> None:
    cache.put("short", "{}", corpus_version="g1", ttl_s=0.3)
    cache.put("long", "{}", corpus_version="g1", ttl_s=60)
    assert cache.get("short") is not None
    time.sleep(0.45)
    assert cache.get("short") is None
    assert cache.get("long") is not None


def test_clear_removes_every_answer(cache: AnswerCache) -> None:
    for i in range(3):
        cache.put(f"k{i}", "{}", corpus_version="g1", ttl_s=60)
    assert cache.clear() == 3
    assert all(cache.get(f"k{i}") is None for i in range(3))
    assert cache.clear() == 0


def test_the_key_separates_everything_that_changes_an_answer(tmp_path: Path) -> None:
    settings = load_settings(store=tmp_path / "s.db")
    base = {
        "corpus_version": "g1",
        "settings": settings,
        "k": 8,
        "filters": SearchFilters(access_groups=("hr",)),
        "model_id": "extractive",
    }
    key = answer_key("How long is leave?", **base)  # type: ignore[arg-type]
    assert len(key) == 64 and int(key, 16) >= 0
    assert answer_key("  how LONG is\n leave? ", **base) == key  # type: ignore[arg-type]
    changed = [
        {"corpus_version": "g2"},
        {"k": 9},
        {"model_id": "openai:gpt-4o-mini"},
        {"filters": SearchFilters(access_groups=("eng",))},
        {"filters": SearchFilters(access_groups=None)},
        {"filters": SearchFilters(access_groups=("hr",), corpora=("hr",))},
        {"settings": settings.model_copy(update={"gate": settings.gate.model_copy(
            update={"policy": "strict"})})},
    ]  # fmt: skip
    keys = {answer_key("How long is leave?", **{**base, **change}) for change in changed}  # type: ignore[arg-type]
    assert key not in keys and len(keys) == len(changed)
    assert normalised_question(" A\tB ") == "a b"
    assert access_scope(("b", "a")) == access_scope(("a", "b", "a")) != access_scope(None)


def test_an_upgrade_never_serves_the_previous_versions_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = {
        "corpus_version": "g1",
        "settings": load_settings(store=tmp_path / "s.db"),
        "k": 8,
        "filters": SearchFilters(),
        "model_id": "extractive",
    }
    before = answer_key("How long is leave?", **base)  # type: ignore[arg-type]
    monkeypatch.setattr("ragcite.index.cache.__version__", "99.0.0")
    assert answer_key("How long is leave?", **base) != before  # type: ignore[arg-type]


def test_a_down_redis_never_fails_an_ask() -> None:
    down = RedisAnswerCache("redis://127.0.0.1:1/0", namespace="test")
    with pytest.raises(StoreError, match=r"127\.0\.0\.1:1/0"):
        down.get("k")
    resilient = ResilientAnswerCache(down, pause_s=60)
    started = time.monotonic()
    assert resilient.get("k") is None
    resilient.put("k", "{}", corpus_version="g1", ttl_s=60)  # paused: not even tried
    assert resilient.get("k") is None
    assert time.monotonic() - started < 2


def test_a_bad_cache_url_is_refused(tmp_path: Path) -> None:
    from ragcite.compose import make_answer_cache

    settings = load_settings(store=tmp_path / "s.db", overrides={"cache.url": "memcached://x"})
    store = open_sqlite_store(parse_store_url(str(tmp_path / "s.db")), dimension=DIMENSION)
    with pytest.raises(ConfigError, match="only Redis"):
        make_answer_cache(settings, store)
    store.close()


def test_without_the_redis_client_the_error_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # as if the package were not installed
    with pytest.raises(ConfigError, match=r"pip install 'ragcite\[redis\]'"):
        RedisAnswerCache("redis://127.0.0.1:6379/0", namespace="test")


def test_a_store_from_before_the_cache_migrates(tmp_path: Path) -> None:
    import sqlite3

    from ragcite.index.migrations import MIGRATIONS

    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    for name, sql in MIGRATIONS[:2]:  # m001 (with its never-used cache table) and m002
        db.executescript(sql)
        db.execute("INSERT INTO migrations VALUES (?, '2026-01-01')", (name,))
    db.close()
    store = open_sqlite_store(parse_store_url(str(path)), dimension=DIMENSION)
    store.answer_cache.put("k", "{}", corpus_version=store.corpus_version(), ttl_s=60)
    assert store.answer_cache.get("k") is not None
    store.close()
    names = [r[0] for r in sqlite3.connect(path).execute("SELECT name FROM migrations")]
    assert "m010_answer_cache" in names
