"""Claude through the Anthropic Messages API (`POST /messages`).

>>> claude = MessagesClient("claude-sonnet-4-5")       # key from $ANTHROPIC_API_KEY
>>> claude.complete("Answer with one word: is the sky blue?", max_tokens=8)
'Yes'
"""

from __future__ import annotations

from typing import Any

from ragcite.config import GenerateSettings
from ragcite.errors import GenerationError, UnusableOutputError
from ragcite.llm.http import JSONAPI, api_key, check_base_url

ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1"
ANTHROPIC_KEY_ENV = "ANTHROPIC_API_KEY"
ANTHROPIC_VERSION = "2023-06-01"
_DEFAULTS = GenerateSettings()


class MessagesClient:
    """One Claude model behind the Messages API."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str = ANTHROPIC_BASE_URL,
        api_key_env: str = ANTHROPIC_KEY_ENV,
        timeout_s: float = _DEFAULTS.llm_timeout_s,
    ) -> None:
        base_url = check_base_url(base_url, "Anthropic base URL")
        key = api_key(api_key_env, "Anthropic")
        self.model = model.strip()
        self.model_id = f"anthropic:{self.model}"
        self._api = JSONAPI(
            base_url,
            {"x-api-key": key, "anthropic-version": ANTHROPIC_VERSION},
            service="the Anthropic API",
            who=self.model_id,
            key_env=api_key_env,
            timeout_s=timeout_s,
            error=GenerationError,
            hint="is the base URL the Anthropic API's?",
        )

    def __repr__(self) -> str:  # never shows the key
        return f"MessagesClient({self.model!r})"

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """The Messages API's response to a full request `body`."""
        return self._api.post("/messages", body)

    def complete(self, prompt: str, *, max_tokens: int) -> str:
        """Claude's plain-text reply to one user message (temperature 0)."""
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
        payload = self.create(
            {
                "model": self.model,
                "max_tokens": max_tokens,
                "temperature": 0,
                "messages": [{"role": "user", "content": prompt}],
            }
        )
        blocks = payload.get("content")
        text = "".join(
            str(b.get("text", ""))
            for b in (blocks if isinstance(blocks, list) else [])
            if isinstance(b, dict) and b.get("type") == "text"
        )
        if not text.strip():
            raise UnusableOutputError(f"{self.model_id} returned no text")
        return text

    def close(self) -> None:
        self._api.close()
