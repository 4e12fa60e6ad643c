"""Cohere's rerank API (`POST /v2/rerank`) as a reranker.

The key is read from $COHERE_API_KEY when the reranker is built and sent only in the
Authorization header. The base URL defaults to Cohere's and can be pointed elsewhere
(a proxy, a compatible self-hosted endpoint) with $RAGCITE_COHERE_BASE_URL. Rate
limits (429) and server errors (5xx) are retried a couple of times with a short
backoff; anything else fails with ModelError naming the status and what the server said.

    >>> reranker = CohereReranker("rerank-v3.5")
    >>> reranker.score("How long is parental leave?", chunks)
    [0.97, 0.02, ...]
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from ragcite.errors import ConfigError, ModelError
from ragcite.llm.http import api_key, http_client
from ragcite.models import SourceChunk
from ragcite.rerank.base import passage_text

if TYPE_CHECKING:
    import httpx

COHERE_BASE_URL = "https://api.cohere.com"
COHERE_KEY_ENV = "COHERE_API_KEY"
COHERE_URL_ENV = "RAGCITE_COHERE_BASE_URL"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 10.0


class CohereReranker:
    """Relevance scores from a Cohere rerank model (`relevance_score`, already in [0, 1])."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str = COHERE_KEY_ENV,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        backoff_s: float = 0.5,
    ) -> None:
        if not model.strip():
            raise ConfigError("a Cohere reranker needs a model name (e.g. cohere:rerank-v3.5)")
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, but got {max_retries}")
        base_url = (base_url or os.environ.get(COHERE_URL_ENV, "") or COHERE_BASE_URL).strip()
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(
                f"Cohere base URL {base_url!r} must start with http:// or https:// "
                f"(check ${COHERE_URL_ENV})"
            )
        key = api_key(api_key_env, "Cohere")
        self._client = http_client(base_url, {"Authorization": f"Bearer {key}"}, timeout_s)
        self._key_env = api_key_env
        self.model = model.strip()
        self.base_url = base_url.rstrip("/")
        self.name = f"cohere:{self.model}"
        self.max_retries = max_retries
        self.backoff_s = backoff_s

    def __repr__(self) -> str:  # never shows the key
        return f"CohereReranker({self.model!r}, base_url={self.base_url!r})"

    def score(self, query: str, chunks: list[SourceChunk]) -> list[float]:
        if not chunks:
            return []
        documents = [passage_text(c) for c in chunks]
        body = {"model": self.model, "query": query, "documents": documents, "top_n": len(chunks)}
        return relevance_scores(self._post(body), len(chunks), self.name)

    def close(self) -> None:
        self._client.close()

    def _post(self, body: dict[str, Any]) -> Any:
        for attempt in range(self.max_retries + 1):
            response = self._send(body, last=attempt == self.max_retries)
            if response is None or (
                response.status_code in RETRY_STATUSES and attempt < self.max_retries
            ):
                time.sleep(_delay(response, self.backoff_s * 2**attempt))
                continue
            break
        assert response is not None  # the last attempt raises instead of returning None
        if response.status_code in (401, 403):
            raise ModelError(
                f"{self.name}: the rerank API rejected the key ({response.status_code}): "
                f"check ${self._key_env}"
            )
        if response.status_code >= 400:
            raise ModelError(
                f"{self.name}: the rerank API answered HTTP {response.status_code}: "
                f"{_excerpt(response.text)}"
            )
        try:
            return response.json()
        except ValueError:
            raise ModelError(
                f"{self.name}: the rerank API answered with something that is not JSON: "
                f"{_excerpt(response.text)}"
            ) from None

    def _send(self, body: dict[str, Any], *, last: bool) -> httpx.Response | None:
        """The response, or None after a transport error worth retrying."""
        import httpx

        try:
            return self._client.post("/v2/rerank", json=body)
        except httpx.TimeoutException:
            if last:
                raise ModelError(
                    f"{self.name}: no answer from {self.base_url} within the timeout"
                ) from None
        except httpx.HTTPError as exc:
            if last:
                raise ModelError(
                    f"cannot reach the rerank API at {self.base_url} ({type(exc).__name__}): "
                    f"is the URL right (${COHERE_URL_ENV})?"
                ) from None
        return None


def relevance_scores(payload: Any, count: int, name: str) -> list[float]:
    """Scores in document order from `{"results": [{"index", "relevance_score"}, ...]}`;
    a document the API left out scores 0."""
    results = payload.get("results") if isinstance(payload, dict) else None
    if not isinstance(results, list):
        raise ModelError(f"{name}: the rerank response has no results list")
    scores = [0.0] * count
    for result in results:
        index = result.get("index") if isinstance(result, dict) else None
        score = result.get("relevance_score") if isinstance(result, dict) else None
        if not isinstance(index, int) or not 0 <= index < count:
            raise ModelError(f"{name}: the rerank response names document {index!r}")
        if not isinstance(score, int | float):
            raise ModelError(f"{name}: document {index} has no numeric relevance_score")
        scores[index] = min(1.0, max(0.0, float(score)))
    return scores


def _delay(response: httpx.Response | None, backoff_s: float) -> float:
    """The server's Retry-After (in seconds, capped) when it gives one, else the backoff."""
    retry_after = response.headers.get("retry-after") if response is not None else None
    try:
        return min(MAX_RETRY_AFTER_S, max(0.0, float(retry_after))) if retry_after else backoff_s
    except ValueError:  # an HTTP date: not worth parsing for a short wait
        return backoff_s


def _excerpt(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text[:limit] + ("…" if len(text) > limit else "") if text else "(empty body)"
