"""The HTTP plumbing of every LLM and rerank API (httpx, from the `llm` extra): one client
type and one mapping of what can go wrong onto ragcite's errors.

API keys are read from an environment variable when a client is built and sent only in
its headers: never logged, never in an error, never serialized.

    >>> api = JSONAPI(
    ...     "https://api.cohere.com",
    ...     {"Authorization": f"Bearer {api_key('COHERE_API_KEY', 'Cohere')}"},
    ...     service="the rerank API", who="cohere:rerank-v3.5", key_env="COHERE_API_KEY",
    ...     timeout_s=30, error=ModelError, max_retries=2,
    ... )
    >>> api.post("/v2/rerank", {"model": "rerank-v3.5", "query": "...", "documents": []})
    {'results': [], ...}

What a call can meet, and what it raises (`error`: GenerationError for generators,
ModelError for rerankers; `who` is the model in messages, `service` the server):

    no answer within `timeout_s`     "{who}: no answer from {base_url} within the timeout ..."
    connection refused, DNS, TLS     "cannot reach {service} ({ExcName}): is the server ..."
    401 / 403                        "{service} rejected the key (401): check ${key_env}"
    429, 5xx (with `max_retries`)    retried after Retry-After (capped) or a backoff
    any other status >= 400          "{who}: HTTP {status}: {the server's error message}"
    a body that is not JSON          "{service} answered with something that is not JSON: ..."
"""

from __future__ import annotations

import json
import os
import time
from typing import TYPE_CHECKING, Any

from ragcite.errors import ConfigError, GenerationError, RagciteError, missing_extra

if TYPE_CHECKING:
    import httpx

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 10.0


def api_key(env: str | None, service: str, *, required: bool = True) -> str:
    """The key in `$env` ("" when unset and not required); ConfigError naming it if required."""
    key = os.environ.get(env, "").strip() if env else ""
    if required and not key:
        raise ConfigError(f"no {service} API key: set the {env} environment variable")
    return key


def http_client(base_url: str, headers: dict[str, str], timeout_s: float) -> httpx.Client:
    """An httpx client for `base_url`; ConfigError naming the extra when httpx is missing."""
    try:
        import httpx
    except ImportError:
        raise missing_extra("httpx", "llm") from None
    return httpx.Client(
        base_url=base_url.rstrip("/"), headers=headers, timeout=httpx.Timeout(timeout_s)
    )


def check_base_url(base_url: str, what: str, *, hint: str = "") -> str:
    """`base_url` without its trailing "/"; ConfigError unless it is http(s)."""
    base_url = base_url.strip()
    if not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"{what} {base_url!r} must start with http:// or https://{hint}")
    return base_url.rstrip("/")


class JSONAPI:
    """POST JSON, get JSON: one endpoint family of one server, with the error mapping."""

    def __init__(
        self,
        base_url: str,
        headers: dict[str, str],
        *,
        service: str,
        who: str,
        key_env: str | None,
        timeout_s: float,
        error: type[RagciteError] = GenerationError,
        max_retries: int = 0,
        backoff_s: float = 0.5,
        hint: str = "is the server running and the URL right?",
    ) -> None:
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, but got {max_retries}")
        if timeout_s <= 0:
            raise ValueError(f"timeout_s must be > 0, but got {timeout_s}")
        self.base_url = base_url.rstrip("/")
        self.service = service
        self.who = who
        self.key_env = key_env
        self.timeout_s = timeout_s
        self.error = error
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.hint = hint
        self._client = http_client(self.base_url, headers, timeout_s)

    def __repr__(self) -> str:  # never shows the key
        return f"JSONAPI({self.base_url!r}, who={self.who!r})"

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """The JSON object the server answers to `body`; `self.error` for anything else."""
        return self.read(self.send(path, body))

    def send(self, path: str, body: dict[str, Any]) -> httpx.Response:
        """The server's response (any status), after retrying what `max_retries` allows:
        transport failures, 429 and 5xx. Raises when even the last attempt got no response."""
        response: httpx.Response | None = None
        for attempt in range(self.max_retries + 1):
            last = attempt == self.max_retries
            response = self._send_once(path, body, last=last)
            if last or (response is not None and response.status_code not in RETRY_STATUSES):
                break
            time.sleep(_delay(response, self.backoff_s * 2**attempt))
        assert response is not None  # the last attempt raises instead of returning None
        return response

    def read(self, response: httpx.Response) -> dict[str, Any]:
        """The JSON object in a response; the mapped error for a failed status or a bad body."""
        status = response.status_code
        if status in (401, 403):
            where = f"${self.key_env}" if self.key_env else "the server's access settings"
            raise self.error(f"{self.service} rejected the key ({status}): check {where}")
        if status >= 400:
            raise self.error(f"{self.who}: HTTP {status}: {error_message(response.text)}")
        try:
            data = response.json()
        except ValueError:
            raise self.error(
                f"{self.service} answered with something that is not JSON: "
                f"{excerpt(response.text)} ({self.hint})"
            ) from None
        if not isinstance(data, dict):
            raise self.error(f"{self.who}: unexpected response shape ({type(data).__name__})")
        return data

    def close(self) -> None:
        self._client.close()

    def _send_once(self, path: str, body: dict[str, Any], *, last: bool) -> httpx.Response | None:
        """The response, or None after a transport failure worth retrying."""
        import httpx

        try:
            return self._client.post(path, json=body)
        except httpx.TimeoutException:
            if last:
                raise self.error(
                    f"{self.who}: no answer from {self.base_url} within the timeout "
                    f"({self.timeout_s:g} s): raise the timeout or use a faster model"
                ) from None
        except httpx.HTTPError as exc:
            if last:
                raise self.error(
                    f"cannot reach {self.service} ({type(exc).__name__}): {self.hint}"
                ) from None
        return None


def error_message(text: str) -> str:
    """What a server said went wrong: `{"error": {"message"}}` (OpenAI, Anthropic),
    `{"message"}` (Cohere), `{"error": "..."}`, or the body itself, shortened."""
    try:
        data = json.loads(text)
    except ValueError:
        return excerpt(text)
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict) and "message" in error:
            return excerpt(str(error["message"]))
        if error:
            return excerpt(str(error))
        if "message" in data:
            return excerpt(str(data["message"]))
    return excerpt(text)


def excerpt(text: str, limit: int = 200) -> str:
    """`text` on one line, at most `limit` characters."""
    text = " ".join(text.split())
    return text[:limit] + ("…" if len(text) > limit else "") if text else "(empty body)"


def _delay(response: httpx.Response | None, backoff_s: float) -> float:
    """The server's Retry-After (in seconds, capped) when it gives one, else the backoff."""
    retry_after = response.headers.get("retry-after") if response is not None else None
    try:
        return min(MAX_RETRY_AFTER_S, max(0.0, float(retry_after))) if retry_after else backoff_s
    except ValueError:  # an HTTP date: not worth parsing for a short wait
        return backoff_s
