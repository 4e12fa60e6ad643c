"""Ingest throughput and ask latency, run by hand (never in the test suite).

    python bench/ingest_ask.py                 # demo corpus + synthetic 10k-chunk corpus
    python bench/ingest_ask.py --synthetic 0   # demo corpus only
    python bench/ingest_ask.py --synthetic 0 --stored-only   # ask on stored vectors only
    python bench/ingest_ask.py --pooling separate heading --rounds 3   # demo ingest only

Reports medians, with the named peer side by side:
- ingest: ragcite's end-to-end ingest (parse, chunk, embed chunks and their sentences, one
  transaction per version) vs the peer "embedder alone" (the same texts through MiniLM
  int8, no parsing or storage): the ratio is the pipeline's overhead over its unavoidable
  cost. Run with and without stored sentence vectors: the extra ingest cost and store size.
- ask: ragcite ask (retrieve → rerank → generate → gate → score; answer cache off, no vector
  cached) on a store with sentence vectors and on one without (computed at ask time, as an
  older store does), interleaved, vs the peer "unavoidable": one query embedding + one
  dense lookup + one keyword lookup, timed in the same loop.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ragcite.compose import store_file
from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from ragcite.text.sentence_forms import (
    chunk_sentence_forms,
    sentences_with_forms,
    table_cell_forms,
)

ROOT = Path(__file__).resolve().parents[1]

TOPICS = [
    "leave",
    "expenses",
    "security",
    "retention",
    "travel",
    "returns",
    "payroll",
    "privacy",
    "onboarding",
    "equipment",
    "training",
    "benefits",
    "audit",
    "contracts",
    "vendors",
]
VERBS = [
    "must be approved by",
    "is reviewed by",
    "is kept for",
    "is reported to",
    "applies to",
    "is limited to",
    "requires",
    "is paid within",
    "is stored in",
    "is deleted after",
]
OBJECTS = [
    "the line manager",
    "30 days",
    "the finance team",
    "three years",
    "all employees",
    "two business days",
    "the data protection officer",
    "an encrypted drive",
    "the security team",
    "12 months",
    "the regional director",
    "EUR 5,000",
]


def synthetic_corpus(folder: Path, chunks: int, seed: int = 7) -> None:
    """Markdown policies whose sections each make about one 800-character chunk."""
    rng = random.Random(seed)
    sections_per_doc = 20
    for d in range(chunks // sections_per_doc):
        lines = [f"# Policy {d}: {rng.choice(TOPICS).title()}", ""]
        for s in range(sections_per_doc):
            lines += [f"## Section {s} on {rng.choice(TOPICS)}", ""]
            sentences = [
                f"{rng.choice(TOPICS).title()} item {rng.randint(1, 999)} {rng.choice(VERBS)} "
                f"{rng.choice(OBJECTS)} unless rule {rng.randint(1, 99)} says otherwise."
                for _ in range(9)
            ]
            lines += [" ".join(sentences), ""]
        (folder / f"policy-{d:04d}.md").write_text("\n".join(lines), encoding="utf-8")


def open_rag(path: Path, *, sentence_vectors: bool = True, pooling: str | None = None) -> Ragcite:
    """A collection with the answer cache off: every ask does the full work."""
    overrides: dict[str, object] = {
        "cache.enabled": False,
        "ingest.sentence_vectors": sentence_vectors,
    }
    if pooling is not None:
        overrides["ingest.sentence_pooling"] = pooling
    rag = Ragcite.open(load_settings(store=path, overrides=overrides))
    rag.embedder.embed(["warm up"])
    return rag


def bench_ingest(rag: Ragcite, folder: Path, label: str) -> dict[str, float]:
    """Ingest, then the peer "embedder alone" on the same texts ingest embedded."""
    rag.embedder.clear()  # type: ignore[attr-defined]
    started_cpu = time.process_time()
    report = rag.ingest([folder])
    ingest_cpu = time.process_time() - started_cpu
    assert not report.failed, report.failed
    texts = _embedded_texts(rag)
    embed = rag.embedder.inner.embed  # type: ignore[attr-defined]
    embed_seconds, embed_cpu = _timed(lambda: embed(texts))
    chunks_seconds, chunks_cpu = _timed(lambda: embed(texts[: report.chunks]))  # come first
    path = store_file(rag.settings)
    assert path is not None
    result = {
        "chunks": report.chunks,
        "texts_embedded": len(texts),
        "ingest_seconds": round(report.seconds, 2),
        "ingest_chunks_per_s": round(report.chunks / report.seconds, 1),
        "ingest_texts_per_s": round(len(texts) / report.seconds, 1),
        "peer_embedder_alone_texts_per_s": round(len(texts) / embed_seconds, 1),
        # The file and its write-ahead log: the store is still open.
        "store_kib_per_chunk": round(
            sum(f.stat().st_size for f in path.parent.glob(f"{path.name}*")) / 1024 / report.chunks,
            2,
        ),
        "sentence_vectors_kib_per_chunk": round(_sentence_bytes(path) / 1024 / report.chunks, 2),
    }
    result["ratio_ingest_vs_embedder"] = round(
        result["ingest_texts_per_s"] / result["peer_embedder_alone_texts_per_s"], 2
    )
    # Against the model on the chunk texts only: what sentence vectors cost on top.
    result["peer_embedder_alone_chunks_per_s"] = round(report.chunks / chunks_seconds, 1)
    result["ratio_ingest_vs_embedder_chunks"] = round(
        result["ingest_chunks_per_s"] / result["peer_embedder_alone_chunks_per_s"], 2
    )
    # CPU seconds (the process's, all threads): steadier than wall time on a loaded machine.
    result["ingest_cpu_seconds"] = round(ingest_cpu, 2)
    result["peer_embedder_alone_cpu_seconds"] = round(embed_cpu, 2)
    result["peer_embedder_alone_chunks_cpu_seconds"] = round(chunks_cpu, 2)
    result["ratio_cpu_ingest_vs_embedder_chunks"] = round(chunks_cpu / ingest_cpu, 2)
    print(f"[{label}] {json.dumps(result)}")
    return result


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of `work()`."""
    started, started_cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - started, time.process_time() - started_cpu


def compare_pooling(modes: list[str], rounds: int, tmp: Path) -> None:
    """The demo ingest under each `ingest.sentence_pooling`, alternating so load on the
    machine hits all alike, `rounds` times; then each mode's medians."""
    rows: dict[str, list[dict[str, float]]] = {mode: [] for mode in modes}
    for r in range(rounds):
        for mode in modes if r % 2 == 0 else modes[::-1]:
            rag = open_rag(tmp / f"{mode}-{r}.db", pooling=mode)
            rows[mode].append(bench_ingest(rag, ROOT / "demo", f"ingest demo, {mode}, #{r + 1}"))
            rag.close()
    for mode, runs in rows.items():
        medians = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        print(f"[ingest demo, {mode}, median of {rounds}] {json.dumps(medians)}")


def bench_ask(rags: dict[str, Ragcite], questions: list[str], repeats: int = 3) -> dict[str, float]:
    """Each question, cold (no vector cached, answer cache off), on every collection, and
    the peer "unavoidable" on the first: one query embedding + one dense + one keyword
    lookup, timed in the same loop."""
    first = next(iter(rags.values()))
    for rag in rags.values():
        rag.ask(questions[0])  # warm the models
    totals: dict[str, list[float]] = {name: [] for name in rags}
    cpu: dict[str, list[float]] = {name: [] for name in rags}
    stages: dict[str, list[float]] = {}
    unavoidable: list[tuple[float, float]] = []
    for _ in range(repeats):
        for question in questions:
            for name, rag in rags.items():
                clear_vector_caches(rag)  # measure a new question's full cost
                started, started_cpu = time.perf_counter(), time.process_time()
                response = rag.ask(question)
                totals[name].append((time.perf_counter() - started) * 1000)
                cpu[name].append((time.process_time() - started_cpu) * 1000)
                for stage, ms in response.timings_ms.items():
                    stages.setdefault(f"{name}_{stage}", []).append(ms)
            unavoidable.append(unavoidable_ms(first, question))
    medians = {f"p50_ask_{k}_ms": round(statistics.median(v), 1) for k, v in totals.items()}
    medians |= {f"p50_{k}_ms": round(statistics.median(v), 1) for k, v in stages.items()}
    medians["peer_unavoidable_p50_ms"] = round(statistics.median(u[0] for u in unavoidable), 1)
    # CPU time (the process's, all threads): steadier than wall time on a loaded machine.
    medians |= {f"p50_ask_{k}_cpu_ms": round(statistics.median(v), 1) for k, v in cpu.items()}
    medians["peer_unavoidable_p50_cpu_ms"] = round(statistics.median(u[1] for u in unavoidable), 1)
    for name in rags:
        medians[f"ratio_ask_{name}_vs_unavoidable"] = round(
            medians[f"p50_ask_{name}_ms"] / medians["peer_unavoidable_p50_ms"], 2
        )
        medians[f"ratio_cpu_ask_{name}_vs_unavoidable"] = round(
            medians[f"p50_ask_{name}_cpu_ms"] / medians["peer_unavoidable_p50_cpu_ms"], 2
        )
    print(f"[ask] {json.dumps(medians)}")
    return medians


def unavoidable_ms(rag: Ragcite, question: str) -> tuple[float, float]:
    """One query embedding (uncached) + one dense lookup + one keyword lookup: wall and
    CPU time in ms."""
    depth = rag.settings.retrieve.candidates_per_retriever
    filters = rag.filters()
    started, started_cpu = time.perf_counter(), time.process_time()
    vector = rag.embedder.inner.embed([question])[0]  # type: ignore[attr-defined]
    rag.store.dense_search(vector, depth, filters)
    rag.store.keyword_search(question, depth, filters)
    return (time.perf_counter() - started) * 1000, (time.process_time() - started_cpu) * 1000


def clear_vector_caches(rag: Ragcite) -> None:
    """Forget every cached vector: the embedder's and the support checker's own."""
    rag.embedder.clear()  # type: ignore[attr-defined]
    semantic = getattr(rag.support_checker, "semantic", None)
    if semantic is not None:
        semantic._cache.clear()


def _sentence_bytes(path: Path) -> int:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT COALESCE(SUM(LENGTH(sentence_vectors)), 0) FROM chunks").fetchone()
    return int(row[0])


def _embedded_texts(rag: Ragcite) -> list[str]:
    """What ingest embedded: each chunk's text in context, and its sentence forms when the
    collection stores sentence vectors embedded on their own."""
    path = store_file(rag.settings)
    assert path is not None, "the benchmark reads a SQLite store"
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT d.title, c.section_heading, c.chunk_text FROM chunks c JOIN documents d "
            "ON d.document_id = c.document_id AND d.version = c.document_version"
        ).fetchall()
    texts = [f"{t}{f' — {h}' if h else ''}\n{text}" for t, h, text in rows]
    # With "spans" the sentence vectors come out of the chunks' own forward pass, with
    # "heading" each sentence's plain forms out of its heading form's (only a sentence past
    # the token limit is embedded alone: not counted here).
    pooling = rag.settings.ingest.sentence_pooling
    if rag.settings.ingest.sentence_vectors and pooling == "separate":
        forms = (chunk_sentence_forms(text, h) for _, h, text in rows)
        texts += list(dict.fromkeys(f for group in forms for f in group))
    elif rag.settings.ingest.sentence_vectors and pooling == "heading":
        found = (sentences_with_forms(text, h) for _, h, text in rows)
        heading_forms = [f[0] for group in found for _, _, f in group]
        cells = [f for _, h, text in rows for f in table_cell_forms(text, h)]
        texts += list(dict.fromkeys([*heading_forms, *cells]))  # cell forms: embedded whole
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=int, default=10_000, help="chunks (0 to skip)")
    parser.add_argument("--repeats", type=int, default=3, help="times each question is asked")
    parser.add_argument(
        "--stored-only",
        action="store_true",
        help="skip the collection without sentence vectors (its asks take most of the time)",
    )
    parser.add_argument(
        "--pooling",
        nargs="+",
        metavar="MODE",
        help="only compare the demo ingest under these ingest.sentence_pooling values",
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --pooling")
    args = parser.parse_args()
    if args.pooling:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"[machine] {machine()}")
            compare_pooling(args.pooling, args.rounds, Path(tmp))
            print(f"[machine] {machine()}")
        return
    questions = [
        json.loads(line)["query"]
        for line in (ROOT / "eval" / "demo.jsonl").read_text().splitlines()
        if line.strip() and json.loads(line)["answerable"]
    ]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"[machine] {machine()}")
        # Interleaved in one run: sentence vectors stored at ingest, and computed at ask
        # time (an older store, or ingest.sentence_vectors = false).
        stored = open_rag(Path(tmp) / "stored.db")
        rags = {"stored": stored}
        if not args.stored_only:
            rags["on_the_fly"] = open_rag(Path(tmp) / "fly.db", sentence_vectors=False)
            bench_ingest(rags["on_the_fly"], ROOT / "demo", "ingest demo, no sentence vectors")
        bench_ingest(stored, ROOT / "demo", "ingest demo, sentence vectors")
        bench_ask(rags, questions, args.repeats)
        for rag in rags.values():
            rag.close()
        if args.synthetic:
            folder = Path(tmp) / "synthetic"
            folder.mkdir()
            synthetic_corpus(folder, args.synthetic)
            big = open_rag(Path(tmp) / "synthetic.db")
            bench_ingest(big, folder, f"ingest synthetic {args.synthetic}")
            big.close()


def machine() -> str:
    """CPU model, cores and load: absolute times mean little on a shared machine."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{model}, {os.cpu_count()} cores, load average {load:.2f}"


if __name__ == "__main__":
    main()
