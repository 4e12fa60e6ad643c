"""ragcite from 10k to 1M chunks, run by hand (never in the test suite).

    python bench/scale.py                          # 10k, 100k, 1M
    python bench/scale.py --sizes 10000 100000 --real 2000

The corpus: `--real` real passages (bench/corpora.py: eight data sets in
../shared/datasets, interleaved) are embedded with MiniLM, chunk and sentence forms
(every string embedded is kept in ~/.cache/ragcite-bench, so a larger --real embeds only
the new ones). Beyond them each chunk is derived: 2 to 5 sentences drawn at random from
all the real passages' sentences (thousands of distinct sentences, so keyword search sees
varied text, not a few passages repeated), its vector their real sentence vectors' mean
plus small Gaussian noise (sigma `NOISE` per dimension), renormalised, its sentence
vectors the real ones; nothing new is embedded (embedding 1M passages on 2 shared cores
would take days: MiniLM int8 does about 7 passages a second here under load).

Each size is built once (store writes, no embedding), then measured in a fresh process:
ask p50 (full offline ask: answer cache off, no vector cached), hybrid retrieval p50, the
unavoidable part (one query embedding + one dense + one keyword lookup) and its dense and
keyword lookups alone, peak RSS of the measuring process (taken before the recall check),
and, where the index is approximate, recall@10 against exact search (NumPy over every stored
vector). Before its first ask the measuring process builds the dense index, timed (approximate
from 50k chunks: what a user waits for once, on the first ask after crossing 50k or after
a rebuild; saved beside the store, so the next process loads it). Results are written to
docs/bench/scale.json, which bench/plot.py draws.

    python bench/scale.py --keep /tmp/scale   # keep the stores, re-measure without rebuilding
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

from corpora import questions, real_passages
from ingest_ask import clear_vector_caches, machine
from recall import recall_at_10 as exact_recall

from ragcite.config import load_settings
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.index import pq_scan
from ragcite.index.dense_changes import store_state, vector_pages
from ragcite.index.indexer import store_version
from ragcite.index.sentence_vectors import encode_sentence_vectors
from ragcite.index.sqlite_store import open_sqlite_store
from ragcite.index.store import NewVersion
from ragcite.models import Document, SourceChunk
from ragcite.pipeline import Ragcite
from ragcite.registry import parse_store_url
from ragcite.text.sentence_forms import chunk_sentence_forms, one_line
from ragcite.text.sentences import split_sentences

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "bench" / "scale.json"
CORPUS = (
    "{real} real passages (bench/corpora.py) embedded with MiniLM int8, chunk and sentence "
    "forms; every other chunk derived: 2-5 sentences drawn at random from all the real "
    "passages' sentences, joined, its vector their (real) sentence vectors' mean plus "
    "N(0, {noise}) per dimension, renormalised; its sentence vectors the real ones"
)
PER_DOCUMENT = 1000


CACHE = Path.home() / ".cache" / "ragcite-bench"
EMBED_BATCH = 256
NOISE = 0.005


def embed_real(passages: list[str]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Chunk vectors and every sentence form's vector, embedded for real. Every string
    embedded once is kept under ~/.cache/ragcite-bench (text -> vector), so a run with more
    real passages embeds only the new ones."""
    known = _cached_vectors()
    forms = list(dict.fromkeys(f for p in passages for f in chunk_sentence_forms(p, None)))
    missing = [t for t in dict.fromkeys([*passages, *forms]) if t not in known]
    if missing:
        embedder = MiniLMEmbedder(threads=2)
        for start in range(0, len(missing), EMBED_BATCH):
            batch = missing[start : start + EMBED_BATCH]
            known.update(zip(batch, embedder.embed(batch), strict=True))
            CACHE.mkdir(parents=True, exist_ok=True)
            np.savez(
                CACHE / f"texts-{zlib.crc32(chr(31).join(batch).encode()):08x}.npz",
                texts=np.array(batch),
                vectors=np.stack([known[t] for t in batch]),
            )
            print(f"[embedding] {start + len(batch)} / {len(missing)}", flush=True)
    return np.stack([known[p] for p in passages]), {f: known[f] for f in forms}


def _cached_vectors() -> dict[str, np.ndarray]:
    known: dict[str, np.ndarray] = {}
    for path in sorted(CACHE.glob("texts-*.npz")):
        data = np.load(path, allow_pickle=False)
        known.update(zip(data["texts"].tolist(), data["vectors"], strict=True))
    for path in sorted(CACHE.glob("scale-*.npz")):  # the older layout: passages unnamed
        data = np.load(path, allow_pickle=False)
        known.update(zip(data["forms"].tolist(), data["form_vectors"], strict=True))
        passages = real_passages(int(path.stem.split("-")[1]))
        if path.stem.endswith(f"{zlib.crc32(chr(31).join(passages).encode()):08x}"):
            known.update(zip(passages, data["vectors"], strict=True))
    return known


class Sentences:
    """The real passages' sentences that stay whole when joined to others (one line, ending
    in . ! or ?, split alone into themselves), each with its forms and its vector."""

    def __init__(self, passages: list[str], forms: dict[str, np.ndarray]) -> None:
        self.texts: list[str] = []
        self.forms: list[list[str]] = []
        vectors: list[np.ndarray] = []
        for passage in passages:
            for start, end in split_sentences(passage):
                sentence = one_line(passage[start:end])
                own = chunk_sentence_forms(sentence, None)
                whole = split_sentences(sentence) == [(0, len(sentence))]
                if sentence[-1:] in (".", "!", "?") and whole and all(f in forms for f in own):
                    self.texts.append(sentence)
                    self.forms.append(own)
                    vectors.append(forms[sentence])
        self.matrix = np.stack(vectors)

    def draw(self, count: int, rng: np.random.Generator) -> tuple[list[list[int]], np.ndarray]:
        """`count` derived chunks: 2 to 5 distinct sentences each, and their vectors (the
        sentences' mean plus Gaussian noise of sigma `NOISE` per dimension, renormalised)."""
        if count == 0:
            return [], np.empty((0, self.matrix.shape[1]), dtype=self.matrix.dtype)
        picks = [
            list(dict.fromkeys(row[:n].tolist()))
            for row, n in zip(
                rng.integers(0, len(self.texts), (count, 5)), rng.integers(2, 6, count), strict=True
            )
        ]
        vectors = np.stack([self.matrix[p].mean(axis=0) for p in picks])
        vectors += rng.normal(0, NOISE, vectors.shape).astype(vectors.dtype)
        return picks, vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def build(
    path: Path, size: int, passages: list[str], vectors: np.ndarray, forms: dict[str, np.ndarray]
) -> dict[str, Any]:
    """Write `size` chunks to a new SQLite store: the real passages, then derived ones
    (`Sentences.draw`). Returns the seconds taken and the share of a sample of derived
    chunks whose sentences split back into the drawn ones (so their stored sentence vectors
    are the ones ask looks up)."""
    started = time.perf_counter()
    store = open_sqlite_store(parse_store_url(str(path)), dimension=vectors.shape[1])
    rng = np.random.default_rng(size)
    pool = Sentences(passages, forms)
    checked = agreed = 0
    for d in range(0, size, PER_DOCUMENT):
        real = range(d, min(d + PER_DOCUMENT, size, len(passages)))
        texts = [passages[i] for i in real]
        chunk_forms = [chunk_sentence_forms(t, None) for t in texts]
        picks, rows = pool.draw(min(d + PER_DOCUMENT, size) - d - len(texts), rng)
        for p in picks:
            texts.append(" ".join(pool.texts[j] for j in p))
            chunk_forms.append(list(dict.fromkeys(f for j in p for f in pool.forms[j])))
            if rng.random() < 0.01:
                checked += 1
                agreed += chunk_sentence_forms(texts[-1], None) == chunk_forms[-1]
        blobs: list[bytes | None] = [
            encode_sentence_vectors(f, np.stack([forms[x] for x in f])) for f in chunk_forms
        ]
        matrix = np.concatenate([vectors[list(real)], rows]) if len(real) else rows
        matrix = matrix.astype(np.float32)
        store_version(store, _version(f"doc-{d // PER_DOCUMENT}", texts, matrix, blobs))
    store.close()
    row: dict[str, Any] = {"build_s": round(time.perf_counter() - started, 1)}
    row["derived_sentences_split_back"] = round(agreed / checked if checked else 1.0, 3)
    return row


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


def measure(path: Path, count: int, repeats: int) -> dict[str, Any]:
    """Run in a fresh process: the timings, RSS and recall over one built store."""
    rag = Ragcite.open(load_settings(store=path, overrides={"cache.enabled": False}))
    asked = questions(count)
    inner = rag.embedder.inner  # type: ignore[attr-defined]
    filters, depth = rag.filters(), rag.settings.retrieve.candidates_per_retriever
    probe = inner.embed([asked[0]])[0]
    started = time.perf_counter()
    rag.store.dense_search(probe, 1, filters)  # builds (or loads) the dense index
    index_seconds = time.perf_counter() - started
    rag.ask(asked[0])  # loads the other models
    open_seconds = time.perf_counter() - started
    ask_ms, retrieve_ms, unavoidable_ms, dense_ms, keyword_ms = [], [], [], [], []
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
            t3 = time.perf_counter()
            rag.store.dense_search(vector, depth, filters)
            t4 = time.perf_counter()
            rag.store.keyword_search(question, depth, filters)
            t5 = time.perf_counter()
            ask_ms.append((t1 - t0) * 1000)
            retrieve_ms.append((t2 - t1) * 1000)
            unavoidable_ms.append((t5 - t2) * 1000)
            dense_ms.append((t4 - t3) * 1000)
            keyword_ms.append((t5 - t4) * 1000)
    result: dict[str, Any] = {
        "p50_ask_ms": _p50(ask_ms),
        "p50_retrieve_ms": _p50(retrieve_ms),
        "p50_unavoidable_ms": _p50(unavoidable_ms),
        "p50_dense_ms": _p50(dense_ms),
        "p50_keyword_ms": _p50(keyword_ms),
        "dense_index_build_s": round(index_seconds, 1),
        "first_ask_with_index_build_s": round(open_seconds, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    result |= recall_at_10(rag, inner, asked)
    rag.close()
    return result


def _p50(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def recall_at_10(rag: Ragcite, inner: MiniLMEmbedder, asked: list[str]) -> dict[str, Any]:
    """Recall@10 of the store's dense index against exact search (NumPy over every stored
    vector, a page at a time), when the index is not exact."""
    dense = rag.store._dense  # type: ignore[attr-defined]
    index = dense._index
    if index is None or index.exact:
        return {"dense_index": "exact"}
    queries = inner.embed(asked)
    pages = vector_pages(dense._db, 0, store_state(dense._db).dimension)
    recall = exact_recall(queries, pages, index.search)
    return {
        "dense_index": f"4-bit PQ scan of every vector, best {pq_scan.RERANK} re-ranked exactly",
        "recall_at_10": round(recall, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--real", type=int, default=3000, help="passages embedded for real")
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="build the stores here and reuse them")
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
    corpus = CORPUS.format(real=len(passages), noise=NOISE)
    if results.get("corpus") != corpus:  # rows over another corpus do not compare
        results = {"previous_corpus": {k: v for k, v in results.items() if k != "previous_corpus"}}
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            row = _run_size(Path(args.keep or tmp), size, passages, vectors, forms, args)
            print(f"[{size}] {json.dumps(row)}")
            results.setdefault("ragcite", {})[str(size)] = row
            results["machine"] = machine()
            results["corpus"] = corpus
            _save(results)  # after each size: a long run stopped early keeps what it measured
    first, last = min(args.sizes), max(args.sizes)
    rows = results["ragcite"]
    growth = rows[str(last)]["p50_ask_ms"] / rows[str(first)]["p50_ask_ms"]
    print(f"[growth] ask p50 {first} -> {last} chunks: {growth:.2f}x")


def _run_size(
    folder: Path,
    size: int,
    passages: list[str],
    vectors: np.ndarray,
    forms: dict[str, np.ndarray],
    args: argparse.Namespace,
) -> dict[str, Any]:
    """Build (or, with --keep, reuse) the store of `size` chunks and measure it."""
    path = folder / f"scale-{size}-r{len(passages)}.db"
    built = path.with_suffix(".built.json")
    if built.exists():
        row = json.loads(built.read_text())
    else:
        row = {"chunks": size, "real": len(passages)}
        row |= build(path, size, passages, vectors, forms)
        built.write_text(json.dumps(row))
    command = [sys.executable, __file__, "--measure", str(path)]
    command += ["--questions", str(args.questions), "--repeats", str(args.repeats)]
    child = subprocess.run(command, capture_output=True, text=True)
    if child.returncode:
        raise SystemExit(f"measuring {path} failed:\n{child.stderr[-3000:]}")
    row = row | json.loads(child.stdout.strip().splitlines()[-1])
    row["ratio_ask_vs_unavoidable"] = round(row["p50_ask_ms"] / row["p50_unavoidable_ms"], 2)
    return row


def _save(results: dict[str, Any]) -> None:
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
