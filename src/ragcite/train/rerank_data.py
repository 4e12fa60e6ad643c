"""The reranker's corpora: HaluEval (train and held-out), Factcheck-GPT, RGB and the demo.

Each corpus lives in a real embedded store built once under the cache folder; every vector
ever computed is kept in one file there, so a rerun embeds nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.config import load_settings
from ragcite.embed.base import Embedder, Vectors
from ragcite.eval.datasets import DEFAULT_ROOT
from ragcite.eval.labels import chunk_is_relevant
from ragcite.eval.questions import LabelledQuestion, load_questions
from ragcite.index.indexer import Indexer
from ragcite.index.source_chunks import chunk_id_for
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.store import NewVersion, SearchFilters
from ragcite.models import Document, SourceChunk


class DiskCachedEmbedder:
    """Every vector ever computed, kept in one file so that a rerun embeds nothing."""

    def __init__(self, inner: Embedder, path: Path) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dimension = inner.dimension
        self.path = path
        self.vectors: dict[str, np.ndarray] = {}
        self.dirty = False
        if path.exists():
            with np.load(path) as data:
                texts = json.loads(str(data["texts"]))
                self.vectors = dict(zip(texts, data["vectors"], strict=True))

    def embed(self, texts: list[str]) -> Vectors:
        missing = list(dict.fromkeys(t for t in texts if t not in self.vectors))
        if missing:
            self.vectors.update(zip(missing, self.inner.embed(missing), strict=True))
            self.dirty = True
        return np.stack([self.vectors[t] for t in texts]).astype(np.float32)

    def save(self) -> None:
        if self.dirty:
            texts = list(self.vectors)
            np.savez(
                self.path, texts=json.dumps(texts), vectors=np.stack(list(self.vectors.values()))
            )
            self.dirty = False


def _unit_hash(text: str, seed: int) -> float:
    return int.from_bytes(hashlib.sha256(f"{seed}:{text}".encode()).digest()[:8], "big") / 2**64


@dataclass(frozen=True)
class Query:
    text: str
    is_relevant: Callable[[SourceChunk], bool]
    filters: SearchFilters


@dataclass
class Corpus:
    name: str
    store: SQLiteStore
    train: list[Query]
    heldout: list[Query]


def _passage_document(document_id: str, text: str, corpus: str) -> tuple[Document, SourceChunk]:
    document = Document(
        document_id=document_id,
        corpus=corpus,
        title="",
        source_uri=f"{corpus}:{document_id}",
        content_sha256=hashlib.sha256(text.encode()).hexdigest(),
    )
    chunk = SourceChunk(
        chunk_id=chunk_id_for(document_id, 1, text, 0),
        document_id=document_id,
        document_version=1,
        document_title="",
        corpus=corpus,
        chunk_text=text,
        char_start=0,
        char_end=len(text),
    )
    return document, chunk


def _passage_store(
    path: Path, passages: dict[str, str], corpus: str, embedder: DiskCachedEmbedder
) -> SQLiteStore:
    """One single-chunk document per passage; built once, reused from the cache folder."""
    fresh = not path.exists()
    store = SQLiteStore(path)
    if fresh:
        ids = list(passages)
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            vectors = embedder.embed([passages[i] for i in batch])
            embedder.save()
            for document_id, vector in zip(batch, vectors, strict=True):
                document, chunk = _passage_document(document_id, passages[document_id], corpus)
                store.add_version(
                    NewVersion(document, chunk.chunk_text, (), [chunk], vector[None, :])
                )
            print(f"  {corpus}: {start + len(batch)}/{len(ids)} passages stored", flush=True)
    return store


def halueval_question_split(
    n_rows: int, n_train: int, n_heldout: int, seed: int
) -> tuple[list[int], list[int]]:
    """The HaluEval items (row indices) the reranker trains on and reports on, by hash."""
    items = sorted(range(n_rows), key=lambda i: _unit_hash(f"halueval:{i}", seed))
    train = [i for i in items if _unit_hash(f"split:{i}", seed) < 0.5][:n_train]
    heldout = [i for i in items if _unit_hash(f"split:{i}", seed) >= 0.5][:n_heldout]
    return train, heldout


def halueval_corpus(
    cache: Path, embedder: DiskCachedEmbedder, n_train: int, n_heldout: int, seed: int
) -> Corpus:
    """HaluEval's distinct knowledge passages; its questions split by item into train and
    held-out halves (a question's relevant passage is its own)."""
    rows = [
        json.loads(line)
        for line in (DEFAULT_ROOT / "halueval" / "qa_train.jsonl").read_text().splitlines()
        if line.strip()
    ]
    passages: dict[str, str] = {}
    ids_by_text: dict[str, str] = {}
    for row in rows:
        text = row["knowledge"].strip()
        if text not in ids_by_text:
            ids_by_text[text] = f"hq-{len(ids_by_text):05d}"
            passages[ids_by_text[text]] = text
    store = _passage_store(cache / "halueval.db", passages, "halueval", embedder)
    train_items, heldout_items = halueval_question_split(len(rows), n_train, n_heldout, seed)

    def query(i: int) -> Query:
        document_id = ids_by_text[rows[i]["knowledge"].strip()]
        return Query(rows[i]["question"], lambda c: c.document_id == document_id, SearchFilters())

    return Corpus(
        "HaluEval", store, [query(i) for i in train_items], [query(i) for i in heldout_items]
    )


def rgb_corpus(cache: Path, embedder: DiskCachedEmbedder) -> Corpus:
    """Each query ranks its own passages only: positives against negatives."""
    text = (DEFAULT_ROOT / "rgb" / "en_fact.json").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    passages: dict[str, str] = {}
    queries = []
    for row in rows:
        ids = []
        for kind in ("positive", "negative"):
            for j, passage in enumerate(row[kind]):
                document_id = f"rgb-{row['id']}-{kind}-{j}"
                passages[document_id] = passage
                ids.append(document_id)
        queries.append(
            Query(
                row["query"],
                lambda c: "-positive-" in c.document_id,
                SearchFilters(document_ids=tuple(ids)),
            )
        )
    store = _passage_store(cache / "rgb.db", passages, "rgb", embedder)
    return Corpus("RGB", store, [], queries)


def factcheck_corpus(cache: Path, embedder: DiskCachedEmbedder) -> Corpus:
    """Factcheck-GPT: each ChatGPT claim ranks the 5 web passages retrieved for it; a
    passage is relevant unless annotated irrelevant (claims with both kinds only)."""
    path = DEFAULT_ROOT / "factcheck_gpt" / "subtask3_claim_evidence_stance.jsonl"
    by_claim: dict[str, list[dict[str, Any]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            by_claim.setdefault(row["claim"].strip(), []).append(row)
    passages: dict[str, str] = {}
    queries = []
    for n, (claim, items) in enumerate(by_claim.items()):
        ids = tuple(f"fc-{n:03d}-{j}" for j in range(len(items)))
        relevant = frozenset(
            i for i, r in zip(ids, items, strict=True) if r["stance"] != "irrelevant"
        )
        if 0 < len(relevant) < len(items):
            passages.update((i, r["evidence"].strip()) for i, r in zip(ids, items, strict=True))
            queries.append(
                Query(claim, functools.partial(_in, ids=relevant), SearchFilters(document_ids=ids))
            )
    store = _passage_store(cache / "factcheck.db", passages, "factcheck", embedder)
    return Corpus("Factcheck-GPT", store, [], queries)


def _in(chunk: SourceChunk, *, ids: frozenset[str]) -> bool:
    return chunk.document_id in ids


def demo_corpus(
    cache: Path, embedder: DiskCachedEmbedder, documents: Path, questions_file: Path
) -> Corpus:
    """The demo documents, ingested as `ragcite ingest` does; the answerable labelled
    questions, relevance as `chunk_is_relevant`."""
    path = cache / "demo.db"
    fresh = not path.exists()
    store = SQLiteStore(path)
    if fresh:
        Indexer(store, embedder, chunking=load_settings(store_path=path).chunk).ingest([documents])
    questions = [q for q in load_questions(questions_file) if q.answerable]
    return Corpus(
        "demo",
        store,
        [],
        [
            Query(q.query, functools.partial(_relevant, question=q), SearchFilters())
            for q in questions
        ],
    )


def _relevant(chunk: SourceChunk, *, question: LabelledQuestion) -> bool:
    return chunk_is_relevant(chunk, question)
