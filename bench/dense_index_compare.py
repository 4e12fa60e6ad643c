"""The dense index kinds side by side over one store's vectors, run by hand (never in the
test suite): HNSW (used before), IVF over float16 (tried), the PQ scan (used now).

    python bench/dense_index_compare.py /work/scale/scale-100000-r3000.db

Each kind is built in its own fresh process from the stored vectors (read a page at a
time, as the store builds it): build seconds, peak RSS of that process (the MiniLM
embedder included, the same in both), search p50 over real questions (HaluEval, embedded
with MiniLM; k = 30, what hybrid retrieval asks; one thread), recall@10 against exact
search (NumPy over every stored vector). HNSW is the code before: faiss IndexHNSWSQ,
float16, M 32, efConstruction 80, efSearch 384, built on 2 threads. IVF: faiss
IndexIVFScalarQuantizer, float16, 2 sqrt(n) lists trained on 40 vectors each, recall and
p50 for each probe count of `--probes`. PQ: `VectorIndex` as the store builds it
(pq_scan.py), recall and p50 also for each re-rank depth of `--rerank`. Results are
written to docs/bench/dense_index.json.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import faiss
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import questions
from ingest_ask import machine
from recall import Search, recall_at_10

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.index import pq_scan
from ragcite.index.dense_changes import sample_vectors, store_state, vector_pages
from ragcite.index.sqlite_db import SQLiteDatabase
from ragcite.index.vector_index import VectorIndex

DEPTH = 30
RESULTS = Path(__file__).resolve().parents[1] / "docs" / "bench" / "dense_index.json"


def hnsw_search(db: SQLiteDatabase, dimension: int) -> Search:
    """The HNSW index of the code before IVF, built from the store's vectors."""
    index = faiss.IndexHNSWSQ(
        dimension, faiss.ScalarQuantizer.QT_fp16, 32, faiss.METRIC_INNER_PRODUCT
    )
    index.hnsw.efConstruction = 80
    index.hnsw.efSearch = 384
    index.is_trained = True
    ids: list[np.ndarray] = []
    faiss.omp_set_num_threads(2)
    for rowids, vectors in vector_pages(db, 0, dimension):
        index.add(np.ascontiguousarray(vectors))
        ids.append(rowids)
    faiss.omp_set_num_threads(1)
    rowids_of = np.concatenate(ids)

    def search(query: np.ndarray, k: int) -> list[tuple[int, float]]:
        scores, positions = index.search(query.reshape(1, -1), k)
        pairs = zip(positions[0], scores[0], strict=True)
        return [(int(rowids_of[p]), float(s)) for p, s in pairs if p >= 0]

    return search


class IVFSearch:
    """faiss IVF over float16 vectors, 2 sqrt(n) lists, `nprobe` of them searched."""

    def __init__(self, db: SQLiteDatabase, count: int, dimension: int) -> None:
        lists = round(2 * count**0.5)
        self.index = faiss.IndexIVFScalarQuantizer(
            faiss.IndexFlatIP(dimension),
            dimension,
            lists,
            faiss.ScalarQuantizer.QT_fp16,
            faiss.METRIC_INNER_PRODUCT,
            False,
        )
        faiss.omp_set_num_threads(2)
        self.index.train(sample_vectors(db, store_state(db), 40 * lists))
        self.rowids = []
        for rowids, vectors in vector_pages(db, 0, dimension):
            self.index.add(np.ascontiguousarray(vectors))
            self.rowids.append(rowids)
        faiss.omp_set_num_threads(1)
        self.rowids_of = np.concatenate(self.rowids)
        self.nprobe = 32

    def __call__(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        params = faiss.SearchParametersIVF(nprobe=self.nprobe)
        scores, positions = self.index.search(query.reshape(1, -1), k, params=params)
        pairs = zip(positions[0], scores[0], strict=True)
        return [(int(self.rowids_of[p]), float(s)) for p, s in pairs if p >= 0]


def child(path: Path, kind: str, count: int, sweep: list[int]) -> dict[str, Any]:
    """Build `kind` over the store at `path` and measure it (in a fresh process)."""
    db = SQLiteDatabase(path)
    store = store_state(db)
    queries = MiniLMEmbedder(threads=1).embed(questions(count))
    started = time.perf_counter()
    search: Search
    if kind == "hnsw":
        search = hnsw_search(db, store.dimension)
    elif kind == "ivf":
        search = ivf = IVFSearch(db, store.count, store.dimension)
    else:
        training = sample_vectors(db, store, pq_scan.training_size(store.count))
        pages = vector_pages(db, 0, store.dimension)
        search = VectorIndex.from_pages(store.dimension, store.count, pages, training).search
    row: dict[str, Any] = {"kind": kind, "vectors": store.count}
    row["build_s"] = round(time.perf_counter() - started, 1)
    row["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    if kind == "pq":
        row |= {"rerank": pq_scan.RERANK} | measured(queries, db, store.dimension, search)
    row["sweep"] = {}
    for value in sweep if kind != "hnsw" else []:
        if kind == "ivf":
            ivf.nprobe = value
        else:
            pq_scan.RERANK = value
        row["sweep"][str(value)] = measured(queries, db, store.dimension, search)
    if kind == "hnsw":
        row |= measured(queries, db, store.dimension, search)
    return row


def measured(
    queries: np.ndarray, db: SQLiteDatabase, dimension: int, search: Search
) -> dict[str, float]:
    times = []
    for _ in range(3):
        for query in queries:
            t0 = time.perf_counter()
            search(query, DEPTH)
            times.append((time.perf_counter() - t0) * 1000)
    recall = recall_at_10(queries, vector_pages(db, 0, dimension), search)
    return {"p50_search_ms": round(statistics.median(times), 2), "recall_at_10": round(recall, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    kinds = ["hnsw", "ivf", "pq"]
    parser.add_argument("--kinds", nargs="+", default=kinds, choices=kinds)
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--probes", type=int, nargs="*", default=[32, 128, 320])
    parser.add_argument("--rerank", type=int, nargs="*", default=[100, 300])
    parser.add_argument("--child", choices=kinds, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sweep = args.probes if args.child == "ivf" else args.rerank
        print(json.dumps(child(args.store, args.child, args.questions, sweep)))
        return
    print(f"[machine] {machine()}", flush=True)
    results: dict[str, Any] = {"machine": machine(), "store": args.store.name}
    for kind in args.kinds:
        command = [sys.executable, __file__, str(args.store), "--child", kind]
        command += ["--questions", str(args.questions)]
        command += ["--probes", *map(str, args.probes), "--rerank", *map(str, args.rerank)]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"measuring {kind} failed:\n{done.stderr[-3000:]}")
        print(done.stdout.strip().splitlines()[-1], flush=True)
        results[kind] = json.loads(done.stdout.strip().splitlines()[-1])
    results["machine_after"] = machine()
    print(f"[machine after] {results['machine_after']}")
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
