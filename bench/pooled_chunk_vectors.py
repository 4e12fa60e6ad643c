"""Could ingest skip the chunk pass? Dense retrieval with each chunk's own vector against one
pooled from its stored sentence vectors, run by hand (never in tests).

    python bench/pooled_chunk_vectors.py

Ingests the held-out SQuAD 2.0 paragraphs and HaluEval items 1,500-1,799 of
`bench/answer_choice.py` (one document each), then ranks documents for each question by the
cosine of its vector with every chunk vector, three ways: the chunk text's own vector (what
ingest stores), the mean of the chunk's sentence vectors (the heading forms the reranker
uses) weighted by their length in words, and their plain mean. Prints recall@1/3/5 of the
question's document.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from answer_choice import _halueval, _squad

from ragcite.config import load_settings
from ragcite.index.sentence_vectors import decode_sentence_vectors
from ragcite.pipeline import Ragcite
from ragcite.text.sentence_forms import chunk_sentence_forms, sentences_with_forms


def _pooled(
    text: str, heading: str | None, own: np.ndarray, blob: bytes | None
) -> list[np.ndarray]:
    """(length-weighted, plain) means of the chunk's heading-form sentence vectors."""
    forms = chunk_sentence_forms(text, heading)
    vectors = decode_sentence_vectors(blob, forms) if blob else None
    heading_forms = [f[2][0] for f in sentences_with_forms(text, heading)]
    rows = [forms.index(h) for h in heading_forms if h in forms]
    if vectors is None or not rows:
        return [own, own]
    chosen = vectors[rows]
    lengths = np.array([len(heading_forms[i].split()) for i in range(len(rows))], np.float32)
    out = [(chosen * lengths[:, None]).sum(0), chosen.mean(0)]
    return [v / np.linalg.norm(v) for v in out]


def run(name: str, docs: dict[str, str], questions: list[dict[str, Any]], tmp: Path) -> None:
    folder = tmp / name
    folder.mkdir()
    for doc_id, text in docs.items():
        (folder / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    store = tmp / f"{name}.db"
    rag = Ragcite.open(load_settings(store_path=store, overrides={"cache.enabled": False}))
    rag.ingest([folder])
    asked = rag.embedder.embed([q["q"] for q in questions])
    rag.close()
    with sqlite3.connect(store) as db:
        rows = db.execute(
            "SELECT document_id, chunk_text, section_heading, vector, sentence_vectors FROM chunks"
        ).fetchall()
    owners = [r[0] for r in rows]
    own = [np.frombuffer(r[3], dtype=np.float32) for r in rows]
    pooled = [_pooled(r[1], r[2], v, r[4]) for r, v in zip(rows, own, strict=True)]
    ways = {
        "chunk_text": np.stack(own),
        "pooled_by_length": np.stack([p[0] for p in pooled]),
        "pooled_mean": np.stack([p[1] for p in pooled]),
    }
    for way, matrix in ways.items():
        hits = np.zeros(3)
        for q, sims in zip(questions, asked @ matrix.T, strict=True):
            ranked: list[str] = []
            for j in np.argsort(-sims):
                if owners[j] not in ranked:
                    ranked.append(owners[j])
                if len(ranked) == 5:
                    break
            found = [q["doc"] in d for d in ranked]
            hits += [any(found[:1]), any(found[:3]), any(found[:5])]
        recall = [round(float(h) / len(questions), 3) for h in hits]
        print(f"[{name}] {len(docs)} documents, {len(rows)} chunks, {way}: recall@1/3/5 {recall}")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run("squad2", *_squad(10_000), Path(tmp))
        run("halueval", *_halueval(1500, 300), Path(tmp))


if __name__ == "__main__":
    main()
