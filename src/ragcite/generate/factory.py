"""Build a generator from a spec string (`ragcite ask --llm SPEC`, `generate.llm`).

extractive                              the offline default (the sources' own sentences)
openai:MODEL                            OpenAI (key from $OPENAI_API_KEY)
anthropic:MODEL                         Claude with native citations ($ANTHROPIC_API_KEY)
local:PATH.gguf | local:smollm2         a GGUF model in process (llama.cpp via xllamacpp)
openai-compatible:URL#MODEL             vLLM, Ollama, llama.cpp server, ... (optional key
                                        from $RAGCITE_LLM_API_KEY)

Each kind is a builder registered under the `ragcite.generators` entry-point group (see
`ragcite.registry`), as a third-party generator would be; `build_generator` looks the
spec's name up there.

>>> build_generator("openai-compatible:http://127.0.0.1:11434/v1#llama3.1", embedder).model_id
'openai-compatible:http://127.0.0.1:11434/v1#llama3.1'
"""

from __future__ import annotations

from ragcite.config import GenerateSettings
from ragcite.embed.base import Embedder
from ragcite.errors import ConfigError
from ragcite.generate.base import Generator
from ragcite.llm.spec import LLMSpec, parse_llm_spec
from ragcite.registry import GENERATORS, BackendSpec, find_builder, installed, parse_spec

SPEC_HELP = (
    "use extractive, openai:MODEL, anthropic:MODEL, local:PATH.gguf, local:smollm2 "
    "or openai-compatible:URL#MODEL"
)


def build_generator(
    spec: str, embedder: Embedder, settings: GenerateSettings | None = None
) -> Generator:
    """The generator `spec` names; ConfigError naming the spec when it names none.

    >>> build_generator("extractive", embedder).model_id
    'extractive'
    """
    parsed = parse_spec(spec)
    if parsed.name not in installed(GENERATORS):
        raise _unrecognised(parsed)
    builder = find_builder(GENERATORS, parsed)
    generator: Generator = builder(
        parsed, embedder=embedder, settings=settings or GenerateSettings()
    )
    return generator


def build_extractive(
    spec: BackendSpec, *, embedder: Embedder, settings: GenerateSettings
) -> Generator:
    """`extractive`: answers with the sources' own sentences, offline."""
    from ragcite.generate.extractive import ExtractiveGenerator

    if spec.rest:
        raise _unrecognised(spec)
    return ExtractiveGenerator(embedder, settings)


def build_openai(spec: BackendSpec, *, embedder: Embedder, settings: GenerateSettings) -> Generator:
    """`openai:MODEL`: OpenAI's chat completions, key from $OPENAI_API_KEY."""
    from ragcite.generate.openai_compat import OpenAICompatibleGenerator
    from ragcite.llm.openai import OPENAI_BASE_URL, OPENAI_KEY_ENV

    llm = _llm_spec(spec)
    return OpenAICompatibleGenerator(
        OPENAI_BASE_URL,
        llm.model,
        api_key_env=OPENAI_KEY_ENV,
        require_key=True,
        max_tokens=settings.llm_max_tokens,
        max_chunks=settings.llm_max_chunks,
        timeout_s=settings.llm_timeout_s,
        model_id=llm.text,
    )


def build_openai_compatible(
    spec: BackendSpec, *, embedder: Embedder, settings: GenerateSettings
) -> Generator:
    """`openai-compatible:URL#MODEL`: any chat-completions server."""
    from ragcite.generate.openai_compat import OpenAICompatibleGenerator

    llm = _llm_spec(spec)
    assert llm.base_url is not None  # parse_llm_spec sets it for this kind
    return OpenAICompatibleGenerator(
        llm.base_url,
        llm.model,
        max_tokens=settings.llm_max_tokens,
        max_chunks=settings.llm_max_chunks,
        timeout_s=settings.llm_timeout_s,
    )


def build_anthropic(
    spec: BackendSpec, *, embedder: Embedder, settings: GenerateSettings
) -> Generator:
    """`anthropic:MODEL`: Claude with native citations, key from $ANTHROPIC_API_KEY."""
    from ragcite.generate.anthropic import AnthropicGenerator

    return AnthropicGenerator(
        _llm_spec(spec).model,
        max_tokens=settings.llm_max_tokens,
        max_chunks=settings.llm_max_chunks,
        timeout_s=settings.llm_timeout_s,
    )


def build_local(spec: BackendSpec, *, embedder: Embedder, settings: GenerateSettings) -> Generator:
    """`local:PATH.gguf` or `local:smollm2`: a GGUF model in process."""
    from ragcite.generate.local_llama import LocalLlamaGenerator
    from ragcite.llm.local import local_model_path

    return LocalLlamaGenerator(
        local_model_path(_llm_spec(spec)),
        max_tokens=settings.llm_max_tokens,
        max_chunks=settings.llm_max_chunks,
        max_claims=settings.max_claims,
    )


def _llm_spec(spec: BackendSpec) -> LLMSpec:
    return parse_llm_spec(spec.text)


def _unrecognised(spec: BackendSpec) -> ConfigError:
    plugins = sorted(set(installed(GENERATORS)) - set(_BUILT_IN))
    more = f" (installed plugins: {', '.join(plugins)})" if plugins else ""
    return ConfigError(f"LLM spec {spec.text!r} is not recognised: {SPEC_HELP}{more}")


_BUILT_IN = ("extractive", "openai", "openai-compatible", "anthropic", "local")
