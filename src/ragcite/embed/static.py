"""Static sentence vectors: a lookup table of MiniLM's word pieces, averaged.

Built from the packaged MiniLM int8 model by `scripts/build_static_embedder.py` (the
model2vec recipe: each piece embedded alone, PCA to 256 dimensions, common pieces
down-weighted, int8). No transformer runs at embedding time, so it embeds tens of
thousands of short texts per second on one core; it is the support checker's fast
semantic layer, not a retrieval embedder (it is far weaker at ranking passages).

    >>> embedder = StaticEmbedder()
    >>> embedder.embed(["Stores close at 9 pm.", "Our shops shut at nine."]).shape
    (2, 256)
"""

from __future__ import annotations

import io
import threading
from importlib import resources
from typing import Any

import numpy as np

from ragcite.embed.base import Vectors
from ragcite.errors import ModelError

TABLE_FILE = "assets/minilm-static.npz"
TOKENIZER_FILE = "assets/minilm-tokenizer.json"
MAX_PIECES = 256


class StaticEmbedder:
    """Mean of the shipped word-piece vectors, L2-normalised (an `Embedder`)."""

    model_id = "minilm-static-256-int8"
    dimension = 256

    def __init__(self) -> None:
        self._table: Vectors | None = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the table and the tokenizer (once)."""
        with self._lock:
            if self._table is not None:
                return
            from tokenizers import Tokenizer

            assets = resources.files("ragcite.embed")
            try:
                data = np.load(io.BytesIO(assets.joinpath(TABLE_FILE).read_bytes()))
                table = data["vectors"].astype(np.float32) * data["scale"][:, None]
            except (OSError, KeyError, ValueError) as exc:
                raise ModelError(
                    f"could not read the static embedding table {TABLE_FILE}: {exc}; "
                    "rebuild it with python scripts/build_static_embedder.py"
                ) from None
            tokenizer = Tokenizer.from_str(assets.joinpath(TOKENIZER_FILE).read_text("utf-8"))
            tokenizer.no_padding()
            tokenizer.enable_truncation(max_length=MAX_PIECES)
            self._tokenizer = tokenizer
            self._table = table.astype(np.float32)

    def embed(self, texts: list[str]) -> Vectors:
        """One normalised 256-d vector per text (zeros for a text with no word pieces)."""
        self.warm_up()
        assert self._table is not None and self._tokenizer is not None
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(texts, add_special_tokens=False)
        lengths = np.array([len(e.ids) for e in encodings])
        present = lengths > 0
        if not present.any():
            return out
        ids = np.concatenate([e.ids for e in encodings if e.ids])
        starts = np.concatenate([[0], np.cumsum(lengths[present])[:-1]])
        sums = np.add.reduceat(self._table[ids], starts, axis=0)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        out[present] = sums / np.clip(norms, 1e-12, None)
        return out
