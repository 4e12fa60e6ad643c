"""A local cross-encoder (sentence-transformers layout, exported to ONNX) on onnxruntime.

The directory holds `tokenizer.json` and an ONNX model at `onnx/model.onnx` or
`model.onnx` (the layout sentence-transformers' ONNX backend writes; any other file,
such as `onnx/model_qint8_avx512.onnx`, can be named explicitly). Each (query,
passage) pair is encoded together, truncated to the model's maximum length, and scored
in batches; one logit becomes a probability through a sigmoid, several (NLI-style)
through a softmax, reading the "entailment"/"relevant" column of `config.json`'s
`id2label` (else the last). No torch at run time.

    >>> reranker = CrossEncoderReranker(Path("models/ms-marco-MiniLM-L-6-v2"))
    >>> reranker.score_pairs("How long is parental leave?", ["16 weeks of paid leave.", "Backups."])
    [0.98, 0.01]
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ragcite.embed.onnx import cpu_session
from ragcite.errors import ModelError
from ragcite.models import SourceChunk
from ragcite.rerank.base import passage_text

DEFAULT_MAX_LENGTH = 512
ONNX_CANDIDATES = ("onnx/model.onnx", "model.onnx")
TORCH_WEIGHTS = ("model.safetensors", "pytorch_model.bin")
_POSITIVE_LABELS = ("entail", "relevant", "positive", "yes", "true")
_NEGATIVE_PREFIXES = ("not", "non", "ir", "un")

Floats = npt.NDArray[np.float64]


class CrossEncoderReranker:
    """Scores (query, passage) pairs with a cross-encoder ONNX model in `model_dir`."""

    def __init__(
        self,
        model_dir: Path,
        *,
        onnx_file: str | None = None,
        max_length: int | None = None,
        batch_size: int = 16,
        threads: int | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be > 0, but got {batch_size}")
        if max_length is not None and max_length < 8:
            raise ValueError(f"max_length must be >= 8, but got {max_length}")
        self.model_dir = Path(model_dir).expanduser()
        if not self.model_dir.is_dir():
            raise ModelError(
                f"cross-encoder directory {self.model_dir} not found: point cross-encoder:PATH "
                "at a sentence-transformers model directory"
            )
        self.model_path = find_onnx_model(self.model_dir, onnx_file)
        self.tokenizer_path = self.model_dir / "tokenizer.json"
        if not self.tokenizer_path.is_file():
            raise ModelError(
                f"{self.model_dir} has no tokenizer.json: save the model's fast tokenizer "
                "there (AutoTokenizer.from_pretrained(...).save_pretrained(DIR))"
            )
        self.max_length = max_length or configured_max_length(self.model_dir)
        # The output column that means "relevant" when the model has several.
        self.label_column = relevant_label_column(self.model_dir)
        self.batch_size = batch_size
        self.threads = threads
        self.name = f"cross-encoder:{self.model_dir.name}"
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_types: dict[str, Any] = {}
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the ONNX model and the tokenizer (once)."""
        with self._lock:
            if self._session is not None:
                return
            from tokenizers import Tokenizer

            try:
                session = cpu_session(self.model_path, self.threads)
                tokenizer = Tokenizer.from_file(str(self.tokenizer_path))
            except Exception as exc:  # onnxruntime and tokenizers raise untyped errors
                raise ModelError(
                    f"could not load the cross-encoder in {self.model_dir}: {exc}"
                ) from None
            tokenizer.enable_truncation(max_length=self.max_length)
            tokenizer.enable_padding(**_padding(tokenizer, self.model_dir))
            self._input_types = {i.name: _numpy_int(i.type) for i in session.get_inputs()}
            self._tokenizer = tokenizer
            self._session = session

    def score(self, query: str, chunks: list[SourceChunk]) -> list[float]:
        return self.score_pairs(query, [passage_text(c) for c in chunks])

    def score_pairs(self, query: str, passages: list[str]) -> list[float]:
        """One relevance probability in [0, 1] per passage, in order."""
        if not passages:
            return []
        self.warm_up()
        # Sorting by length keeps padding small inside each batch.
        order = sorted(range(len(passages)), key=lambda i: len(passages[i]))
        out = np.empty(len(passages), dtype=np.float64)
        for start in range(0, len(order), self.batch_size):
            ids = order[start : start + self.batch_size]
            out[ids] = self._score_batch(query, [passages[i] for i in ids])
        return [float(p) for p in out]

    def _score_batch(self, query: str, passages: list[str]) -> Floats:
        encodings = self._tokenizer.encode_batch([(query, p) for p in passages])
        columns = {
            "input_ids": [e.ids for e in encodings],
            "attention_mask": [e.attention_mask for e in encodings],
            "token_type_ids": [e.type_ids for e in encodings],
        }
        feeds = {
            name: np.array(columns[name], dtype=dtype)
            for name, dtype in self._input_types.items()
            if name in columns
        }
        missing = set(self._input_types) - set(feeds)
        if missing:
            raise ModelError(
                f"{self.model_path} expects inputs {sorted(missing)} that a text "
                "cross-encoder does not have: is it a sequence-classification export?"
            )
        try:
            outputs = self._session.run(None, feeds)
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise ModelError(f"the cross-encoder {self.model_path} failed: {exc}") from None
        return logits_to_probability(np.asarray(outputs[0], dtype=np.float64), self.label_column)


def find_onnx_model(model_dir: Path, onnx_file: str | None = None) -> Path:
    """The ONNX file to run: `onnx_file` if given, else the standard places, else an
    int8 variant; ModelError saying how to export one when there is none."""
    if onnx_file:
        path = model_dir / onnx_file
        if not path.is_file():
            raise ModelError(f"{path}: ONNX file not found")
        return path
    for name in ONNX_CANDIDATES:
        if (model_dir / name).is_file():
            return model_dir / name
    variants = sorted(model_dir.glob("onnx/model*.onnx")) + sorted(model_dir.glob("model*.onnx"))
    if variants:
        return variants[0]
    export = (
        f"optimum-cli export onnx --model {model_dir} --task text-classification {model_dir}/onnx"
    )
    if any((model_dir / name).is_file() for name in TORCH_WEIGHTS):
        raise ModelError(
            f"{model_dir} holds PyTorch weights only; ragcite runs cross-encoders with "
            f"onnxruntime. Export them once with: {export}"
        )
    raise ModelError(
        f"no ONNX model in {model_dir} (looked for {', '.join(ONNX_CANDIDATES)}); "
        f"export one with: {export}"
    )


def configured_max_length(model_dir: Path) -> int:
    """The model's maximum sequence length from its config files, else 512."""
    limits = [
        _read_json(model_dir / "sentence_bert_config.json").get("max_seq_length"),
        _read_json(model_dir / "tokenizer_config.json").get("model_max_length"),
    ]
    for value in limits:
        # Tokenizers without a limit store a huge sentinel (1e30).
        if isinstance(value, int | float) and 8 <= value <= 100_000:
            return int(value)
    return DEFAULT_MAX_LENGTH


def relevant_label_column(model_dir: Path) -> int:
    """The `id2label` index whose label means entailment/relevance, else the last (-1)."""
    id2label = _read_json(model_dir / "config.json").get("id2label")
    if isinstance(id2label, dict):
        for index, label in id2label.items():
            name = str(label).casefold().replace("-", "_")
            if name.startswith(_NEGATIVE_PREFIXES):
                continue
            if any(word in name for word in _POSITIVE_LABELS) and str(index).isdigit():
                return int(index)
    return -1


def logits_to_probability(logits: Floats, column: int = -1) -> Floats:
    """Sigmoid of a single logit per row; softmax over several, then `column`'s share."""
    if logits.ndim == 1:
        logits = logits[:, None]
    if logits.shape[1] == 1:
        probability: Floats = 1.0 / (1.0 + np.exp(-logits[:, 0]))
        return probability
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    softmax: Floats = shifted / shifted.sum(axis=1, keepdims=True)
    return softmax[:, column]


def _padding(tokenizer: Any, model_dir: Path) -> dict[str, Any]:
    """The pad token: the tokenizer's own padding setting, its config, or a usual name."""
    if tokenizer.padding:
        return {"pad_id": tokenizer.padding["pad_id"], "pad_token": tokenizer.padding["pad_token"]}
    configured = _read_json(model_dir / "tokenizer_config.json").get("pad_token")
    if isinstance(configured, dict):  # an AddedToken saved as a dict
        configured = configured.get("content")
    for token in (configured, "[PAD]", "<pad>"):
        if isinstance(token, str) and tokenizer.token_to_id(token) is not None:
            return {"pad_id": tokenizer.token_to_id(token), "pad_token": token}
    return {"pad_id": 0, "pad_token": "[PAD]"}


def _numpy_int(onnx_type: str) -> type[np.integer[Any]]:
    return np.int32 if onnx_type == "tensor(int32)" else np.int64


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
