"""The one parser of LLM specs (`generate.llm`, `gate.support_judge`, `llm:` rerankers).

openai:MODEL                    OpenAI (key from $OPENAI_API_KEY)
anthropic:MODEL                 Claude ($ANTHROPIC_API_KEY)
local:PATH.gguf | local:smollm2 a GGUF model in process (llama.cpp via xllamacpp)
openai-compatible:URL#MODEL     vLLM, Ollama, llama.cpp server, ... (optional key from
                                $RAGCITE_LLM_API_KEY)

>>> parse_llm_spec("openai-compatible:http://127.0.0.1:8080/v1#qwen2.5")
LLMSpec(kind='openai-compatible', model='qwen2.5', base_url='http://127.0.0.1:8080/v1', path=None)
>>> parse_llm_spec("local:~/models/m.gguf").path
PosixPath('/home/me/models/m.gguf')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ragcite.errors import ConfigError

LLMKind = Literal["openai", "openai-compatible", "anthropic", "local"]
LLM_KINDS: tuple[LLMKind, ...] = ("openai", "openai-compatible", "anthropic", "local")
LLM_SPEC_HELP = (
    "use openai:MODEL, anthropic:MODEL, local:PATH.gguf, local:smollm2 "
    "or openai-compatible:URL#MODEL"
)
SMOLLM2 = "smollm2"


@dataclass(frozen=True)
class LLMSpec:
    """A parsed LLM spec. `model` is the model's name (for `local`, the file's name or
    `smollm2`); `base_url` is set for `openai-compatible`; `path` for `local:PATH.gguf`
    (None for the packaged `local:smollm2`, found when the model is built)."""

    kind: LLMKind
    model: str
    base_url: str | None = None
    path: Path | None = None

    @property
    def text(self) -> str:
        """The spec written back (the model ID of what it builds)."""
        if self.kind == "openai-compatible":
            return f"openai-compatible:{self.base_url}#{self.model}"
        if self.kind == "local":
            return f"local:{self.path if self.path is not None else self.model}"
        return f"{self.kind}:{self.model}"


def parse_llm_spec(spec: str) -> LLMSpec:
    """The typed spec; ConfigError naming the spec and the accepted forms otherwise.
    Checks shape only: a missing key or model file is found when the model is built."""
    kind, _, rest = spec.strip().partition(":")
    kind, rest = kind.strip().casefold(), rest.strip()
    if kind == "extractive" and not rest:
        raise ConfigError(f"'extractive' is not a language model: {LLM_SPEC_HELP}")
    if not rest:
        raise ConfigError(f"LLM spec {spec!r} is not recognised: {LLM_SPEC_HELP}")
    if kind in ("openai", "anthropic"):
        return LLMSpec(kind="openai" if kind == "openai" else "anthropic", model=rest)
    if kind == "openai-compatible":
        url, hash_mark, model = rest.rpartition("#")
        if not hash_mark or not url.strip() or not model.strip():
            raise ConfigError(
                f"LLM spec {spec!r} needs a model after '#': "
                "openai-compatible:http://127.0.0.1:8080/v1#MODEL"
            )
        return LLMSpec(kind="openai-compatible", model=model.strip(), base_url=url.strip())
    if kind == "local":
        if rest.casefold() == SMOLLM2:
            return LLMSpec(kind="local", model=SMOLLM2)
        path = Path(rest).expanduser()
        if path.suffix.casefold() != ".gguf":
            raise ConfigError(
                f"LLM spec {spec!r}: local models are GGUF files (local:PATH.gguf or local:smollm2)"
            )
        return LLMSpec(kind="local", model=path.name, path=path)
    raise ConfigError(f"LLM spec {spec!r} is not recognised: {LLM_SPEC_HELP}")
