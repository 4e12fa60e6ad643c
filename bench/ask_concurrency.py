"""Questions answered per second by one process with 1 and 2 asking threads, run by hand.

    python bench/ask_concurrency.py STORE.db [--repeats 4 --rounds 3]

The demo questions (`eval/demo.jsonl`), each asked `--repeats` times with a different
spacing of its words (so no answer comes from the cache, which is off, and each question is
embedded anew), split over the threads, as a server's worker threads would ask them. Prints
the medians of `--rounds` runs: asks per second (wall) and CPU ms per ask. Run it with
`PYTHONPATH=<other checkout>/src` to compare versions; the peer is one asking thread.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ingest_ask import ROOT, machine

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite


def questions(repeats: int) -> list[str]:
    lines = (ROOT / "eval" / "demo.jsonl").read_text(encoding="utf-8").splitlines()
    asked = [json.loads(line)["query"] for line in lines if line.strip()]
    return [q.replace(" ", " " * (1 + r), 1) for r in range(repeats) for q in asked]


def run(rag: Ragcite, asked: list[str], threads: int) -> tuple[float, float]:
    """Asks per second and CPU ms per ask with `threads` threads sharing `asked`."""

    def work(part: list[str]) -> None:
        for question in part:
            rag.ask(question)

    workers = [threading.Thread(target=work, args=(asked[i::threads],)) for i in range(threads)]
    started, cpu_started = time.perf_counter(), time.process_time()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return len(asked) / wall, cpu * 1e3 / len(asked)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"[machine] {machine()}")
    settings = load_settings(store_path=args.store, overrides={"cache.enabled": False})
    rag = Ragcite.open(settings)
    asked = questions(args.repeats)
    for question in asked[:5]:
        rag.ask(question)  # models loaded
    results: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    for _ in range(args.rounds):
        for threads in results:
            if hasattr(rag.embedder, "clear"):
                rag.embedder.clear()  # every question embedded anew
            results[threads].append(run(rag, asked, threads))
    out = {}
    for threads, runs in results.items():
        out[f"threads_{threads}_asks_per_s"] = round(statistics.median(r[0] for r in runs), 1)
        out[f"threads_{threads}_cpu_ms_per_ask"] = round(statistics.median(r[1] for r in runs), 2)
    out["ratio_2_threads_vs_1"] = round(
        out["threads_2_asks_per_s"] / out["threads_1_asks_per_s"], 2
    )
    print(f"[ask, {len(asked)} questions] {json.dumps(out)}")
    rag.close()


if __name__ == "__main__":
    main()
