"""The in-process GGUF generator with the packaged SmolLM2 (real model, short answers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcite.errors import ConfigError
from ragcite.generate.local_llama import LocalLlamaGenerator
from ragcite.llm.local import smollm2_path
from ragcite.models import SourceChunk


def test_smollm2_answers_in_schema(small_chunks: list[SourceChunk]) -> None:
    generator = LocalLlamaGenerator(
        smollm2_path(), n_ctx=2048, n_threads=1, max_tokens=160, max_claims=1, max_chars=60
    )
    draft = generator.generate("How long is parental leave?", small_chunks)
    assert draft.model_id == "local:SmolLM2-135M-Instruct.Q4_1.gguf"
    assert generator.can_retry
    ids = {c.chunk_id for c in small_chunks}
    assert len(draft.claims) <= 1
    assert all(c.chunk_id in ids for claim in draft.claims for c in claim.citations)
    generator.close()


def test_missing_gguf_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="GGUF model file not found"):
        LocalLlamaGenerator(tmp_path / "nope.gguf")
