"""A store growing one document at a time: ingest one, then the next ask (run by hand).

    python bench/scale.py --sizes 100000 --keep /tmp/scale        # build the store once
    python bench/growth.py --store /tmp/scale/scale-100000-r3000.db \\
        --variant before=/path/to/main/src --variant after=src --docs 3

Each variant (a label and the `src` folder whose ragcite it runs) gets its own copy of
the store and of its saved dense index, then one fresh process: open the store and ask
once (loads the saved index), then `--docs` times: ingest one new document (8 real
passages from bench/corpora.py that the store does not hold, embedded for real) and ask
the next question; that ask is the one that must bring the dense index up to the new
rows (a full rebuild on main, a catch-up now). A second fresh process then reopens the
grown store and asks once (the saved index loaded and caught up, or rebuilt). With
`--erase N`, the first process then erases N of the store's documents (1,000 chunks each:
masked now, a rebuild on main), asks again and measures the dense index's recall@10
against exact search over the rows left. Prints the medians per variant and the ratio
before / after; results go to stdout only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import questions, real_passages
from ingest_ask import clear_vector_caches, machine
from recall import recall_at_10

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite

PASSAGES_PER_DOCUMENT = 8
STORE_REAL = 3000
"""Real passages a scale.py store may hold: new documents are drawn after them."""


def grow(path: Path, docs: int, erase: int, folder: Path) -> dict[str, Any]:
    """In the measuring process: the first ask, then `docs` rounds of ingest + next ask,
    then (with `erase`) erasing that many of the store's documents and the next ask, and
    the dense index's recall@10 against exact search over the rows left."""
    rag = Ragcite.open(load_settings(store=path, overrides={"cache.enabled": False}))
    asked = questions(docs + 21)
    started = time.perf_counter()
    rag.ask(asked[0])
    first_ask = time.perf_counter() - started
    fresh = real_passages(STORE_REAL + docs * PASSAGES_PER_DOCUMENT)[STORE_REAL:]
    ingest_s, next_ask_s = [], []
    for d in range(docs):
        text = fresh[d * PASSAGES_PER_DOCUMENT : (d + 1) * PASSAGES_PER_DOCUMENT]
        document = folder / f"growth-{d}.md"
        document.write_text(f"# Growth document {d}\n\n" + "\n\n".join(text), encoding="utf-8")
        clear_vector_caches(rag)
        t0 = time.perf_counter()
        rag.ingest([document])
        t1 = time.perf_counter()
        rag.ask(asked[d + 1])
        t2 = time.perf_counter()
        ingest_s.append(t1 - t0)
        next_ask_s.append(t2 - t1)
    result: dict[str, Any] = {}
    steady = []
    for question in asked[docs + 1 : docs + 6]:
        clear_vector_caches(rag)
        t0 = time.perf_counter()
        rag.ask(question)
        steady.append((time.perf_counter() - t0) * 1000)
    if erase:
        result |= erase_and_recall(rag, erase, asked)
    dense = rag.store._dense  # type: ignore[attr-defined]
    rounds = [i + a for i, a in zip(ingest_s, next_ask_s, strict=True)]
    result |= {
        "first_ask_s": round(first_ask, 2),
        "ingest_s": [round(s, 2) for s in ingest_s],
        "next_ask_s": [round(s, 2) for s in next_ask_s],
        "p50_ingest_then_ask_s": round(statistics.median(rounds), 2),
        "p50_next_ask_s": round(statistics.median(next_ask_s), 2),
        "p50_ask_unchanged_ms": round(statistics.median(steady), 1),
        "dense_builds": getattr(dense, "builds", None),
        "dense_index": "exact" if dense._index.exact else "pq-scan",
    }
    rag.close()
    return result


def erase_and_recall(rag: Ragcite, erase: int, asked: list[str]) -> dict[str, Any]:
    """Erase `erase` of bench/scale.py's documents (`doc-1`, `doc-2`, ...: 1,000 chunks
    each; `doc-0` holds the passages the questions are about), ask once, then recall@10
    of the dense index against exact search (NumPy over every row left)."""
    started = time.perf_counter()
    for number in range(1, erase + 1):
        rag.store.erase_document(f"doc-{number}", erased_by="bench")
    erased = time.perf_counter()
    rag.ask(asked[-1])
    asked_after = time.perf_counter()
    queries = rag.embedder.inner.embed(asked)  # type: ignore[attr-defined]
    index = rag.store._dense._index  # type: ignore[attr-defined]
    with sqlite3.connect(rag.store.path) as db:  # type: ignore[attr-defined]
        rows = db.execute("SELECT rowid, vector FROM chunks ORDER BY rowid").fetchall()
    dimension = len(rows[0][1]) // 4
    pages = (
        (
            np.array([r[0] for r in rows[at : at + 20_000]], dtype=np.int64),
            np.frombuffer(b"".join(r[1] for r in rows[at : at + 20_000]), dtype=np.float32).reshape(
                -1, dimension
            ),
        )
        for at in range(0, len(rows), 20_000)
    )
    recall = recall_at_10(queries, pages, index.search)
    return {
        "erased_chunks": erase * 1000,
        "erase_s": round(erased - started, 2),
        "ask_after_erase_s": round(asked_after - erased, 2),
        "recall_at_10_after": round(recall, 3),
        "dead_share": round(float(getattr(index, "dead_share", lambda: 0.0)()), 3),
    }


def reopen(path: Path) -> dict[str, Any]:
    """In a second measuring process: open the grown store and ask once."""
    rag = Ragcite.open(load_settings(store=path, overrides={"cache.enabled": False}))
    started = time.perf_counter()
    rag.ask(questions(1)[0])
    seconds = time.perf_counter() - started
    builds = getattr(rag.store._dense, "builds", None)  # type: ignore[attr-defined]
    rag.close()
    return {"reopen_first_ask_s": round(seconds, 2), "reopen_dense_builds": builds}


def run_variant(store: Path, label: str, src: Path, docs: int, erase: int) -> dict[str, Any]:
    """Copy the store and its index files, then measure `src`'s ragcite on the copy."""
    folder = Path(tempfile.mkdtemp(prefix=f"growth-{label}-", dir=store.parent))
    try:
        for file in store.parent.glob(f"{store.name}*"):
            if file.is_file() and not file.name.endswith(".built.json"):
                shutil.copy2(file, folder / file.name)
        copy = folder / store.name
        env = os.environ | {"PYTHONPATH": str(src.resolve())}
        row: dict[str, Any] = {"variant": label, "src": str(src)}
        grown = ["--grow", str(copy), "--docs", str(docs), "--erase", str(erase)]
        for mode in (grown, ["--reopen", str(copy)]):
            child = subprocess.run(
                [sys.executable, __file__, *mode], capture_output=True, text=True, env=env
            )
            if child.returncode:
                raise SystemExit(f"{label} {mode[0]} failed:\n{child.stderr[-3000:]}")
            row |= json.loads(child.stdout.strip().splitlines()[-1])
        return row
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, help="a store built by bench/scale.py --keep")
    parser.add_argument(
        "--variant", action="append", default=[], help="LABEL=SRC: ragcite from SRC"
    )
    parser.add_argument("--docs", type=int, default=3)
    parser.add_argument("--erase", type=int, default=0, help="documents of 1,000 chunks")
    parser.add_argument("--grow", type=Path, help=argparse.SUPPRESS)  # the child processes
    parser.add_argument("--reopen", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.grow or args.reopen:
        with tempfile.TemporaryDirectory() as tmp:
            found = (
                grow(args.grow, args.docs, args.erase, Path(tmp))
                if args.grow
                else reopen(args.reopen)
            )
        print(json.dumps(found))
        return
    if args.store is None or not args.variant:
        parser.error("give --store and at least one --variant LABEL=SRC")
    print(f"[machine] {machine()}", flush=True)
    rows = []
    for variant in args.variant:
        label, _, src = variant.partition("=")
        rows.append(run_variant(args.store, label, Path(src or "src"), args.docs, args.erase))
        print(f"[{label}] {json.dumps(rows[-1])}", flush=True)
    print(f"[machine] {machine()}")
    if len(rows) == 2:
        ratio = rows[0]["p50_ingest_then_ask_s"] / rows[1]["p50_ingest_then_ask_s"]
        print(
            f"[ratio] ingest one document + next ask, {rows[0]['variant']} / "
            f"{rows[1]['variant']}: {ratio:.1f}x"
        )


if __name__ == "__main__":
    main()
