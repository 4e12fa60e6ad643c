"""Does asking two corpora cost less than twice asking one? Run by hand:

    python bench/multi_corpus.py          # after bench/store_compare.py (reuses its vectors)

The 10k real-text chunks of bench/store_compare.py, split into two corpora of 5k ("a",
"b"), in each store. For the same questions, `Ragcite.search` (embed, retrieve,
rerank: what multi-corpus retrieval changes) and `Ragcite.ask`, each from cold (the
embedder's cache cleared: a new question, chunks not embedded yet), over:
- one corpus (`--corpus a`),
- two corpora (`--corpus a --corpus b`): one retrieval per corpus in a thread pool,
- the same two corpora one after the other (two searches in a row): what the fan-out
  saves over doing it naively.
Medians over the questions of the whole call and of its retrieve and rerank stages, with
the ratios two / one (one: the mean of corpus a alone and corpus b alone).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from store_compare import corpus_versions, embedded_once, passages, postgres_location, questions

from ragcite.config import load_settings
from ragcite.index.store import NewVersion
from ragcite.pipeline import Ragcite


def in_corpus(version: NewVersion, corpus: str) -> NewVersion:
    return replace(
        version,
        document=version.document.model_copy(update={"corpus": corpus}),
        chunks=[c.model_copy(update={"corpus": corpus}) for c in version.chunks],
    )


def cold_medians(rag: Ragcite, call: Any, items: list[str]) -> dict[str, float]:
    """Median ms of `call` per item, and of the stage timings it returns, each run from
    cold (no query or chunk vector cached)."""
    totals: list[float] = []
    stages: dict[str, list[float]] = {}
    for item in items:
        rag.embedder.clear()  # type: ignore[attr-defined]
        started = time.perf_counter()
        timings = call(item)
        totals.append((time.perf_counter() - started) * 1000)
        for stage, ms in timings.items():
            stages.setdefault(stage, []).append(ms)
    out = {"total": statistics.median(totals)}
    out |= {stage: statistics.median(values) for stage, values in stages.items()}
    return {k: round(v, 1) for k, v in out.items() if k in ("total", "retrieve", "rerank")}


def measure(rag: Ragcite, asked: list[str], asks: int) -> dict[str, Any]:
    only_a, only_b = rag.filters(corpora=("a",)), rag.filters(corpora=("b",))
    both = rag.filters(corpora=("a", "b"))
    rag.ask(asked[-1], filters=both)  # load the reranker and the gate

    def search(filters: Any) -> Any:
        return lambda q: rag.search(q, filters=filters)[1]

    def in_a_row(q: str) -> dict[str, float]:
        first, second = search(only_a)(q), search(only_b)(q)
        return {k: first[k] + second[k] for k in ("retrieve", "rerank")}

    out: dict[str, Any] = {
        "search_a": cold_medians(rag, search(only_a), asked),
        "search_b": cold_medians(rag, search(only_b), asked),
        "search_a_and_b_fanned_out": cold_medians(rag, search(both), asked),
        "search_a_then_b": cold_medians(rag, in_a_row, asked),
        "ask_a": cold_medians(rag, lambda q: rag.ask(q, filters=only_a).timings_ms, asked[:asks]),
        "ask_a_and_b": cold_medians(
            rag, lambda q: rag.ask(q, filters=both).timings_ms, asked[:asks]
        ),
    }
    one = (out["search_a"]["total"] + out["search_b"]["total"]) / 2
    out["search_two_over_one"] = round(out["search_a_and_b_fanned_out"]["total"] / one, 2)
    one_retrieve = (out["search_a"]["retrieve"] + out["search_b"]["retrieve"]) / 2
    two_retrieve = out["search_a_and_b_fanned_out"]["retrieve"]
    out["retrieve_stage_two_over_one"] = round(two_retrieve / one_retrieve, 2)
    out["ask_two_over_one"] = round(out["ask_a_and_b"]["total"] / out["ask_a"]["total"], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passages", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--asks", type=int, default=10)
    parser.add_argument("--postgres", help="an empty PostgreSQL database URL (default: start one)")
    args = parser.parse_args()
    texts = passages(args.passages)
    versions = corpus_versions(texts, embedded_once(texts))
    half = len(versions) // 2
    split = [in_corpus(v, "a") for v in versions[:half]]
    split += [in_corpus(v, "b") for v in versions[half:]]
    asked = questions(args.queries)
    results: dict[str, Any] = {"chunks": len(texts)}
    with tempfile.TemporaryDirectory() as tmp, postgres_location(args.postgres) as new_pg:
        for kind, location in (("sqlite", str(Path(tmp) / "two.db")), ("postgres", new_pg())):
            rag = Ragcite.open(load_settings(store=location))
            for version in split:
                rag.store.add_version(version)
            results[kind] = measure(rag, asked, args.asks)
            rag.close()
            print(kind, results[kind], flush=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
