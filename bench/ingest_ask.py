"""Ingest throughput and ask latency, run by hand (never in the test suite).

    python bench/ingest_ask.py                 # demo corpus + synthetic 10k-chunk corpus
    python bench/ingest_ask.py --synthetic 0   # demo corpus only

Reports medians, with the named peer side by side:
- ingest: ragcite's end-to-end ingest (parse, chunk, embed, one transaction per version)
  vs the peer "embedder alone" (the same chunk texts through MiniLM int8, no parsing or
  storage): the ratio is the pipeline's overhead over its unavoidable cost.
- ask: ragcite ask (retrieve → rerank → generate → gate → score) per stage vs the peer
  "retrieve only" (hybrid dense + BM25, what a plain RAG retriever costs), and the gate's
  claims per second as it runs inside `ask` (all its layers, no vector cached).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from ragcite.compose import store_file
from ragcite.config import load_settings
from ragcite.pipeline import Ragcite

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


def bench_ingest(rag: Ragcite, folder: Path, label: str) -> dict[str, float]:
    report = rag.ingest([folder])
    assert not report.failed, report.failed
    texts = _all_chunk_texts(rag)
    started = time.perf_counter()
    rag.embedder.inner.embed(texts)  # type: ignore[attr-defined]
    embed_seconds = time.perf_counter() - started
    result = {
        "chunks": report.chunks,
        "ingest_seconds": round(report.seconds, 2),
        "ingest_chunks_per_s": round(report.chunks / report.seconds, 1),
        "peer_embedder_alone_chunks_per_s": round(len(texts) / embed_seconds, 1),
    }
    result["ratio_ingest_vs_embedder"] = round(
        result["ingest_chunks_per_s"] / result["peer_embedder_alone_chunks_per_s"], 2
    )
    print(f"[{label}] {json.dumps(result)}")
    return result


def bench_ask(rag: Ragcite, questions: list[str], repeats: int = 3) -> dict[str, float]:
    rag.ask(questions[0])  # warm the models
    stages: dict[str, list[float]] = {}
    retrieve_only: list[float] = []
    claims_checked = 0
    for _ in range(repeats):
        for question in questions:
            _clear_vector_caches(rag)  # measure cold sentences
            response = rag.ask(question)
            for stage, ms in response.timings_ms.items():
                stages.setdefault(stage, []).append(ms)
            claims_checked += len(response.cited_claims)
            _clear_vector_caches(rag)
            started = time.perf_counter()
            rag.retriever.retrieve(question, rag.settings.retrieve.top_k, rag.filters())
            retrieve_only.append((time.perf_counter() - started) * 1000)
    medians = {f"p50_{k}_ms": round(statistics.median(v), 1) for k, v in stages.items()}
    # The gate inside ask, cold: the claims and evidence sentences it embeds are new to it.
    medians["gate_claims_per_s"] = round(claims_checked / (sum(stages["verify"]) / 1000))
    medians["peer_retrieve_only_p50_ms"] = round(statistics.median(retrieve_only), 1)
    medians["ratio_ask_vs_retrieve_only"] = round(
        medians["p50_total_ms"] / medians["peer_retrieve_only_p50_ms"], 1
    )
    print(f"[ask] {json.dumps(medians)}")
    return medians


def _clear_vector_caches(rag: Ragcite) -> None:
    """Forget every cached vector: the embedder's and the support checker's own."""
    rag.embedder._cache.clear()  # type: ignore[attr-defined]
    semantic = getattr(rag.support_checker, "semantic", None)
    if semantic is not None:
        semantic._cache.clear()


def _all_chunk_texts(rag: Ragcite) -> list[str]:
    path = store_file(rag.settings)
    assert path is not None, "the benchmark reads a SQLite store"
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT chunk_text FROM chunks")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=int, default=10_000, help="chunks (0 to skip)")
    args = parser.parse_args()
    questions = [
        json.loads(line)["query"]
        for line in (ROOT / "eval" / "demo.jsonl").read_text().splitlines()
        if line.strip() and json.loads(line)["answerable"]
    ]
    with tempfile.TemporaryDirectory() as tmp:
        rag = Ragcite.open(load_settings(store_path=Path(tmp) / "demo.db"))
        rag.embedder.embed(["warm up"])
        bench_ingest(rag, ROOT / "demo", "ingest demo")
        bench_ask(rag, questions)
        rag.close()
        if args.synthetic:
            folder = Path(tmp) / "synthetic"
            folder.mkdir()
            synthetic_corpus(folder, args.synthetic)
            big = Ragcite.open(load_settings(store_path=Path(tmp) / "synthetic.db"))
            big.embedder.embed(["warm up"])
            bench_ingest(big, folder, f"ingest synthetic {args.synthetic}")
            big.close()


if __name__ == "__main__":
    main()
