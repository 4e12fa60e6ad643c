"""How far the embedded store's exact dense search goes. Run by hand:

    python bench/embedded_limits.py                  # 100k and 1M vectors
    python bench/embedded_limits.py --sizes 100000 300000

For each size, random unit 384-d float32 vectors (MiniLM's width) in a faiss
`IndexFlatIP`, the exact index the embedded store searches: the vectors' RAM, the time
to build the index from a matrix (what a rebuild after a write costs, without reading
the rows from SQLite), and one-query top-30 search time (median and p95 of 50 queries),
on every core and on one. Exact search time grows linearly with the vectors, whatever
they hold, so random vectors measure it as well as real ones. Above 300k vectors the
store switches to faiss HNSW (M = 32, efSearch = 128): its build time is measured at
`--hnsw` vectors (the build is the cost of a rebuild after another process writes).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import faiss
import numpy as np

DIMENSION = 384


def unit_vectors(n: int, rng: np.random.Generator) -> np.ndarray:
    out = np.empty((n, DIMENSION), dtype=np.float32)
    for start in range(0, n, 100_000):  # in slices, to keep the peak memory down
        block = rng.standard_normal((min(100_000, n - start), DIMENSION), dtype=np.float32)
        out[start : start + len(block)] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


def search_ms(index: faiss.Index, queries: np.ndarray) -> tuple[float, float]:
    samples = []
    for query in queries:
        started = time.perf_counter()
        index.search(query.reshape(1, -1), 30)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return round(statistics.median(samples), 2), round(samples[int(0.95 * len(samples))], 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--hnsw", type=int, default=100_000, help="HNSW build size (0: skip)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    queries = unit_vectors(50, rng)
    threads = faiss.omp_get_max_threads()
    results = {}
    for n in args.sizes:
        vectors = unit_vectors(n, rng)
        started = time.perf_counter()
        index = faiss.IndexFlatIP(DIMENSION)
        index.add(vectors)
        built = time.perf_counter() - started
        row = {"vectors_mib": round(vectors.nbytes / 2**20), "build_s": round(built, 2)}
        row["search_ms_p50"], row["search_ms_p95"] = search_ms(index, queries)
        faiss.omp_set_num_threads(1)
        row["one_core_search_ms_p50"], row["one_core_search_ms_p95"] = search_ms(index, queries)
        faiss.omp_set_num_threads(threads)
        results[n] = row
        print(n, row, flush=True)
        del index, vectors
    hnsw = hnsw_row(args.hnsw, rng, queries) if args.hnsw else None
    print(json.dumps({"cores": threads, "exact": results, "hnsw": hnsw}, indent=2))


def hnsw_row(n: int, rng: np.random.Generator, queries: np.ndarray) -> dict[str, float]:
    vectors = unit_vectors(n, rng)
    started = time.perf_counter()
    index = faiss.IndexHNSWFlat(DIMENSION, 32, faiss.METRIC_INNER_PRODUCT)
    index.add(vectors)
    row = {"vectors": n, "build_s": round(time.perf_counter() - started, 1)}
    index.hnsw.efSearch = 128
    row["search_ms_p50"], row["search_ms_p95"] = search_ms(index, queries)
    return row


if __name__ == "__main__":
    main()
