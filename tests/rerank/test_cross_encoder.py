"""The ONNX cross-encoder reranker, on a cross-encoder-shaped model grafted from MiniLM.

The fixture's scores carry no meaning: these tests check loading, shapes, batching,
truncation and errors, not ranking quality.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ragcite.errors import ModelError
from ragcite.models import SourceChunk
from ragcite.rerank.cross_encoder import (
    CrossEncoderReranker,
    configured_max_length,
    logits_to_probability,
    relevant_label_column,
)
from tests.rerank.conftest import BuildCrossEncoder

QUERY = "How long is parental leave?"
PASSAGES = [
    "Primary caregivers receive 16 weeks of paid leave.",
    "Full system backups are kept for 35 days.",
    "Travel must be booked through the company portal at least two weeks ahead.",
    "Leave",
]


def _chunk(text: str, i: int = 0) -> SourceChunk:
    return SourceChunk(
        chunk_id=f"c_{i}",
        document_id="d",
        document_title="Handbook",
        section_heading="Benefits",
        chunk_text=text,
        char_start=0,
        char_end=len(text),
    )


def test_loads_and_scores_in_unit_interval(build_cross_encoder: BuildCrossEncoder) -> None:
    reranker = CrossEncoderReranker(build_cross_encoder())
    scores = reranker.score(QUERY, [_chunk(t, i) for i, t in enumerate(PASSAGES)])
    assert len(scores) == len(PASSAGES)
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert len(set(scores)) > 1  # the passages are told apart, whatever the order
    assert reranker.name == "cross-encoder:tiny-cross-encoder"
    assert reranker.score(QUERY, []) == []


def test_deterministic_and_batch_equals_one_by_one(build_cross_encoder: BuildCrossEncoder) -> None:
    reranker = CrossEncoderReranker(build_cross_encoder(), batch_size=3)
    batched = reranker.score_pairs(QUERY, PASSAGES)
    assert reranker.score_pairs(QUERY, PASSAGES) == batched
    single = [reranker.score_pairs(QUERY, [p])[0] for p in PASSAGES]
    np.testing.assert_allclose(batched, single, atol=1e-4)


def test_long_inputs_are_truncated(build_cross_encoder: BuildCrossEncoder) -> None:
    reranker = CrossEncoderReranker(build_cross_encoder(max_seq_length=32))
    assert reranker.max_length == 32
    head = " ".join(["parental leave lasts sixteen weeks"] * 10)  # already past 32 tokens
    [short, long] = reranker.score_pairs(QUERY, [head, head + " backups" * 2000])
    assert short == pytest.approx(long, abs=1e-6)
    # Without a configured limit, 512 tokens; a very long passage still scores.
    default = CrossEncoderReranker(build_cross_encoder(name="default-length"))
    assert default.max_length == 512
    [score] = default.score_pairs(QUERY, ["word " * 5000])
    assert 0.0 <= score <= 1.0


def test_nli_style_model_reads_the_entailment_column(
    build_cross_encoder: BuildCrossEncoder,
) -> None:
    labels = {"0": "contradiction", "1": "entailment", "2": "neutral"}
    folder = build_cross_encoder(n_labels=3, id2label=labels)
    assert relevant_label_column(folder) == 1
    scores = CrossEncoderReranker(folder).score_pairs(QUERY, PASSAGES)
    assert all(0.0 <= s <= 1.0 for s in scores)


def test_logits_to_probability() -> None:
    np.testing.assert_allclose(logits_to_probability(np.array([[0.0], [100.0]])), [0.5, 1.0])
    three = logits_to_probability(np.array([[0.0, 0.0, np.log(2.0)]]), column=2)
    np.testing.assert_allclose(three, [0.5])


def test_label_column_falls_back_to_the_last(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text('{"id2label": {"0": "not_relevant", "1": "LABEL_1"}}')
    assert relevant_label_column(tmp_path) == -1
    (tmp_path / "config.json").write_text('{"id2label": {"0": "irrelevant", "1": "relevant"}}')
    assert relevant_label_column(tmp_path) == 1


def test_max_length_from_tokenizer_config(tmp_path: Path) -> None:
    (tmp_path / "tokenizer_config.json").write_text('{"model_max_length": 256}')
    assert configured_max_length(tmp_path) == 256
    (tmp_path / "tokenizer_config.json").write_text('{"model_max_length": 1e30}')
    assert configured_max_length(tmp_path) == 512


def test_root_model_onnx_and_explicit_int8_file(build_cross_encoder: BuildCrossEncoder) -> None:
    root = build_cross_encoder(onnx_name="model.onnx", name="root-layout")
    assert CrossEncoderReranker(root).model_path == root / "model.onnx"
    quantized = build_cross_encoder(onnx_name="onnx/model_qint8_avx512.onnx", name="int8")
    assert CrossEncoderReranker(quantized).model_path.name == "model_qint8_avx512.onnx"
    chosen = CrossEncoderReranker(quantized, onnx_file="onnx/model_qint8_avx512.onnx")
    assert 0.0 <= chosen.score_pairs(QUERY, ["text"])[0] <= 1.0


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        CrossEncoderReranker(tmp_path / "nowhere")


def test_no_onnx_model(build_cross_encoder: BuildCrossEncoder) -> None:
    with pytest.raises(ModelError, match=r"no ONNX model.*optimum-cli export onnx"):
        CrossEncoderReranker(build_cross_encoder(onnx_name=None))


def test_pytorch_weights_only_says_how_to_export(build_cross_encoder: BuildCrossEncoder) -> None:
    folder = build_cross_encoder(onnx_name=None)
    (folder / "model.safetensors").write_bytes(b"\0")
    with pytest.raises(ModelError, match="PyTorch weights only") as error:
        CrossEncoderReranker(folder)
    assert f"--task text-classification {folder}/onnx" in str(error.value)


def test_no_tokenizer(build_cross_encoder: BuildCrossEncoder) -> None:
    with pytest.raises(ModelError, match=r"no tokenizer\.json"):
        CrossEncoderReranker(build_cross_encoder(tokenizer=False))


def test_explicit_onnx_file_missing(build_cross_encoder: BuildCrossEncoder) -> None:
    with pytest.raises(ModelError, match="ONNX file not found"):
        CrossEncoderReranker(build_cross_encoder(), onnx_file="onnx/model_O4.onnx")
