"""Cached answers in Redis (`cache.url = "redis://host:6379/0"`, the `redis` extra).

Each answer is one string key, `ragcite:answer:NAMESPACE:KEY`, holding the response and
when it was made, with the TTL set in Redis itself (it drops expired keys). NAMESPACE
comes from the store's location, so collections sharing one Redis never meet. A server
that cannot be reached raises StoreError: `ResilientAnswerCache` turns that into an
uncached answer, never a failed one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ragcite.errors import ConfigError, StoreError, missing_extra
from ragcite.index.cache import CachedAnswer

if TYPE_CHECKING:
    import redis

TIMEOUT_S = 0.5
"""Connect and socket timeout: a slow cache must not slow every answer."""


class RedisAnswerCache:
    """Answers in a Redis server, under a per-collection key prefix."""

    def __init__(self, url: str, *, namespace: str) -> None:
        try:
            import redis
        except ImportError as exc:
            raise missing_extra(exc.name or "redis", "redis") from None
        try:
            self._redis: redis.Redis = redis.Redis.from_url(
                url, socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S
            )
        except ValueError as exc:
            raise ConfigError(
                f"cache.url {url!r} is not a Redis URL ({exc}); write e.g. redis://localhost:6379/0"
            ) from None
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError,)
        parts = urlsplit(url)
        self.where = f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}{parts.path}"
        self.prefix = f"ragcite:answer:{namespace}:"

    def get(self, key: str) -> CachedAnswer | None:
        raw = self._call(lambda: self._redis.get(self.prefix + key))
        if raw is None:
            return None
        stored = json.loads(raw)
        return CachedAnswer(stored["response"], datetime.fromisoformat(stored["created_at"]))

    def put(self, key: str, response_json: str, *, corpus_version: str, ttl_s: float) -> None:
        value = json.dumps({"response": response_json, "created_at": datetime.now(UTC).isoformat()})
        ttl_ms = max(1, round(ttl_s * 1000))
        self._call(lambda: self._redis.set(self.prefix + key, value, px=ttl_ms))

    def clear(self) -> int:
        keys = self._call(lambda: list(self._redis.scan_iter(match=self.prefix + "*", count=500)))
        return int(self._call(lambda: self._redis.delete(*keys))) if keys else 0

    def _call(self, operation: Callable[[], Any]) -> Any:
        try:
            return operation()
        except self._errors as exc:
            raise StoreError(f"answer cache at {self.where}: {exc}") from None
