"""The composition root: every backend the pipeline runs on, built from the settings.

The pipeline (`Ragcite.open`), the CLI, the server and the evaluation harness get their
store, embedder, reranker, generator and support checker here and nowhere else. Backends
are looked up by name in the entry-point groups of `ragcite.registry`, so a third-party
package's store or generator is chosen exactly like a built-in one.

    >>> settings = load_settings(store="sqlite:///data/hr.db")
    >>> parts = compose(settings)
    >>> type(parts.store).__name__, parts.embedder.dimension
    ('SQLiteStore', 384)
    >>> make_generator(settings, parts.embedder).model_id
    'extractive:all-MiniLM-L6-v2'
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit, urlunsplit

from ragcite.config import GateSettings, GenerateSettings, Settings, default_store_path
from ragcite.embed.base import Embedder
from ragcite.embed.cached import CachedEmbedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.errors import ConfigError
from ragcite.generate.base import Generator
from ragcite.generate.factory import build_generator
from ragcite.index.cache import AnswerCache, ResilientAnswerCache
from ragcite.index.redis_cache import RedisAnswerCache
from ragcite.index.store import Store
from ragcite.llm.complete import LazyCompletion
from ragcite.registry import STORES, find_builder, parse_spec, parse_store_url
from ragcite.rerank.base import Reranker
from ragcite.rerank.factory import build_reranker
from ragcite.rerank.learned import LearnedReranker, load_model
from ragcite.score.calibration import optional_calibration
from ragcite.score.confidence import Calibration
from ragcite.verify.support import JudgedSupportChecker, SupportChecker, build_support_checker
from ragcite.verify.support.llm_judge import JUDGE_MAX_TOKENS


@dataclass(frozen=True)
class Components:
    """What a collection is opened with; the reranker and generator are built on first use
    (`make_reranker`, `make_generator`), so `ingest` never needs an LLM's key."""

    store: Store
    embedder: Embedder
    support_checker: SupportChecker
    calibration: Calibration | None
    answer_cache: AnswerCache | None = None


def compose(settings: Settings) -> Components:
    """The store, embedder, support checker, calibration map and answer cache `settings` name."""
    embedder = make_embedder(settings)
    store = make_store(settings.store, dimension=embedder.dimension)
    return Components(
        store=store,
        embedder=embedder,
        support_checker=make_support_checker(settings, embedder),
        calibration=optional_calibration(settings.score.calibration_path),
        answer_cache=make_answer_cache(settings, store),
    )


def make_answer_cache(settings: Settings, store: Store) -> AnswerCache | None:
    """The answer cache `cache.*` names: None when disabled; the store's own table when
    `cache.url` is unset (None for a store that keeps none); Redis for `redis://` URLs.
    Whichever it is, a failing cache never fails an ask (`ResilientAnswerCache`).

    >>> make_answer_cache(load_settings(overrides={"cache.url": "redis://localhost"}), store)
    <ragcite.index.cache.ResilientAnswerCache object at ...>
    """
    cache = settings.cache
    if not cache.enabled:
        return None
    if cache.url is None:
        own = getattr(store, "answer_cache", None)
        return ResilientAnswerCache(own) if isinstance(own, AnswerCache) else None
    if urlsplit(cache.url).scheme not in ("redis", "rediss", "unix"):
        raise ConfigError(
            f"cache.url {cache.url!r}: only Redis is supported (redis://host:6379/0); unset "
            "it to cache in the store"
        )
    namespace = hashlib.sha256(shown_store(settings.store).encode()).hexdigest()[:16]
    return ResilientAnswerCache(RedisAnswerCache(cache.url, namespace=namespace))


def make_store(location: str, *, dimension: int) -> Store:
    """The store at `location`: a SQLite path or `sqlite:///PATH`, or a URL whose scheme
    names a backend in the `ragcite.stores` entry-point group.

    >>> make_store("postgresql://rag@db/kb", dimension=384)   # without the plugin
    ConfigError: store spec 'postgresql://rag@db/kb': no store backend named 'postgresql' ...
    """
    spec = parse_store_url(location)
    return cast(Store, find_builder(STORES, spec)(spec, dimension=dimension))


def store_file(settings: Settings) -> Path | None:
    """The SQLite file of `settings.store`, or None for a server store."""
    spec = parse_store_url(settings.store)
    return Path(spec.rest).expanduser() if spec.name == "sqlite" else None


def shown_store(location: str) -> str:
    """`location` fit to print or save: a password in a store URL becomes `***`.

    >>> shown_store("postgresql://rag:s3cret@db:5432/kb")
    'postgresql://rag:***@db:5432/kb'
    """
    parts = urlsplit(location)
    if not parts.password:
        return location
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def local_data_dir(settings: Settings) -> Path:
    """Where files that belong with the collection go (uploads, a calibration map): next to
    its SQLite file, or the user data dir for a server store."""
    path = store_file(settings)
    return (path or default_store_path()).parent


def make_embedder(settings: Settings) -> Embedder:
    """MiniLM (the packaged int8 model, or `embed.model_path`), with a cache of recent texts."""
    path = settings.embed.model_path
    return CachedEmbedder(MiniLMEmbedder(model_path=Path(path).expanduser() if path else None))


def make_reranker(settings: Settings, embedder: Embedder) -> Reranker:
    """The reranker `rerank.backend` names; `rerank.model_path` swaps the learned model."""
    rerank = settings.rerank
    spec = parse_spec(rerank.backend)
    if rerank.model_path is None:
        return build_reranker(rerank.backend, embedder, generate=settings.generate)
    if spec.name != "learned" or spec.rest:
        raise ConfigError(
            f"rerank.model_path is set, but rerank.backend is {rerank.backend!r}: a model "
            'file is for the learned reranker (rerank.backend = "learned"); unset one of them'
        )
    return LearnedReranker(embedder, model=load_model(Path(rerank.model_path).expanduser()))


def make_generator(settings: Settings, embedder: Embedder) -> Generator:
    """The generator `generate.llm` names; the extractive one when it is unset."""
    return build_generator(settings.generate.llm or "extractive", embedder, settings.generate)


def make_support_checker(settings: Settings, embedder: Embedder | None) -> SupportChecker:
    """The gate's support checker (`gate.support_semantic`, `gate.support_model_path`),
    with the LLM judge over it when `gate.support_judge` names a model."""
    gate = settings.gate
    checker = build_support_checker(gate.support_semantic, embedder, gate)
    return with_support_judge(checker, gate, settings.generate)


def with_support_judge(
    checker: SupportChecker, gate: GateSettings, generate: GenerateSettings | None = None
) -> SupportChecker:
    """`checker`, with the LLM judge tier over it when `gate.support_judge` names a model.

    The model is built on its first borderline claim, so a judge whose API key is
    missing never breaks ingest or startup (its claims keep the checker's verdict).

    >>> type(with_support_judge(checker, GateSettings(support_judge="local:smollm2"))).__name__
    'JudgedSupportChecker'
    """
    generate = generate or GenerateSettings()
    if not gate.support_judge:
        return checker
    complete = LazyCompletion(
        gate.support_judge,
        generate.model_copy(update={"llm_timeout_s": gate.support_judge_timeout_s}),
        max_tokens=JUDGE_MAX_TOKENS,
    )
    return JudgedSupportChecker(
        checker,
        complete,
        model_id=gate.support_judge,
        below=gate.support_judge_below,
        above=gate.support_judge_above,
    )
