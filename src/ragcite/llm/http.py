"""The HTTP clients of the LLM and rerank APIs (httpx, from the `llm` extra).

API keys are read from an environment variable when a client is built and sent only in
its headers: never logged, never in an error, never serialized.

    >>> key = api_key("COHERE_API_KEY", "Cohere")
    >>> client = http_client("https://api.cohere.com", {"Authorization": f"Bearer {key}"}, 30)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ragcite.errors import ConfigError, missing_extra

if TYPE_CHECKING:
    import httpx


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
