"""ragcite side by side with what users would pick instead, run by hand (never in tests).

    pip install -e '.[bench]'
    python bench/peers.py                       # ingest, query at 10k and 100k, quotes
    python bench/peers.py --parts quotes --query-sizes 10000

Same documents, same embedder: ragcite's MiniLM int8 ONNX embedder, wrapped as a LangChain
`Embeddings` and a LlamaIndex `BaseEmbedding`, so only the frameworks differ.

- ingest (`--ingest-docs` Markdown files of real passages, bench/corpora.py): LangChain
  RecursiveCharacterTextSplitter (800/100 characters) + Chroma, LlamaIndex SentenceSplitter
  (200/25 tokens, about 800 characters) + VectorStoreIndex, ragcite ingest (parse, chunk,
  embed chunks and their sentences, store) with sentence vectors embedded on their own
  ("separate"), each sentence embedded once with its heading and its plain forms pooled from
  that pass ("heading"), pooled from the chunk's forward pass ("spans") and without any;
  chunks/s.
  Peer "embedder alone": the chunk texts ragcite embedded, through the model only.
- query: LlamaIndex CitationQueryEngine with MockLLM (so only its non-LLM work counts) vs
  ragcite's full offline ask (retrieve, rerank, extractive answer, the gate, scores), at
  each `--query-sizes` corpus (bench/scale.py's corpus: real passages, derived vectors,
  given to both as precomputed embeddings); p50 ms per question, caches cold.
- quotes: the PyPI package quotegate (`judge`: is the quote in its passage) vs ragcite's
  quote verification (`locate_quote`) on the same quotes and passages: checks per second
  (wall clock) and CPU microseconds per check (the steadier figure on a shared machine).
Every section prints medians, the machine, and the ratio against its named peer; results
go to docs/bench/peers.json (bench/plot.py draws them).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import questions, real_passages
from ingest_ask import _embedded_texts, clear_vector_caches, machine
from scale import build, embed_real

from ragcite.config import load_settings
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.pipeline import Ragcite
from ragcite.verify.normalize import clear_caches as clear_quote_caches
from ragcite.verify.quotes import locate_quote

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "bench" / "peers.json"
EMBEDDER = MiniLMEmbedder()


def langchain_embeddings() -> Any:
    from langchain_core.embeddings import Embeddings

    class RagciteMiniLM(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            rows: list[list[float]] = EMBEDDER.embed(texts).tolist()
            return rows

        def embed_query(self, text: str) -> list[float]:
            row: list[float] = EMBEDDER.embed([text])[0].tolist()
            return row

    return RagciteMiniLM()


def llamaindex_embedding() -> Any:
    from llama_index.core.embeddings import BaseEmbedding

    class RagciteMiniLM(BaseEmbedding):
        def _get_query_embedding(self, query: str) -> list[float]:
            row: list[float] = EMBEDDER.embed([query])[0].tolist()
            return row

        def _get_text_embedding(self, text: str) -> list[float]:
            row: list[float] = EMBEDDER.embed([text])[0].tolist()
            return row

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            rows: list[list[float]] = EMBEDDER.embed(texts).tolist()
            return rows

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_query_embedding(query)

    return RagciteMiniLM(model_name="ragcite-minilm-int8", embed_batch_size=32)


# -- ingest -------------------------------------------------------------------------------


def write_documents(folder: Path, count: int) -> list[Path]:
    """`count` Markdown files of real passages (about 6 chunks each)."""
    passages = real_passages(count * 8)
    paths = []
    for d in range(count):
        body = "\n\n".join(passages[d * 8 : d * 8 + 8])
        path = folder / f"doc-{d:03d}.md"
        path.write_text(f"# Document {d}\n\n{body}\n", encoding="utf-8")
        paths.append(path)
    return paths


def ingest_langchain(paths: list[Path], tmp: Path) -> int:
    from langchain_chroma import Chroma
    from langchain_core.documents import Document
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=800, chunk_overlap=100)
    docs = [Document(p.read_text(encoding="utf-8"), metadata={"source": str(p)}) for p in paths]
    chunks = splitter.split_documents(docs)
    Chroma.from_documents(chunks, langchain_embeddings(), persist_directory=str(tmp / "chroma"))
    return len(chunks)


def ingest_llamaindex(paths: list[Path], tmp: Path) -> int:
    from llama_index.core import Document, StorageContext, VectorStoreIndex
    from llama_index.core.node_parser import SentenceSplitter

    docs = [Document(text=p.read_text("utf-8"), metadata={"source": str(p)}) for p in paths]
    nodes = SentenceSplitter(chunk_size=200, chunk_overlap=25).get_nodes_from_documents(docs)
    index = VectorStoreIndex(nodes, embed_model=llamaindex_embedding())
    index.storage_context.persist(str(tmp / "llamaindex"))
    assert isinstance(index.storage_context, StorageContext)
    return len(nodes)


def ingest_ragcite(
    sentence_vectors: bool, pooling: str = "separate", texts: list[str] | None = None
) -> Callable[[list[Path], Path], int]:
    """ragcite ingest; the texts it gave the model for its chunks go into `texts`."""

    def run(paths: list[Path], tmp: Path) -> int:
        overrides = {"ingest.sentence_vectors": sentence_vectors}
        overrides["ingest.sentence_pooling"] = pooling  # type: ignore[assignment]
        rag = Ragcite.open(load_settings(store=tmp / "ragcite.db", overrides=overrides))
        rag.embedder.clear()  # type: ignore[attr-defined]
        report = rag.ingest(paths)
        if texts is not None and not texts:
            texts.extend(t for t in _embedded_texts(rag) if "\n" in t)  # chunk texts only
        rag.close()
        assert not report.failed, report.failed
        return report.chunks

    return run


def embedder_alone(texts: list[str]) -> Callable[[list[Path], Path], int]:
    """The peer "raw embedder": the chunk texts ragcite embedded, through the model alone
    (one batched call, length-sorted), no parsing, chunking or storing."""

    def run(paths: list[Path], tmp: Path) -> int:
        EMBEDDER.embed(texts)
        return len(texts)

    return run


def bench_ingest(docs: int, rounds: int) -> dict[str, float]:
    chunk_texts: list[str] = []
    systems = {
        "langchain_chroma": ingest_langchain,
        "llamaindex": ingest_llamaindex,
        "ragcite_no_sentence_vectors": ingest_ragcite(False, texts=chunk_texts),
        "embedder_alone": embedder_alone(chunk_texts),
        "ragcite_separate_sentence_vectors": ingest_ragcite(True, "separate"),
        "ragcite_heading_sentence_vectors": ingest_ragcite(True, "heading"),
        "ragcite_span_sentence_vectors": ingest_ragcite(True, "spans"),
    }
    rates: dict[str, list[float]] = {name: [] for name in systems}
    cpu_rates: dict[str, list[float]] = {name: [] for name in systems}  # per CPU second
    EMBEDDER.embed(["warm up"])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        paths = write_documents(folder, docs)
        for r in range(rounds):  # interleaved, so load on the machine hits all alike
            for name, run in systems.items():
                work = Path(tmp) / f"{name}-{r}"
                work.mkdir()
                started, started_cpu = time.perf_counter(), time.process_time()
                chunks = run(paths, work)
                rates[name].append(chunks / (time.perf_counter() - started))
                cpu_rates[name].append(chunks / (time.process_time() - started_cpu))
    out = {f"{name}_chunks_per_s": round(statistics.median(v), 1) for name, v in rates.items()}
    # Chunks per CPU second of this process (all its threads): steadier on a loaded machine.
    cpu = {
        f"{name}_chunks_per_cpu_s": round(statistics.median(v), 1) for name, v in cpu_rates.items()
    }
    pooled = ("separate", "heading", "span")
    ragcites = ("ragcite", *(f"ragcite_{p}_sentence_vectors" for p in pooled))
    default = load_settings().ingest.sentence_pooling.removesuffix("s")  # "spans" -> "span"
    out["ragcite_chunks_per_s"] = out[f"ragcite_{default}_sentence_vectors_chunks_per_s"]
    for name in (*ragcites, "ragcite_no_sentence_vectors", "llamaindex"):
        out[f"ratio_{name}_vs_langchain_chroma"] = round(
            out[f"{name}_chunks_per_s"] / out["langchain_chroma_chunks_per_s"], 2
        )
    for name in (*ragcites, "ragcite_no_sentence_vectors"):  # chunks/s against chunk texts/s
        out[f"ratio_{name}_vs_embedder_alone"] = round(
            out[f"{name}_chunks_per_s"] / out["embedder_alone_chunks_per_s"], 2
        )
    for name in (*ragcites[1:], "ragcite_no_sentence_vectors", "llamaindex"):
        cpu[f"ratio_cpu_{name}_vs_langchain_chroma"] = round(
            cpu[f"{name}_chunks_per_cpu_s"] / cpu["langchain_chroma_chunks_per_cpu_s"], 2
        )
    for name in (*ragcites[1:], "ragcite_no_sentence_vectors"):
        cpu[f"ratio_cpu_{name}_vs_embedder_alone"] = round(
            cpu[f"{name}_chunks_per_cpu_s"] / cpu["embedder_alone_chunks_per_cpu_s"], 2
        )
    out |= cpu
    print(f"[ingest {docs} documents] {json.dumps(out)}")
    return out


# -- query --------------------------------------------------------------------------------


def llamaindex_engine(path: Path) -> Any:
    """A VectorStoreIndex over the same chunks and vectors as the ragcite store at `path`."""
    import sqlite3

    from llama_index.core import VectorStoreIndex
    from llama_index.core.llms import MockLLM
    from llama_index.core.query_engine import CitationQueryEngine
    from llama_index.core.schema import TextNode

    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT chunk_id, chunk_text, vector FROM chunks").fetchall()
    nodes = [
        TextNode(id_=cid, text=text, embedding=np.frombuffer(blob, dtype=np.float32).tolist())
        for cid, text, blob in rows
    ]
    index = VectorStoreIndex(nodes, embed_model=llamaindex_embedding())
    return CitationQueryEngine.from_args(index, llm=MockLLM(), similarity_top_k=8)


def bench_query(size: int, real: int, count: int, repeats: int) -> dict[str, float]:
    passages = real_passages(real)
    vectors, forms = embed_real(passages)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.db"
        build(path, size, passages, vectors, forms)
        engine = llamaindex_engine(path)
        rag = Ragcite.open(load_settings(store=path, overrides={"cache.enabled": False}))
        asked = questions(count)
        rag.ask(asked[0])
        engine.query(asked[0])
        times: dict[str, list[float]] = {"ragcite_ask": [], "llamaindex_citation": []}
        for _ in range(repeats):
            for question in asked:
                clear_vector_caches(rag)
                started = time.perf_counter()
                rag.ask(question)
                times["ragcite_ask"].append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                engine.query(question)
                times["llamaindex_citation"].append((time.perf_counter() - started) * 1000)
        rag.close()
    out = {f"p50_{k}_ms": round(statistics.median(v), 1) for k, v in times.items()}
    out["ratio_llamaindex_vs_ragcite"] = round(
        out["p50_llamaindex_citation_ms"] / out["p50_ragcite_ask_ms"], 2
    )
    print(f"[query {size} chunks] {json.dumps(out)}")
    return out


# -- quotes -------------------------------------------------------------------------------


def quote_cases(count: int, seed: int = 5) -> list[tuple[str, str]]:
    """(quote, passage) pairs: a third verbatim sentences, a third with changed case and
    spacing, a third sentences from another passage (not found)."""
    rng = random.Random(seed)
    passages = [p for p in real_passages(count) if ". " in p]
    cases = []
    for i, passage in enumerate(passages):
        sentence = rng.choice([s for s in passage.split(". ") if len(s) > 20] or [passage[:60]])
        kind = i % 3
        if kind == 1:
            sentence = "  ".join(sentence.upper().split(" "))
        elif kind == 2:
            sentence = passages[(i + 1) % len(passages)].split(". ")[0]
        cases.append((sentence, passage))
    return cases


def bench_quotes(count: int, rounds: int) -> dict[str, float]:
    import quotegate

    cases = quote_cases(count)
    wrapped = [(q, [quotegate.Passage(p)]) for q, p in cases]
    rules = quotegate.Rules(current_year=0)
    rates: dict[str, list[float]] = {"ragcite_locate_quote": [], "quotegate_judge": []}
    # CPU time too: on a shared machine the wall clock also counts the time others ran.
    cpu_us: dict[str, list[float]] = {name: [] for name in rates}
    found = {"ragcite": 0, "quotegate": 0}
    statuses: Counter[str] = Counter()
    for _ in range(rounds):
        clear_quote_caches()  # each round checks cold: nothing folded is kept from before
        started, cpu = time.perf_counter(), time.thread_time()
        matches = [locate_quote(q, p) for q, p in cases]
        cpu_us["ragcite_locate_quote"].append((time.thread_time() - cpu) / len(cases) * 1e6)
        rates["ragcite_locate_quote"].append(len(cases) / (time.perf_counter() - started))
        statuses = Counter(m.status.value for m in matches)
        found["ragcite"] = sum(m.found for m in matches)
        started, cpu = time.perf_counter(), time.thread_time()
        verdicts = [quotegate.judge(1, q, ps, rules) for q, ps in wrapped]
        cpu_us["quotegate_judge"].append((time.thread_time() - cpu) / len(cases) * 1e6)
        rates["quotegate_judge"].append(len(cases) / (time.perf_counter() - started))
        found["quotegate"] = sum(isinstance(v, quotegate.Quote) for v in verdicts)
    out: dict[str, float] = {
        f"{k}_checks_per_s": round(statistics.median(v)) for k, v in rates.items()
    }
    out["ratio_ragcite_vs_quotegate"] = round(
        out["ragcite_locate_quote_checks_per_s"] / out["quotegate_judge_checks_per_s"], 2
    )
    out |= {f"{k}_cpu_us_per_check": round(statistics.median(v), 2) for k, v in cpu_us.items()}
    out["cpu_ratio_ragcite_vs_quotegate"] = round(
        out["quotegate_judge_cpu_us_per_check"] / out["ragcite_locate_quote_cpu_us_per_check"], 2
    )
    out["cases"] = len(cases)
    out |= {f"found_{k}": v for k, v in found.items()}
    out |= {f"ragcite_{k}": v for k, v in sorted(statuses.items())}
    print(f"[quotes] {json.dumps(out)}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", nargs="+", default=["ingest", "query", "quotes"])
    parser.add_argument("--ingest-docs", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--query-sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--real", type=int, default=1000, help="passages embedded for real")
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--quote-cases", type=int, default=3000)
    args = parser.parse_args()
    print(f"[machine] {machine()}")
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    if "ingest" in args.parts:
        results["ingest"] = bench_ingest(args.ingest_docs, args.rounds) | {"machine": machine()}
    if "query" in args.parts:
        for size in args.query_sizes:
            row = bench_query(size, args.real, args.questions, 1)
            results.setdefault("query", {})[str(size)] = row | {"machine": machine()}
    if "quotes" in args.parts:
        results["quotes"] = bench_quotes(args.quote_cases, args.rounds + 1) | {"machine": machine()}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
