"""The answer cache: its small protocol, its key, and how a cached answer is re-labelled.

An answer is cached under the sha256 of everything that could change it: the normalised
question (whitespace collapsed, case-folded), the store's `corpus_version` (moved by every
ingest, delete or version change, so an answer from older documents is never found),
the settings that shape answers, the request (k, corpora, statuses, documents), the
generator's model id, the reader's access scope (their groups, or "admin"), so one
reader is never served an answer built from documents another may not see, and ragcite's
version, so an upgrade never serves answers the previous version made.
Implementations: the embedded store's table (`index/sqlite_cache.py`), PostgreSQL's
(`index/postgres/cache.py`) and Redis (`index/redis_cache.py`).

    >>> key = answer_key("How long?", corpus_version="g3", settings=settings,
    ...                  k=8, filters=SearchFilters(access_groups=("hr",)), model_id="x")
    >>> cache.put(key, response.model_dump_json(), corpus_version="g3", ttl_s=86400)
    >>> cache.get(key).created_at.tzinfo
    datetime.timezone.utc
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from ragcite import __version__
from ragcite.config import Settings
from ragcite.errors import StoreError
from ragcite.flags import flag
from ragcite.index.store import SearchFilters
from ragcite.models import CitedResponse, new_answer_id

log = logging.getLogger(__name__)

ANSWER_SETTINGS = ("retrieve", "rerank", "generate", "score", "gate")
"""The settings sections whose values change answers, so they are part of the key."""


@dataclass(frozen=True)
class CachedAnswer:
    """A cached response (as JSON) and when it was computed (UTC)."""

    response_json: str
    created_at: datetime


@runtime_checkable
class AnswerCache(Protocol):
    def get(self, key: str) -> CachedAnswer | None:
        """The answer cached under `key`, None when there is none or it expired."""
        ...

    def put(self, key: str, response_json: str, *, corpus_version: str, ttl_s: float) -> None:
        """Cache an answer for `ttl_s` seconds (answers of other corpus versions may go)."""
        ...

    def clear(self) -> int:
        """Remove every cached answer; how many there were."""
        ...


def normalised_question(query: str) -> str:
    """The question as the key sees it: whitespace collapsed, case folded.

    >>> normalised_question("  How LONG\\n is leave? ")
    'how long is leave?'
    """
    return " ".join(query.split()).casefold()


def access_scope(access_groups: tuple[str, ...] | None) -> str:
    """Whose answer this is: "admin" (reads everything) or the reader's sorted groups.

    >>> access_scope(None), access_scope(("hr", "eng", "hr")), access_scope(())
    ('admin', 'groups:["eng","hr"]', 'groups:[]')
    """
    if access_groups is None:
        return "admin"
    return "groups:" + json.dumps(sorted(set(access_groups)), separators=(",", ":"))


def answer_key(
    query: str,
    *,
    corpus_version: str,
    settings: Settings,
    k: int,
    filters: SearchFilters,
    model_id: str,
) -> str:
    """The cache key of an answer: a sha256 hex digest (see the module docstring)."""
    parts = {
        "question": normalised_question(query),
        "corpus_version": corpus_version,
        "settings": settings.model_dump(mode="json", include=set(ANSWER_SETTINGS)),
        "k": k,
        "corpora": sorted(filters.corpora) if filters.corpora is not None else None,
        "statuses": sorted(str(s) for s in filters.statuses),
        "document_ids": sorted(filters.document_ids) if filters.document_ids else None,
        "model_id": model_id,
        "scope": access_scope(filters.access_groups),
        "ragcite": __version__,  # an upgrade may answer differently: its answers are new
    }
    if filters.scopes_versions:  # an explicit date or version (`ask --as-of`)
        as_of = filters.as_of.isoformat() if filters.as_of else None
        parts["versions"] = [as_of, filters.version, filters.previous_version]
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def cacheable(response: CitedResponse) -> bool:
    """Whether to cache `response`: not when its generator failed (that may pass)."""
    return not any(f.code == "generation_failed" for f in response.warning_flags)


def served_from_cache(
    cached: CachedAnswer, query: str, now: datetime, lookup_ms: float
) -> CitedResponse:
    """The cached response, re-labelled: this request's question and timing, its age
    (`cached_at`, `cache_age_s`), the `cached_answer` warning and a new `answer_id` (a
    serve is an answer of its own: saved, re-checked and given feedback apart)."""
    response = CitedResponse.model_validate_json(cached.response_json)
    age = max(0.0, (now - cached.created_at).total_seconds())
    notice = flag(
        "cached_answer",
        age=_duration(age),
        cached_at=cached.created_at.isoformat(timespec="seconds"),
    )
    flags = [f for f in response.warning_flags if f.code != "cached_answer"]
    return response.model_copy(
        update={
            "query": query,
            "answer_id": new_answer_id(),  # each serve is an answer of its own (saved apart)
            "warning_flags": [*flags, notice],
            "timings_ms": {"cache": lookup_ms, "total": lookup_ms},
            "cached_at": cached.created_at,
            "cache_age_s": round(age, 3),
        }
    )


def _duration(seconds: float) -> str:
    """'42 s', '7 min', '3 h'."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class ResilientAnswerCache:
    """A cache that never fails an ask: a StoreError (a Redis server down, a locked file)
    is logged and the answer goes uncached; the cache is then left alone for
    `pause_s` seconds, so a down server does not slow every question."""

    def __init__(self, inner: AnswerCache, *, pause_s: float = 30.0) -> None:
        self.inner = inner
        self.pause_s = pause_s
        self._paused_until = 0.0

    def get(self, key: str) -> CachedAnswer | None:
        if time.monotonic() < self._paused_until:
            return None
        try:
            return self.inner.get(key)
        except StoreError as exc:
            self._failed(exc)
            return None

    def put(self, key: str, response_json: str, *, corpus_version: str, ttl_s: float) -> None:
        if time.monotonic() < self._paused_until:
            return
        try:
            self.inner.put(key, response_json, corpus_version=corpus_version, ttl_s=ttl_s)
        except StoreError as exc:
            self._failed(exc)

    def clear(self) -> int:
        return self.inner.clear()

    def _failed(self, exc: StoreError) -> None:
        log.warning(
            "answer cache unavailable, answering uncached for %.0f s: %s", self.pause_s, exc
        )
        self._paused_until = time.monotonic() + self.pause_s
