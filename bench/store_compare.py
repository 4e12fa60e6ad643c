"""The embedded SQLite store and the PostgreSQL + pgvector store side by side, on the same
10k-chunk corpus, in one run. Run by hand (never in the test suite):

    python bench/store_compare.py                       # a throwaway PostgreSQL server
    python bench/store_compare.py --postgres postgresql://rag@db/bench   # your server

The corpus is real text: 10,000 distinct passages from ../shared/datasets (HaluEval
knowledge, ANLI premises, Climate-FEVER evidence), one chunk each, ten to a document.
They are embedded once with MiniLM (int8), the vectors cached under
~/.cache/ragcite-bench, and the same chunks and vectors go into both stores. Reported:

- ingest, store only: the 1,000 versions written with `add_version` into a fresh store of
  each kind (one transaction per version), chunks/s: what the store itself costs.
- ingest, end to end: `Ragcite.ingest` of the first `--e2e-passages` passages as Markdown
  files (parse, chunk, embed, store), chunks/s; embedding dominates, so it runs on a
  slice of the corpus to keep the run short. Each store gets its own embedder.
- ask p50/p95 (the whole pipeline: embed, retrieve, rerank, generate, gate, score; from
  cold, the embedder's cache cleared before each question), its retrieve and rerank
  stages, and
  the store's own dense and keyword search p50/p95 over the 10k-chunk stores, with
  questions from HaluEval.
- pgvector HNSW recall@10 against exact search (NumPy over the same vectors), and the
  sizes per chunk of the PostgreSQL table, HNSW and GIN indexes and the SQLite file.

Medians and 95th percentiles; the machine may be shared, so compare within one run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.config import load_settings
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.index.store import NewVersion, SearchFilters, Store
from ragcite.models import Document, SourceChunk
from ragcite.pipeline import Ragcite

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ROOT.parent / "shared" / "datasets"
sys.path.insert(0, str(ROOT))  # for tests.postgres_server, the throwaway server


def passages(limit: int) -> list[str]:
    """Up to `limit` distinct real passages (80 to 700 characters)."""
    seen: dict[str, None] = {}

    def take(text: str) -> None:
        text = " ".join(text.split())
        if 80 <= len(text) <= 700:
            seen.setdefault(text, None)

    for line in (DATASETS / "halueval" / "qa_train.jsonl").open(encoding="utf-8"):
        take(json.loads(line)["knowledge"])
    for part in ("R1", "R2", "R3"):
        for line in (DATASETS / "anli" / part / "dev.jsonl").open(encoding="utf-8"):
            take(json.loads(line)["context"])
    for line in (DATASETS / "climate_fever" / "climate-fever.jsonl").open(encoding="utf-8"):
        for evidence in json.loads(line)["evidences"]:
            take(evidence["evidence"])
    return list(seen)[:limit]


def questions(limit: int) -> list[str]:
    rows = (DATASETS / "halueval" / "qa_train.jsonl").open(encoding="utf-8")
    return [json.loads(line)["question"] for _, line in zip(range(limit), rows, strict=False)]


def write_files(texts: list[str], folder: Path, per_file: int = 10) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(0, len(texts), per_file):
        path = folder / f"doc-{i // per_file:05d}.md"
        path.write_text(f"# Document {i // per_file}\n\n" + "\n\n".join(texts[i : i + per_file]))
        paths.append(path)
    return paths


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def timed(call: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        out.append((time.perf_counter() - started) * 1000)
    return out


@contextmanager
def postgres_location(given: str | None) -> Iterator[Callable[[], str]]:
    """A function giving a fresh, empty PostgreSQL store URL each call."""
    if given:
        yield lambda: given
        return
    from tests.postgres_server import EmbeddedPostgres

    server = EmbeddedPostgres()
    server.start()
    try:
        yield lambda: server.url(server.new_database())
    finally:
        server.stop()


def embedded_once(texts: list[str]) -> np.ndarray:
    """MiniLM vectors of `texts`, computed once and cached on disk by the texts' hash."""
    digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    cache = Path.home() / ".cache" / "ragcite-bench" / f"minilm-{digest}.npy"
    if cache.exists():
        return np.load(cache)
    embedder = MiniLMEmbedder()
    vectors = np.concatenate(
        [embedder.embed(texts[i : i + 256]) for i in range(0, len(texts), 256)]
    ).astype(np.float32)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, vectors)
    return vectors


def corpus_versions(texts: list[str], vectors: np.ndarray, per_doc: int = 10) -> list[NewVersion]:
    """One chunk per passage, `per_doc` passages to a document, offsets exact."""
    versions = []
    for first in range(0, len(texts), per_doc):
        number = first // per_doc
        part = texts[first : first + per_doc]
        text = "\n\n".join(part)
        document = Document(
            document_id=f"doc-{number:05d}",
            title=f"Document {number}",
            source_uri=f"bench/doc-{number:05d}.md",
            content_sha256=hashlib.sha256(text.encode()).hexdigest(),
        )
        chunks, offset = [], 0
        for i, passage in enumerate(part):
            chunks.append(
                SourceChunk(
                    chunk_id=f"c_{number:05d}_{i}",
                    document_id=document.document_id,
                    document_title=document.title,
                    chunk_text=passage,
                    char_start=offset,
                    char_end=offset + len(passage),
                )
            )
            offset += len(passage) + 2
        versions.append(NewVersion(document, text, (), chunks, vectors[first : first + per_doc]))
    return versions


def ingest_end_to_end(location: str, files: list[Path]) -> tuple[Ragcite, float, int]:
    rag = Ragcite.open(load_settings(store=location))
    report = rag.ingest(files)
    assert not report.failed, report.failed[:3]
    return rag, report.seconds, report.chunks


def copy_in(store: Store, versions: list[NewVersion]) -> float:
    started = time.perf_counter()
    for version in versions:
        store.add_version(version)
    return time.perf_counter() - started


def recall_at_10(store: Store, vectors: np.ndarray, ids: list[str], queries: np.ndarray) -> float:
    hits = 0
    for query in queries:
        exact = {ids[i] for i in np.argsort(-(vectors @ query))[:10]}
        found = {h.chunk.chunk_id for h in store.dense_search(query, 10, SearchFilters())}
        hits += len(exact & found)
    return hits / (10 * len(queries))


def postgres_sizes(store: Any) -> dict[str, int]:
    row = store._db.query_one(  # a figure for the README, not an API
        "SELECT pg_total_relation_size('ragcite_chunks') AS chunks_total, "
        "pg_relation_size('ragcite_chunks_embedding') AS hnsw, "
        "pg_relation_size('ragcite_chunks_search') AS gin"
    )
    return {k: int(v) for k, v in row.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passages", type=int, default=10_000)
    parser.add_argument("--e2e-passages", type=int, default=1_000)
    parser.add_argument("--asks", type=int, default=40)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--postgres", help="an empty PostgreSQL database URL (default: start one)")
    args = parser.parse_args()
    texts = passages(args.passages)
    asked = questions(args.queries)
    started = time.perf_counter()
    vectors = embedded_once(texts)
    print(f"{len(texts)} passages embedded (or read from the cache) in "
          f"{time.perf_counter() - started:.0f}s", flush=True)  # fmt: skip
    versions = corpus_versions(texts, vectors)
    results: dict[str, Any] = {"chunks": len(texts), "documents": len(versions)}
    with tempfile.TemporaryDirectory() as tmp, postgres_location(args.postgres) as new_pg:
        files = write_files(texts[: args.e2e_passages], Path(tmp) / "files")
        for kind, location in (("sqlite", str(Path(tmp) / "e2e.db")), ("postgres", new_pg())):
            rag, seconds, chunks = ingest_end_to_end(location, files)
            rag.close()
            results[f"{kind}_ingest_e2e_chunks_per_s"] = round(chunks / seconds, 1)
            results["e2e_chunks"] = chunks
            print(f"{kind}: end-to-end ingest {chunks} chunks in {seconds:.1f}s", flush=True)
        stores: dict[str, Ragcite] = {}
        for kind, location in (("sqlite", str(Path(tmp) / "copy.db")), ("postgres", new_pg())):
            rag = Ragcite.open(load_settings(store=location))
            seconds = copy_in(rag.store, versions)
            stores[kind] = rag
            results[f"{kind}_ingest_store_only_chunks_per_s"] = round(len(texts) / seconds)
            print(f"{kind}: store-only ingest in {seconds:.1f}s", flush=True)
        query_vectors = stores["sqlite"].embedder.embed(asked)
        for kind, rag in stores.items():
            results.update(latencies(kind, rag, asked, query_vectors, args.asks))
            print(f"{kind}: asks and searches done", flush=True)
        ids = [c.chunk_id for v in versions for c in v.chunks]
        for kind, rag in stores.items():
            recall = recall_at_10(rag.store, vectors, ids, query_vectors)
            results[f"{kind}_recall_at_10_vs_exact"] = round(recall, 4)
        sizes = postgres_sizes(stores["postgres"].store)
        results.update({f"postgres_{k}_bytes_per_chunk": v // len(ids) for k, v in sizes.items()})
        for rag in stores.values():
            rag.close()
        on_disk = sum(p.stat().st_size for p in Path(tmp).glob("copy.db*"))
        results["sqlite_file_bytes_per_chunk"] = on_disk // len(ids)
    print(json.dumps(results, indent=2))


def latencies(
    kind: str, rag: Ragcite, asked: list[str], query_vectors: np.ndarray, asks: int
) -> dict[str, float]:
    rag.ask(asked[-1])  # load the reranker and the gate's models
    samples: dict[str, list[float]] = {"ask": [], "ask_retrieve": [], "ask_rerank": []}
    for question in asked[:asks]:
        rag.embedder.clear()  # type: ignore[attr-defined]  # a new question, from cold
        started = time.perf_counter()
        stages = rag.ask(question).timings_ms
        samples["ask"].append((time.perf_counter() - started) * 1000)
        samples["ask_retrieve"].append(stages["retrieve"])
        samples["ask_rerank"].append(stages["rerank"])
    samples |= {
        "dense": [
            timed(lambda v=v: rag.store.dense_search(v, 30, rag.filters()), 1)[0]
            for v in query_vectors
        ],
        "keyword": [
            timed(lambda q=q: rag.store.keyword_search(q, 30, rag.filters()), 1)[0] for q in asked
        ],
    }
    out = {}
    for name, values in samples.items():
        p50, p95 = percentiles(values)
        out[f"{kind}_{name}_ms_p50"] = round(p50, 1)
        out[f"{kind}_{name}_ms_p95"] = round(p95, 1)
    return out


if __name__ == "__main__":
    main()
