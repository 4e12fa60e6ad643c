"""Reranker specs (`rerank.backend`, `--reranker`) and their wiring into the pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcite.config import load_settings
from ragcite.embed.base import Embedder
from ragcite.errors import ConfigError
from ragcite.pipeline import Ragcite
from ragcite.rerank.cohere import CohereReranker
from ragcite.rerank.cross_encoder import CrossEncoderReranker
from ragcite.rerank.factory import build_reranker
from ragcite.rerank.learned import LearnedReranker
from ragcite.rerank.llm_judge import LLMJudgeReranker
from tests.rerank.conftest import BuildCrossEncoder


def test_specs(
    embedder: Embedder, build_cross_encoder: BuildCrossEncoder, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert isinstance(build_reranker("learned", embedder), LearnedReranker)
    assert isinstance(build_reranker(" Learned ", embedder), LearnedReranker)
    folder = build_cross_encoder(onnx_name="onnx/model_qint8_arm64.onnx")
    cross = build_reranker(f"cross-encoder:{folder}", embedder)
    assert isinstance(cross, CrossEncoderReranker) and cross.model_path.parent.name == "onnx"
    chosen = build_reranker(f"cross-encoder:{folder}#onnx/model_qint8_arm64.onnx", embedder)
    assert isinstance(chosen, CrossEncoderReranker)
    monkeypatch.setenv("COHERE_API_KEY", "k")
    cohere = build_reranker("cohere:rerank-v3.5", embedder)
    assert isinstance(cohere, CohereReranker) and cohere.name == "cohere:rerank-v3.5"
    assert cohere.base_url == "https://api.cohere.com"
    monkeypatch.setenv("RAGCITE_COHERE_BASE_URL", "http://127.0.0.1:9999/")
    moved = build_reranker("cohere:rerank-v3.5", embedder)
    assert isinstance(moved, CohereReranker) and moved.base_url == "http://127.0.0.1:9999"
    judge = build_reranker("llm:local:smollm2", embedder)  # the model loads on first use
    assert isinstance(judge, LLMJudgeReranker) and judge.name == "llm:local:smollm2"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("bm25", "'bm25' is not recognised: use learned, cross-encoder:DIR"),
        ("learned:v2", "'learned:v2' is not recognised"),
        ("cohere:", "'cohere:' is not recognised"),
        ("cross-encoder:", "'cross-encoder:' is not recognised"),
        ("llm:", "'llm:' is not recognised"),
        ("llm:extractive", "'llm:extractive'.*not a language model"),
        ("llm:gpt-4", "'llm:gpt-4'.*'gpt-4' is not recognised"),
    ],
)
def test_bad_specs_name_the_spec(embedder: Embedder, spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        build_reranker(spec, embedder)


def test_missing_keys_name_the_variable(
    embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COHERE_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="COHERE_API_KEY"):
        build_reranker("cohere:rerank-v3.5", embedder)
    with pytest.raises(ConfigError, match=r"'llm:openai:gpt-4o-mini'.*OPENAI_API_KEY"):
        build_reranker("llm:openai:gpt-4o-mini", embedder)


def test_default_backend_is_learned(demo_rag: Ragcite) -> None:
    assert demo_rag.settings.rerank.backend == "learned"
    assert isinstance(demo_rag.reranker, LearnedReranker)


def test_pipeline_reranks_with_the_configured_backend(
    demo_store_path: Path, build_cross_encoder: BuildCrossEncoder
) -> None:
    folder = build_cross_encoder()
    settings = load_settings(
        store_path=demo_store_path,
        # No fast path, so the reranker scores every chunk.
        overrides={"rerank.backend": f"cross-encoder:{folder}", "rerank.fast_path_min_score": 1.0},
    )
    rag = Ragcite.open(settings)
    try:
        assert isinstance(rag.reranker, CrossEncoderReranker)
        chunks, timings = rag.search("How long are backups kept?", k=4)
        assert len(chunks) == 4 and "rerank" in timings
        assert all(0.0 <= c.reranker_score <= 1.0 for c in chunks)
        expected = rag.reranker.score("How long are backups kept?", chunks)
        assert [c.reranker_score for c in chunks] == pytest.approx(expected, abs=1e-4)
    finally:
        rag.close()


def test_a_missing_key_does_not_break_ingest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COHERE_API_KEY", raising=False)
    settings = load_settings(
        store_path=tmp_path / "s.db", overrides={"rerank.backend": "cohere:rerank-v3.5"}
    )
    rag = Ragcite.open(settings)
    try:
        (tmp_path / "note.md").write_text("# Leave\n\nParental leave is 16 weeks.\n")
        assert rag.ingest([tmp_path / "note.md"]).added == 1
        with pytest.raises(ConfigError, match="COHERE_API_KEY"):
            rag.search("How long is parental leave?")
    finally:
        rag.close()


def test_every_built_in_reranker_is_an_entry_point() -> None:
    from ragcite.registry import RERANKERS, installed

    assert {"learned", "cross-encoder", "cohere", "llm"} <= set(installed(RERANKERS))
