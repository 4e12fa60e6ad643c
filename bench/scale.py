"""ragcite from 10k to 1M chunks, run by hand (never in the test suite).

    python bench/scale.py                          # 10k, 100k, 1M
    python bench/scale.py --sizes 10000 100000 --real 2000

The corpus: `--real` real passages (bench/corpora.py: eight data sets in
../shared/datasets, interleaved) are embedded with MiniLM, chunk and sentences. Beyond
them each chunk is derived: its text is a real passage followed by a blank line and the
first sentence of another one (so keyword search sees varied text), its vector the real
passage's vector plus 0.3 x the other's plus small Gaussian noise (sigma 0.015 per
dimension), renormalised; its sentence vectors are the real sentences' (already
embedded), so nothing new is embedded. Embedding 1M passages on 2 cores would take hours.

Each size is built once (store writes, no embedding), then measured in a fresh process:
ask p50 (full offline ask: answer cache off, no vector cached), hybrid retrieval p50, the
unavoidable part (one query embedding + one dense + one keyword lookup), peak RSS of the
measuring process, and, where the index is HNSW, recall@10 against exact search.
Results are appended to docs/bench/scale.json, which bench/plot.py draws.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import DATASETS, real_passages
from ingest_ask import clear_vector_caches, machine

from ragcite.config import load_settings
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.index.indexer import store_version
from ragcite.index.sentence_vectors import encode_sentence_vectors
from ragcite.index.sqlite_store import open_sqlite_store
from ragcite.index.store import NewVersion
from ragcite.models import Document, SourceChunk
from ragcite.pipeline import Ragcite
from ragcite.registry import parse_store_url
from ragcite.text.sentence_forms import chunk_sentence_forms

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "bench" / "scale.json"
PER_DOCUMENT = 1000


CACHE = Path.home() / ".cache" / "ragcite-bench"


def embed_real(passages: list[str]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Chunk vectors and every sentence form's vector, embedded for real (kept on disk
    under ~/.cache/ragcite-bench, keyed by the passages, for the next run)."""
    key = zlib.crc32("\x1f".join(passages).encode())
    cached = CACHE / f"scale-{len(passages)}-{key:08x}.npz"
    if cached.exists():
        data = np.load(cached, allow_pickle=False)
        return data["vectors"], dict(zip(data["forms"].tolist(), data["form_vectors"], strict=True))
    vectors, forms = _embed_real(passages)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(
        cached,
        vectors=vectors,
        forms=np.array(list(forms)),
        form_vectors=np.stack(list(forms.values())),
    )
    return vectors, forms


def _embed_real(passages: list[str]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    embedder = MiniLMEmbedder()
    vectors = embedder.embed(passages)
    forms = list(dict.fromkeys(f for p in passages for f in chunk_sentence_forms(p, None)))
    form_vectors = embedder.embed(forms)
    return vectors, dict(zip(forms, form_vectors, strict=True))


def derived(
    i: int, passages: list[str], vectors: np.ndarray, rng: np.random.Generator
) -> tuple[str, np.ndarray]:
    """Chunk i: real for i < len(passages), else derived from two real ones (see above)."""
    n = len(passages)
    if i < n:
        return passages[i], vectors[i]
    base, other = i % n, (i * 7919 + 13) % n
    first = passages[other].split(". ")[0].rstrip(".") + "."
    vector = vectors[base] + 0.3 * vectors[other] + rng.normal(0, 0.015, vectors.shape[1])
    return f"{passages[base]}\n\n{first}", vector / np.linalg.norm(vector)


def build(
    path: Path, size: int, passages: list[str], vectors: np.ndarray, forms: dict[str, np.ndarray]
) -> float:
    """Write `size` chunks to a new SQLite store; seconds taken."""
    started = time.perf_counter()
    store = open_sqlite_store(parse_store_url(str(path)), dimension=vectors.shape[1])
    rng = np.random.default_rng(size)
    for d in range(0, size, PER_DOCUMENT):
        texts: list[str] = []
        rows: list[np.ndarray] = []
        blobs: list[bytes | None] = []
        for i in range(d, min(d + PER_DOCUMENT, size)):
            text, vector = derived(i, passages, vectors, rng)
            chunk_forms = chunk_sentence_forms(text, None)
            known = all(f in forms for f in chunk_forms)
            texts.append(text)
            rows.append(vector)
            blobs.append(
                encode_sentence_vectors(chunk_forms, np.stack([forms[f] for f in chunk_forms]))
                if known and chunk_forms
                else None
            )
        store_version(store, _version(f"doc-{d // PER_DOCUMENT}", texts, np.stack(rows), blobs))
    store.close()
    return time.perf_counter() - started


def _version(
    doc_id: str, texts: list[str], vectors: np.ndarray, blobs: list[bytes | None]
) -> NewVersion:
    document = Document(
        document_id=doc_id,
        title=f"Passages {doc_id}",
        source_uri=f"/bench/{doc_id}.md",
        version=1,
        content_sha256=doc_id,
    )
    chunks, offset = [], 0
    for i, text in enumerate(texts):
        chunks.append(
            SourceChunk(
                chunk_id=f"{doc_id}-{i}",
                document_id=doc_id,
                document_version=1,
                document_title=document.title,
                chunk_text=text,
                char_start=offset,
                char_end=offset + len(text),
            )
        )
        offset += len(text) + 2
    return NewVersion(
        document,
        "\n\n".join(texts),
        (),
        chunks,
        vectors.astype(np.float32),
        sentence_vectors=blobs,
    )


def questions(limit: int) -> list[str]:
    """HaluEval questions: their knowledge passages are among the first real passages."""
    out = []
    with (DATASETS / "halueval" / "qa_train.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            out.append(json.loads(line)["question"])
            if len(out) == limit:
                break
    return out


def measure(path: Path, count: int, repeats: int) -> dict[str, Any]:
    """Run in a fresh process: the timings, RSS and recall over one built store."""
    rag = Ragcite.open(load_settings(store=path, overrides={"cache.enabled": False}))
    asked = questions(count)
    started = time.perf_counter()
    rag.ask(asked[0])  # loads the models and builds the dense index
    open_seconds = time.perf_counter() - started
    inner = rag.embedder.inner  # type: ignore[attr-defined]
    filters, depth = rag.filters(), rag.settings.retrieve.candidates_per_retriever
    ask_ms, retrieve_ms, unavoidable_ms = [], [], []
    for _ in range(repeats):
        for question in asked:
            clear_vector_caches(rag)
            t0 = time.perf_counter()
            rag.ask(question)
            t1 = time.perf_counter()
            rag.embedder.clear()  # type: ignore[attr-defined]
            rag.retriever.retrieve(question, rag.settings.retrieve.top_k, filters)
            t2 = time.perf_counter()
            vector = inner.embed([question])[0]
            rag.store.dense_search(vector, depth, filters)
            rag.store.keyword_search(question, depth, filters)
            t3 = time.perf_counter()
            ask_ms.append((t1 - t0) * 1000)
            retrieve_ms.append((t2 - t1) * 1000)
            unavoidable_ms.append((t3 - t2) * 1000)
    result: dict[str, Any] = {
        "p50_ask_ms": round(statistics.median(ask_ms), 1),
        "p50_retrieve_ms": round(statistics.median(retrieve_ms), 1),
        "p50_unavoidable_ms": round(statistics.median(unavoidable_ms), 1),
        "first_ask_with_index_build_s": round(open_seconds, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    result |= recall_at_10(rag, inner, asked)
    rag.close()
    return result


def recall_at_10(rag: Ragcite, inner: MiniLMEmbedder, asked: list[str]) -> dict[str, Any]:
    """Recall@10 of the store's dense index against exact search, when it is not exact."""
    dense = rag.store._dense  # type: ignore[attr-defined]
    index = dense._index
    if index is None or index.exact:
        return {"dense_index": "exact"}
    ids, matrix = dense._stored_vectors()
    hits = 0
    for question in asked:
        vector = inner.embed([question])[0]
        exact = set(ids[np.argsort(-(matrix @ vector))[:10]].tolist())
        approx = {rowid for rowid, _ in index.search(vector, 10)}
        hits += len(exact & approx)
    return {"dense_index": "hnsw", "hnsw_recall_at_10": round(hits / (10 * len(asked)), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--real", type=int, default=2000, help="passages embedded for real")
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.questions, args.repeats)))
        return
    print(f"[machine] {machine()}")
    passages = real_passages(args.real)
    started = time.perf_counter()
    vectors, forms = embed_real(passages)
    print(
        f"[embedded] {len(passages)} passages, {len(forms)} sentence forms in "
        f"{time.perf_counter() - started:.0f} s"
    )
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            path = Path(tmp) / f"scale-{size}.db"
            seconds = build(path, size, passages, vectors, forms)
            child = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--measure",
                    str(path),
                    "--questions",
                    str(args.questions),
                    "--repeats",
                    str(args.repeats),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            row = {"chunks": size, "real": len(passages), "build_s": round(seconds, 1)}
            row |= json.loads(child.stdout.strip().splitlines()[-1])
            ratio = row["p50_ask_ms"] / row["p50_unavoidable_ms"]
            row["ratio_ask_vs_unavoidable"] = round(ratio, 2)
            print(f"[{size}] {json.dumps(row)}")
            results.setdefault("ragcite", {})[str(size)] = row
            results["machine"] = machine()
            _save(results)  # after each size: a long run stopped early keeps what it measured
            path.unlink()
    first, last = min(args.sizes), max(args.sizes)
    rows = results["ragcite"]
    growth = rows[str(last)]["p50_ask_ms"] / rows[str(first)]["p50_ask_ms"]
    print(f"[growth] ask p50 {first} -> {last} chunks: {growth:.2f}x")


def _save(results: dict[str, Any]) -> None:
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
