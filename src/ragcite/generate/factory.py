"""Build a generator from a spec string (`ragcite ask --llm SPEC`, `generate.llm`).

extractive                              the offline default (the sources' own sentences)
openai:MODEL                            OpenAI (key from $OPENAI_API_KEY)
anthropic:MODEL                         Claude with native citations ($ANTHROPIC_API_KEY)
local:PATH.gguf | local:smollm2         a GGUF model in process (llama.cpp via xllamacpp)
openai-compatible:URL#MODEL             vLLM, Ollama, llama.cpp server, ... (optional key
                                        from $RAGCITE_LLM_API_KEY)

>>> build_generator("openai-compatible:http://127.0.0.1:11434/v1#llama3.1", embedder).model_id
'openai-compatible:http://127.0.0.1:11434/v1#llama3.1'
"""

from __future__ import annotations

from pathlib import Path

from ragcite.config import GenerateSettings
from ragcite.embed.base import Embedder
from ragcite.errors import ConfigError
from ragcite.generate.base import Generator, LLMGenerator
from ragcite.generate.extractive import ExtractiveGenerator

LLM_KINDS = ("openai", "openai-compatible", "anthropic", "local")
SPEC_HELP = (
    "use extractive, openai:MODEL, anthropic:MODEL, local:PATH.gguf, local:smollm2 "
    "or openai-compatible:URL#MODEL"
)


def build_generator(
    spec: str, embedder: Embedder, settings: GenerateSettings | None = None
) -> Generator:
    """The generator `spec` names; ConfigError naming the spec when it names none."""
    settings = settings or GenerateSettings()
    kind, _, rest = spec.strip().partition(":")
    kind = kind.casefold()
    if kind == "extractive" and not rest:
        return ExtractiveGenerator(
            embedder,
            max_claims=settings.max_claims,
            min_relevance=settings.min_sentence_relevance,
            relative_margin=settings.claim_margin,
        )
    return build_llm_generator(spec, settings)


def build_llm_generator(spec: str, settings: GenerateSettings | None = None) -> LLMGenerator:
    """The LLM generator `spec` names (any spec but `extractive`); ConfigError otherwise."""
    settings = settings or GenerateSettings()
    kind, _, rest = spec.strip().partition(":")
    kind = kind.casefold()
    if not rest.strip():
        raise ConfigError(f"LLM spec {spec!r} is not recognised: {SPEC_HELP}")
    rest = rest.strip()
    max_tokens, max_chunks = settings.llm_max_tokens, settings.llm_max_chunks
    if kind == "openai":
        from ragcite.generate.openai_compat import (
            OPENAI_BASE_URL,
            OPENAI_KEY_ENV,
            OpenAICompatibleGenerator,
        )

        return OpenAICompatibleGenerator(
            OPENAI_BASE_URL,
            rest,
            api_key_env=OPENAI_KEY_ENV,
            require_key=True,
            max_tokens=max_tokens,
            max_chunks=max_chunks,
            timeout_s=settings.llm_timeout_s,
            model_id=f"openai:{rest}",
        )
    if kind == "openai-compatible":
        url, hash_mark, model = rest.rpartition("#")
        if not hash_mark or not url or not model:
            raise ConfigError(
                f"LLM spec {spec!r} needs a model after '#': "
                "openai-compatible:http://127.0.0.1:8080/v1#MODEL"
            )
        from ragcite.generate.openai_compat import OpenAICompatibleGenerator

        return OpenAICompatibleGenerator(
            url,
            model,
            max_tokens=max_tokens,
            max_chunks=max_chunks,
            timeout_s=settings.llm_timeout_s,
        )
    if kind == "anthropic":
        from ragcite.generate.anthropic import AnthropicGenerator

        return AnthropicGenerator(
            rest, max_tokens=max_tokens, max_chunks=max_chunks, timeout_s=settings.llm_timeout_s
        )
    if kind == "local":
        from ragcite.generate.local_llama import LocalLlamaGenerator, smollm2_path

        path = smollm2_path() if rest.casefold() == "smollm2" else Path(rest).expanduser()
        if path.suffix.casefold() != ".gguf":
            raise ConfigError(
                f"LLM spec {spec!r}: local models are GGUF files (local:PATH.gguf or local:smollm2)"
            )
        return LocalLlamaGenerator(
            path, max_tokens=max_tokens, max_chunks=max_chunks, max_claims=settings.max_claims
        )
    raise ConfigError(f"LLM spec {spec!r} is not recognised: {SPEC_HELP}")
