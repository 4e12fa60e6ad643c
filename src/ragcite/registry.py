"""Backends by name: Python entry points, the one plugin mechanism.

Stores, generators, rerankers and support checkers are chosen by a spec string in the
settings (`store = "sqlite:///data/hr.db"`, `generate.llm = "openai:gpt-4o-mini"`,
`rerank.backend = "learned"`). The part before the first ":" (or the URL scheme) is the
backend's name, looked up in the entry-point group of its kind. ragcite's own backends
register in its `pyproject.toml` exactly as a third-party package would in its own:

    [project.entry-points."ragcite.generators"]
    echo = "my_package.echo:build_echo_generator"

A builder is called with the parsed spec and keyword arguments, by group:

    ragcite.stores      builder(spec, *, dimension: int | None) -> Store  (None: the stored length)
    ragcite.generators  builder(spec, *, embedder: Embedder, settings: GenerateSettings)
                        -> Generator
    ragcite.rerankers   builder(spec, *, embedder: Embedder, generate: GenerateSettings) -> Reranker
    ragcite.support     builder(spec, *, embedder: Embedder, gate: GateSettings) -> SupportChecker


    >>> spec = parse_spec("openai:gpt-4o-mini")
    >>> (spec.name, spec.rest)
    ('openai', 'gpt-4o-mini')
    >>> builder = find_builder(GENERATORS, spec)          # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from ragcite.errors import ConfigError

STORES = "ragcite.stores"
GENERATORS = "ragcite.generators"
RERANKERS = "ragcite.rerankers"
SUPPORT = "ragcite.support"

_WHAT = {
    STORES: "store",
    GENERATORS: "generator",
    RERANKERS: "reranker",
    SUPPORT: "support checker",
}


@dataclass(frozen=True)
class BackendSpec:
    """A spec as written (`text`), its backend `name` and what follows the name (`rest`).

    `openai-compatible:http://127.0.0.1:8080/v1#qwen` -> name `openai-compatible`, rest
    `http://127.0.0.1:8080/v1#qwen`; `postgresql://u@h/db` -> name `postgresql`, rest the
    whole URL; a bare path `data/hr.db` -> name `sqlite` (see `parse_store_url`).
    """

    text: str
    name: str
    rest: str


def parse_spec(text: str) -> BackendSpec:
    """Split `name:rest` (the name case-folded, both stripped)."""
    name, _, rest = text.strip().partition(":")
    return BackendSpec(text.strip(), name.strip().casefold(), rest.strip())


def parse_store_url(text: str) -> BackendSpec:
    """A store location: `scheme://…` names its backend; anything else is a SQLite path.

    >>> parse_store_url("postgresql://rag@db:5432/kb").name
    'postgresql'
    >>> parse_store_url("sqlite:///var/lib/ragcite/hr.db").rest
    '/var/lib/ragcite/hr.db'
    >>> parse_store_url("~/kb.db").name
    'sqlite'
    """
    text = text.strip()
    scheme, sep, rest = text.partition("://")
    if not sep or not scheme.replace("+", "").replace("-", "").isalnum():
        return BackendSpec(text, "sqlite", text)
    scheme = scheme.casefold()
    if scheme == "sqlite":
        # sqlite:///abs/path -> /abs/path ; sqlite://rel/path -> rel/path (as SQLAlchemy)
        return BackendSpec(text, "sqlite", rest[1:] if rest.startswith("//") else rest)
    return BackendSpec(text, scheme.split("+", 1)[0], text)


def installed(group: str) -> list[str]:
    """The backend names registered in `group`, sorted."""
    return sorted(_entry_points(group))


def find_builder(group: str, spec: BackendSpec) -> Callable[..., Any]:
    """The builder registered as `spec.name` in `group`; ConfigError listing the installed ones."""
    points = _entry_points(group)
    point = points.get(spec.name)
    what = _WHAT.get(group, group)
    if point is None:
        names = ", ".join(sorted(points)) or "none"
        raise ConfigError(
            f"{what} spec {spec.text!r}: no {what} backend named {spec.name!r} is installed "
            f"(installed: {names}); check the spelling, or install the package that provides it"
        )
    try:
        builder = point.load()
    except Exception as exc:  # a broken plugin must not take the whole CLI down
        raise ConfigError(
            f"{what} backend {spec.name!r} ({point.value}) could not be loaded: "
            f"{type(exc).__name__}: {exc}"
        ) from None
    if not callable(builder):
        raise ConfigError(f"{what} backend {spec.name!r} ({point.value}) is not callable")
    return builder  # type: ignore[no-any-return]


@cache
def _entry_points_cached(group: str) -> dict[str, Any]:
    return {point.name.casefold(): point for point in entry_points(group=group)}


def _entry_points(group: str) -> dict[str, Any]:
    return _entry_points_cached(group)


def refresh() -> None:
    """Forget the entry points read so far (after installing a plugin in-process, in tests)."""
    _entry_points_cached.cache_clear()
