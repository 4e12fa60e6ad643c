"""Rebuild the static (lookup-table) embedder from the packaged MiniLM int8 model.

    python scripts/build_static_embedder.py      # about 15 s on 2 cores, deterministic

The model2vec recipe, without torch: every word piece of MiniLM's vocabulary goes
through the model alone ("[CLS] piece [SEP]", mean-pooled like a sentence), the table is
centred and reduced to 256 dimensions by PCA, each row is down-weighted by how common
its piece is (SIF, a = 1e-3, with a Zipf estimate from the vocabulary rank), and stored
as int8 with one scale per row. Writes src/ragcite/embed/assets/minilm-static.npz.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ragcite.embed.minilm import MiniLMEmbedder

OUT = Path(__file__).resolve().parents[1] / "src/ragcite/embed/assets/minilm-static.npz"
DIMENSIONS = 256
SIF = 1e-3
CLS, SEP = 101, 102


def piece_vectors(embedder: MiniLMEmbedder, size: int, batch: int = 1024) -> np.ndarray:
    """Each vocabulary piece's MiniLM vector, embedded on its own."""
    embedder.warm_up()
    out = np.zeros((size, embedder.dimension), dtype=np.float32)
    for start in range(0, size, batch):
        ids = np.arange(start, min(size, start + batch))
        tokens = np.stack([np.full(len(ids), CLS), ids, np.full(len(ids), SEP)], axis=1)
        feeds = {
            "input_ids": tokens.astype(np.int64),
            "attention_mask": np.ones_like(tokens, dtype=np.int64),
            "token_type_ids": np.zeros_like(tokens, dtype=np.int64),
        }
        out[ids] = embedder._session.run(None, feeds)[0].mean(axis=1)
    return out


def main() -> None:
    started = time.perf_counter()
    embedder = MiniLMEmbedder()
    embedder.warm_up()
    size = embedder._tokenizer.get_vocab_size()
    raw = piece_vectors(embedder, size)
    centred = raw - raw.mean(axis=0)
    _, _, components = np.linalg.svd(centred, full_matrices=False)
    table = centred @ components[:DIMENSIONS].T
    inverse_rank = 1.0 / np.arange(2, size + 2)
    table *= (SIF / (SIF + inverse_rank / inverse_rank.sum()))[:, None]
    scale = np.abs(table).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    quantised = np.round(table / scale[:, None]).astype(np.int8)
    np.savez_compressed(OUT, vectors=quantised, scale=scale.astype(np.float32))
    seconds = time.perf_counter() - started
    megabytes = OUT.stat().st_size / 1e6
    print(f"{size} pieces x {DIMENSIONS} dims -> {OUT} ({megabytes:.1f} MB, {seconds:.0f} s)")


if __name__ == "__main__":
    main()
