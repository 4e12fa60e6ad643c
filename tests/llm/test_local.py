"""The in-process llama.cpp client with the packaged SmolLM2 (a real model, short replies)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragcite.errors import ConfigError
from ragcite.llm.local import LocalLlama, local_model_path, smollm2_path
from ragcite.llm.spec import parse_llm_spec


def test_smollm2_completes_and_follows_a_schema() -> None:
    model = LocalLlama(local_model_path(parse_llm_spec("local:smollm2")), n_ctx=512, n_threads=1)
    assert model.model_id == "local:SmolLM2-135M-Instruct.Q4_1.gguf"
    reply = model.complete("Name one colour.", max_tokens=6)
    assert isinstance(reply, str) and reply.strip()
    schema = {
        "type": "object",
        "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
        "required": ["answer"],
    }
    constrained = model.chat(
        [{"role": "user", "content": "Is the sky blue?"}], max_tokens=64, schema=schema
    )
    assert json.loads(constrained) in ({"answer": "yes"}, {"answer": "no"})
    model.close()


def test_missing_files_and_bad_limits(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="GGUF model file not found"):
        LocalLlama(tmp_path / "nope.gguf")
    with pytest.raises(ValueError, match="max_tokens"):
        LocalLlama(smollm2_path()).complete("q", max_tokens=0)
