"""Build a reranker from a spec string (`ragcite ask --reranker SPEC`, `rerank.backend`).

learned                                 the offline default (a small model over ask-time signals)
cross-encoder:DIR[#FILE]                a local sentence-transformers cross-encoder exported to
                                        ONNX (DIR/onnx/model.onnx or DIR/model.onnx, or FILE)
cohere:MODEL                            Cohere's rerank API (key from $COHERE_API_KEY, base URL
                                        from $RAGCITE_COHERE_BASE_URL if set)
llm:GENERATOR-SPEC                      an LLM rates each chunk 0-10: llm:openai:MODEL,
                                        llm:anthropic:MODEL, llm:local:smollm2,
                                        llm:openai-compatible:URL#MODEL, ...

>>> build_reranker("cohere:rerank-v3.5", embedder).name
'cohere:rerank-v3.5'
"""

from __future__ import annotations

from pathlib import Path

from ragcite.config import GenerateSettings
from ragcite.embed.base import Embedder
from ragcite.errors import ConfigError
from ragcite.rerank.base import Reranker
from ragcite.rerank.learned import LearnedReranker

SPEC_HELP = (
    "use learned, cross-encoder:DIR (or cross-encoder:DIR#onnx/FILE.onnx), cohere:MODEL "
    "or llm:GENERATOR-SPEC (e.g. llm:openai:gpt-4o-mini, llm:local:smollm2, "
    "llm:openai-compatible:http://127.0.0.1:8080/v1#MODEL)"
)


def build_reranker(
    spec: str, embedder: Embedder, *, generate: GenerateSettings | None = None
) -> Reranker:
    """The reranker `spec` names; ConfigError naming the spec when it names none.

    `generate` supplies the LLM settings (timeout) for `llm:` specs.
    """
    kind, _, rest = spec.strip().partition(":")
    kind, rest = kind.strip().casefold(), rest.strip()
    if kind == "learned" and not rest:
        return LearnedReranker(embedder)
    if not rest:
        raise ConfigError(f"reranker spec {spec!r} is not recognised: {SPEC_HELP}")
    if kind == "cross-encoder":
        from ragcite.rerank.cross_encoder import CrossEncoderReranker

        folder, _, onnx_file = rest.partition("#")
        return CrossEncoderReranker(Path(folder), onnx_file=onnx_file or None)
    if kind == "cohere":
        from ragcite.rerank.cohere import CohereReranker

        return CohereReranker(rest)
    if kind == "llm":
        from ragcite.generate.complete import build_completion
        from ragcite.rerank.llm_judge import MAX_TOKENS, LLMJudgeReranker

        try:
            complete = build_completion(rest, generate, max_tokens=MAX_TOKENS)
        except ConfigError as exc:
            raise ConfigError(f"reranker spec {spec!r}: {exc}") from None
        return LLMJudgeReranker(complete, name=f"llm:{rest}")
    raise ConfigError(f"reranker spec {spec!r} is not recognised: {SPEC_HELP}")
