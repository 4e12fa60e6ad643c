"""Support checkers by name (`gate.support_semantic`, `ragcite verify --support-semantic`).

minilm     layer 3 is the cosine with the MiniLM embedder (the most accurate)
static     layer 3 uses the shipped lookup-table vectors: no transformer, for many fresh claims
none       hard checks and lexical alignment only

Each is a builder registered under the `ragcite.support` entry-point group (see
`ragcite.registry`), as a third-party support checker would be.

>>> checker = build_support_checker("static", None)
>>> checker.check("Returns are free.", ["Returning an item costs nothing."]).verdict
<SupportVerdict.SUPPORTED: 'supported'>
"""

from __future__ import annotations

from pathlib import Path

from ragcite.config import GateSettings
from ragcite.embed.base import Embedder
from ragcite.errors import ConfigError
from ragcite.learn.model import LearnedModel
from ragcite.registry import SUPPORT, BackendSpec, find_builder, parse_spec
from ragcite.verify.support.checker import LayeredSupportChecker, SupportChecker
from ragcite.verify.support.learned import load_support_models


def build_support_checker(
    spec: str, embedder: Embedder | None, gate: GateSettings | None = None
) -> SupportChecker:
    """The support checker `spec` names (`minilm`, `static`, `none` or a plugin's name);
    ConfigError listing the installed ones when it names none."""
    parsed = parse_spec(spec)
    checker: SupportChecker = find_builder(SUPPORT, parsed)(
        parsed, embedder=embedder, gate=gate or GateSettings()
    )
    return checker


def default_support_checker(
    embedder: Embedder | None = None, *, semantic: str | None = None
) -> SupportChecker:
    """The shipped checker. `semantic` picks layer 3: "minilm" (cosine with `embedder`,
    the most accurate), "static" (the shipped lookup-table vectors: no transformer, for
    checking many fresh claims fast) or "none"; by default "minilm" when an embedder is
    given, else "none".

    >>> checker = default_support_checker(MiniLMEmbedder())
    >>> checker.check("Returns are free.", ["Returning an item costs nothing."]).verdict
    """
    layer = semantic or ("minilm" if embedder is not None else "none")
    return build_support_checker(layer, embedder)


def build_minilm(
    spec: BackendSpec, *, embedder: Embedder | None, gate: GateSettings
) -> SupportChecker:
    """`minilm`: the semantic layer is the cosine with `embedder` (MiniLM)."""
    if embedder is None:
        raise ValueError('semantic="minilm" needs an embedder')
    return LayeredSupportChecker(_model(gate, "semantic"), embedder=embedder)


def build_static(
    spec: BackendSpec, *, embedder: Embedder | None, gate: GateSettings
) -> SupportChecker:
    """`static`: the semantic layer uses the shipped static word vectors."""
    from ragcite.embed.static import StaticEmbedder

    return LayeredSupportChecker(_model(gate, "static"), embedder=StaticEmbedder())


def build_lexical_only(
    spec: BackendSpec, *, embedder: Embedder | None, gate: GateSettings
) -> SupportChecker:
    """`none`: no semantic layer (hard checks and lexical alignment)."""
    return LayeredSupportChecker(_model(gate, "lexical"))


def _model(gate: GateSettings, variant: str) -> LearnedModel:
    """The `variant` model from `gate.support_model_path`, or the packaged one."""
    if gate.support_model_path is None:
        return load_support_models()[variant]
    path = Path(gate.support_model_path).expanduser()
    models = load_support_models(path)
    if variant not in models:
        raise ConfigError(
            f"gate.support_model_path {path} has no {variant!r} model (it has "
            f"{', '.join(sorted(models))}): pick gate.support_semantic to match, or retrain "
            "with ragcite train support"
        )
    return models[variant]


def build_cross_encoder(
    spec: BackendSpec, *, embedder: Embedder | None, gate: GateSettings
) -> SupportChecker:
    """`cross-encoder:DIR[#FILE]`: a user-supplied NLI or reranking cross-encoder (ONNX, in
    the sentence-transformers layout) reads each pair; hard checks and the lexical
    checker's verdict stay as floors (see `ragcite.verify.support.cross_encoder`)."""
    from ragcite.rerank.cross_encoder import CrossEncoderReranker
    from ragcite.verify.support.cross_encoder import CrossEncoderSupportChecker

    folder, _, onnx_file = spec.rest.partition("#")
    if not folder:
        raise ConfigError(
            "cross-encoder needs a model directory: gate.support_semantic = "
            '"cross-encoder:/path/to/model" (a sentence-transformers model exported to ONNX)'
        )
    reader = CrossEncoderReranker(Path(folder), onnx_file=onnx_file or None)
    return CrossEncoderSupportChecker.with_lexical_floor(reader, _model(gate, "lexical"))
