"""Build a reranker from a spec string (`ragcite ask --reranker SPEC`, `rerank.backend`).

learned                                 the offline default (a small model over ask-time signals)
cross-encoder:DIR[#FILE]                a local sentence-transformers cross-encoder exported to
                                        ONNX (DIR/onnx/model.onnx or DIR/model.onnx, or FILE)
cohere:MODEL                            Cohere's rerank API (key from $COHERE_API_KEY, base URL
                                        from $RAGCITE_COHERE_BASE_URL if set)
llm:LLM-SPEC                            an LLM rates each chunk 0-10: llm:openai:MODEL,
                                        llm:anthropic:MODEL, llm:local:smollm2,
                                        llm:openai-compatible:URL#MODEL, ...

Each kind is a builder registered under the `ragcite.rerankers` entry-point group (see
`ragcite.registry`), as a third-party reranker would be.

>>> build_reranker("cohere:rerank-v3.5", embedder).name
'cohere:rerank-v3.5'
"""

from __future__ import annotations

from pathlib import Path

from ragcite.config import GenerateSettings
from ragcite.embed.base import Embedder
from ragcite.errors import ConfigError
from ragcite.registry import RERANKERS, BackendSpec, find_builder, installed, parse_spec
from ragcite.rerank.base import Reranker

SPEC_HELP = (
    "use learned, cross-encoder:DIR (or cross-encoder:DIR#onnx/FILE.onnx), cohere:MODEL "
    "or llm:LLM-SPEC (e.g. llm:openai:gpt-4o-mini, llm:local:smollm2, "
    "llm:openai-compatible:http://127.0.0.1:8080/v1#MODEL)"
)
_BUILT_IN = ("learned", "cross-encoder", "cohere", "llm")


def build_reranker(
    spec: str, embedder: Embedder, *, generate: GenerateSettings | None = None
) -> Reranker:
    """The reranker `spec` names; ConfigError naming the spec when it names none.

    `generate` supplies the LLM settings (timeout) for `llm:` specs.
    """
    parsed = parse_spec(spec)
    if parsed.name not in installed(RERANKERS):
        raise _unrecognised(parsed)
    builder = find_builder(RERANKERS, parsed)
    reranker: Reranker = builder(parsed, embedder=embedder, generate=generate or GenerateSettings())
    return reranker


def build_learned(spec: BackendSpec, *, embedder: Embedder, generate: GenerateSettings) -> Reranker:
    """`learned`: the shipped model over ask-time signals (offline)."""
    from ragcite.rerank.learned import LearnedReranker

    if spec.rest:
        raise _unrecognised(spec)
    return LearnedReranker(embedder)


def build_cross_encoder(
    spec: BackendSpec, *, embedder: Embedder, generate: GenerateSettings
) -> Reranker:
    """`cross-encoder:DIR[#FILE]`: a cross-encoder exported to ONNX."""
    from ragcite.rerank.cross_encoder import CrossEncoderReranker

    if not spec.rest:
        raise _unrecognised(spec)
    folder, _, onnx_file = spec.rest.partition("#")
    return CrossEncoderReranker(Path(folder), onnx_file=onnx_file or None)


def build_cohere(spec: BackendSpec, *, embedder: Embedder, generate: GenerateSettings) -> Reranker:
    """`cohere:MODEL`: Cohere's rerank API."""
    from ragcite.rerank.cohere import CohereReranker

    if not spec.rest:
        raise _unrecognised(spec)
    return CohereReranker(spec.rest)


def build_llm_judge(
    spec: BackendSpec, *, embedder: Embedder, generate: GenerateSettings
) -> Reranker:
    """`llm:LLM-SPEC`: a language model rates each chunk (a local model loads on first use)."""
    from ragcite.llm.complete import build_completion
    from ragcite.rerank.llm_judge import MAX_TOKENS, LLMJudgeReranker

    if not spec.rest:
        raise _unrecognised(spec)
    try:
        complete = build_completion(spec.rest, generate, max_tokens=MAX_TOKENS)
    except ConfigError as exc:
        raise ConfigError(f"reranker spec {spec.text!r}: {exc}") from None
    return LLMJudgeReranker(complete, name=f"llm:{spec.rest}")


def _unrecognised(spec: BackendSpec) -> ConfigError:
    plugins = sorted(set(installed(RERANKERS)) - set(_BUILT_IN))
    more = f" (installed plugins: {', '.join(plugins)})" if plugins else ""
    return ConfigError(f"reranker spec {spec.text!r} is not recognised: {SPEC_HELP}{more}")
