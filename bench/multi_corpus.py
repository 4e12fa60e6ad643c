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
Medians over the questions, with the ratio two / one.
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


def median_ms(rag: Ragcite, call: Any, items: list[str]) -> float:
    """Median ms of `call` per item, each from cold: no query or chunk vector cached."""
    samples = []
    for item in items:
        forget = getattr(rag.embedder, "clear", None)
        if forget is not None:
            forget()
        started = time.perf_counter()
        call(item)
        samples.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(samples), 1)


def measure(rag: Ragcite, asked: list[str], asks: int) -> dict[str, float]:
    one, two = rag.filters(corpora=("a",)), rag.filters(corpora=("a", "b"))
    b_only = rag.filters(corpora=("b",))
    rag.search(asked[-1], filters=two)  # load the reranker
    rag.ask(asked[-1], filters=two)
    out = {
        "search_one_ms": median_ms(rag, lambda q: rag.search(q, filters=one), asked),
        "search_two_ms": median_ms(rag, lambda q: rag.search(q, filters=two), asked),
        "search_two_in_a_row_ms": median_ms(
            rag, lambda q: (rag.search(q, filters=one), rag.search(q, filters=b_only)), asked
        ),
        "ask_one_ms": median_ms(rag, lambda q: rag.ask(q, filters=one), asked[:asks]),
        "ask_two_ms": median_ms(rag, lambda q: rag.ask(q, filters=two), asked[:asks]),
    }
    out["search_two_over_one"] = round(out["search_two_ms"] / out["search_one_ms"], 2)
    out["ask_two_over_one"] = round(out["ask_two_ms"] / out["ask_one_ms"], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passages", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--asks", type=int, default=20)
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
