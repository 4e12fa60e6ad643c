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
from typing import Any

from ragcite.errors import ConfigError, ModelError
from ragcite.llm.http import JSONAPI, api_key, check_base_url
from ragcite.models import SourceChunk
from ragcite.rerank.base import passage_text

COHERE_BASE_URL = "https://api.cohere.com"
COHERE_KEY_ENV = "COHERE_API_KEY"
COHERE_URL_ENV = "RAGCITE_COHERE_BASE_URL"
COHERE_TIMEOUT_S = 30.0


class CohereReranker:
    """Relevance scores from a Cohere rerank model (`relevance_score`, already in [0, 1])."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str = COHERE_KEY_ENV,
        timeout_s: float = COHERE_TIMEOUT_S,
        max_retries: int = 2,
        backoff_s: float = 0.5,
    ) -> None:
        if not model.strip():
            raise ConfigError("a Cohere reranker needs a model name (e.g. cohere:rerank-v3.5)")
        base_url = check_base_url(
            base_url or os.environ.get(COHERE_URL_ENV, "") or COHERE_BASE_URL,
            "Cohere base URL",
            hint=f" (check ${COHERE_URL_ENV})",
        )
        key = api_key(api_key_env, "Cohere")
        self.model = model.strip()
        self.base_url = base_url
        self.name = f"cohere:{self.model}"
        self._api = JSONAPI(
            base_url,
            {"Authorization": f"Bearer {key}"},
            service=f"the rerank API at {base_url}",
            who=self.name,
            key_env=api_key_env,
            timeout_s=timeout_s,
            error=ModelError,
            max_retries=max_retries,
            backoff_s=backoff_s,
            hint=f"is the URL right (${COHERE_URL_ENV})?",
        )

    def __repr__(self) -> str:  # never shows the key
        return f"CohereReranker({self.model!r}, base_url={self.base_url!r})"

    def score(self, query: str, chunks: list[SourceChunk]) -> list[float]:
        if not chunks:
            return []
        documents = [passage_text(c) for c in chunks]
        body = {"model": self.model, "query": query, "documents": documents, "top_n": len(chunks)}
        return relevance_scores(self._api.post("/v2/rerank", body), len(chunks), self.name)

    def close(self) -> None:
        self._api.close()


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
