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
import threading
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit

from ragcite.config import GateSettings, GenerateSettings, Settings, default_store_path
from ragcite.embed.base import Embedder
from ragcite.embed.cached import CachedEmbedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.errors import ConfigError, InputError
from ragcite.generate.base import Generator
from ragcite.generate.factory import build_generator
from ragcite.index.cache import AnswerCache, ResilientAnswerCache
from ragcite.index.postgres.url import redact_url
from ragcite.index.redis_cache import RedisAnswerCache
from ragcite.index.store import SearchFilters, Store
from ragcite.llm.complete import LazyCompletion
from ragcite.models import DocumentStatus
from ragcite.registry import STORES, find_builder, parse_spec, parse_store_url
from ragcite.rerank.base import Reranker
from ragcite.rerank.factory import build_reranker
from ragcite.rerank.learned import LearnedReranker, load_model
from ragcite.retrieve.fanout import CorpusSource
from ragcite.retrieve.hybrid import HybridRetriever
from ragcite.retrieve.versions import LIVE
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
    read_store: Store | None = None
    answer_cache: AnswerCache | None = None


def compose(settings: Settings) -> Components:
    """The store (and its read replica, `store_read`), embedder, support checker,
    calibration map and answer cache `settings` name."""
    embedder = make_embedder(settings)
    read = settings.store_read
    store = make_store(settings.store, dimension=embedder.dimension)
    return Components(
        store=store,
        embedder=embedder,
        support_checker=make_support_checker(settings, embedder),
        calibration=optional_calibration(settings.score.calibration_path),
        read_store=make_store(read, dimension=embedder.dimension) if read else None,
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


def make_store(location: str, *, dimension: int | None) -> Store:
    """The store at `location`: a SQLite path or `sqlite:///PATH`, or a URL whose scheme
    names a backend in the `ragcite.stores` entry-point group. `dimension` None takes
    the stored vectors' length (for a store that is read, not embedded into).

    >>> make_store("postgresql://rag@db/kb", dimension=384)   # without the plugin
    ConfigError: store spec 'postgresql://rag@db/kb': no store backend named 'postgresql' ...
    """
    spec = parse_store_url(location)
    return cast(Store, find_builder(STORES, spec)(spec, dimension=dimension))


def store_file(settings: Settings) -> Path | None:
    """The SQLite file of `settings.store`, or None for a server store."""
    return _sqlite_file(settings.store)


def existing_store(location: str) -> Store:
    """The store at `location`, which must already exist (the source of `ragcite migrate`):
    a missing SQLite file is an error, never a new empty store."""
    path = _sqlite_file(location)
    if path is not None and not path.is_file():
        raise InputError(f"no store at {path}: give the path of an existing store file")
    return make_store(location, dimension=None)


def _sqlite_file(location: str) -> Path | None:
    spec = parse_store_url(location)
    return Path(spec.rest).expanduser() if spec.name == "sqlite" else None


def shown_store(location: str) -> str:
    """`location` fit to print or save: a password in a store URL (in its user part or its
    query string) becomes `***`.

    >>> shown_store("postgresql://rag:s3cret@db:5432/kb")
    'postgresql://rag:***@db:5432/kb'
    """
    redacted = redact_url(location) if "://" in location else location
    return redacted if "***" in redacted else location  # else exactly as given


def local_data_dir(settings: Settings) -> Path:
    """Where files that belong with the collection go (uploads, a calibration map): next to
    its SQLite file, or the user data dir for a server store."""
    path = store_file(settings)
    return (path or default_store_path()).parent


def make_embedder(settings: Settings) -> Embedder:
    """MiniLM (the packaged int8 model, or `embed.model_path`; its threads spinning between
    runs with `embed.spin_threads`), with a cache of recent texts."""
    path = settings.embed.model_path
    model = Path(path).expanduser() if path else None
    return CachedEmbedder(MiniLMEmbedder(model_path=model, spinning=settings.embed.spin_threads))


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


class CorpusRouter:
    """Where each asked corpus is retrieved from: the collection's own retriever, or one
    over the store `[corpora.NAME] store = "…"` names, opened on first use (under a lock:
    the server asks from several threads) and closed with the collection."""

    def __init__(self, settings: Settings, own: HybridRetriever) -> None:
        self._settings = settings
        self._own = own
        self._opened: dict[str, HybridRetriever] = {}
        self._opening = threading.Lock()

    def sources(self, filters: SearchFilters) -> list[CorpusSource] | None:
        """The sources to fan out over (several corpora, or one that `[corpora.NAME]` places
        in another store); None when the collection's own retriever answers alone."""
        asked = filters.corpora or ()
        elsewhere = self._settings.corpora
        if len(asked) < 2 and not self.asks_other_stores(filters):
            return None
        return [
            CorpusSource(name, self._retriever(name), elsewhere[name].corpus)
            if name in elsewhere
            else CorpusSource(name, self._own)
            for name in dict.fromkeys(asked)
        ]

    def asks_other_stores(self, filters: SearchFilters) -> bool:
        return any(name in self._settings.corpora for name in filters.corpora or ())

    def close(self) -> None:
        with self._opening:
            for retriever in self._opened.values():
                retriever.store.close()
            self._opened.clear()

    def _retriever(self, name: str) -> HybridRetriever:
        with self._opening:
            if name not in self._opened:
                store = make_store(
                    self._settings.corpora[name].store, dimension=self._own.embedder.dimension
                )
                self._opened[name] = HybridRetriever(
                    store,
                    self._own.embedder,
                    candidates=self._settings.retrieve.candidates_per_retriever,
                    rrf_k=self._settings.retrieve.rrf_k,
                )
            return self._opened[name]


def search_filters(
    settings: Settings,
    corpora: tuple[str, ...] | None = None,
    access_groups: tuple[str, ...] | None = None,
    include_superseded: bool | None = None,
    as_of: date | None = None,
) -> SearchFilters:
    """The search filters of one request: the versions in force on `as_of` when given, else
    the active ones (and superseded ones with `include_superseded`, default from the settings)."""
    if as_of is not None:
        return SearchFilters(corpora, LIVE, access_groups, as_of=as_of)
    superseded = (
        settings.retrieve.include_superseded if include_superseded is None else include_superseded
    )
    statuses = (DocumentStatus.ACTIVE,) + ((DocumentStatus.SUPERSEDED,) if superseded else ())
    return SearchFilters(corpora=corpora, statuses=statuses, access_groups=access_groups)
