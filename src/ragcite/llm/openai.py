"""OpenAI-compatible chat completions (`POST /chat/completions`): OpenAI, vLLM, Ollama,
llama.cpp server, any base URL.

Temperature is always 0. A request may carry a JSON schema for structured output; a
server that rejects `json_schema` is asked again in plain JSON mode, and that choice is
remembered for the client's life.

    >>> chat = ChatClient("http://127.0.0.1:8080/v1", "qwen2.5-7b-instruct")
    >>> chat.complete("Answer with one word: is the sky blue?", max_tokens=8)
    'Yes'
"""

from __future__ import annotations

from typing import Any, Literal

from ragcite.config import GenerateSettings
from ragcite.errors import ConfigError, GenerationError, UnusableOutputError
from ragcite.llm.http import JSONAPI, api_key, check_base_url

ResponseFormat = Literal["json_schema", "json_object", "none"]
OPENAI_BASE_URL = "https://api.openai.com/v1"
OPENAI_KEY_ENV = "OPENAI_API_KEY"
COMPATIBLE_KEY_ENV = "RAGCITE_LLM_API_KEY"
_DEFAULTS = GenerateSettings()


class ChatClient:
    """One model behind an OpenAI-compatible `/chat/completions` endpoint."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str | None = COMPATIBLE_KEY_ENV,
        require_key: bool = False,
        response_format: ResponseFormat = "json_schema",
        timeout_s: float = _DEFAULTS.llm_timeout_s,
        model_id: str | None = None,
    ) -> None:
        base_url = check_base_url(base_url, "LLM base URL")
        if not model.strip():
            raise ConfigError(
                "an OpenAI-compatible model needs a name "
                "(e.g. openai-compatible:http://127.0.0.1:8080/v1#my-model)"
            )
        key = api_key(api_key_env, "LLM", required=require_key)
        self.base_url = base_url
        self.model = model.strip()
        self.model_id = model_id or f"openai-compatible:{base_url}#{self.model}"
        self.response_format: ResponseFormat = response_format
        self._api = JSONAPI(
            base_url,
            {"Authorization": f"Bearer {key}"} if key else {},
            service=base_url,
            who=self.model_id,
            key_env=api_key_env,
            timeout_s=timeout_s,
            error=GenerationError,
            hint="is it an OpenAI-compatible server, running, at the right URL?",
        )

    def __repr__(self) -> str:  # never shows the key
        return f"ChatClient({self.base_url!r}, {self.model!r})"

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        max_tokens: int,
        schema: dict[str, Any] | None = None,
        schema_name: str = "answer",
    ) -> str:
        """The assistant's reply to `messages`; JSON in `schema` when one is given."""
        payload = self._payload(messages, max_tokens, schema, schema_name)
        return completion_text(payload, self.model_id)

    def complete(self, prompt: str, *, max_tokens: int) -> str:
        """The model's plain-text reply to one user message."""
        return self.chat([{"role": "user", "content": prompt}], max_tokens=max_tokens)

    def _payload(
        self,
        messages: list[dict[str, str]],
        max_tokens: int,
        schema: dict[str, Any] | None,
        schema_name: str,
    ) -> dict[str, Any]:
        """The raw chat-completions response."""
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": 0,
            "max_tokens": max_tokens,
        }
        if schema is not None and self.response_format == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "strict": True, "schema": schema},
            }
        elif schema is not None and self.response_format == "json_object":
            body["response_format"] = {"type": "json_object"}
        response = self._api.send("/chat/completions", body)
        if (
            response.status_code == 400
            and "response_format" in body
            and self.response_format == "json_schema"
            and ("response_format" in response.text or "json_schema" in response.text)
        ):
            self.response_format = "json_object"  # the server has no structured outputs
            return self._payload(messages, max_tokens, schema, schema_name)
        return self._api.read(response)

    def close(self) -> None:
        self._api.close()


def completion_text(payload: dict[str, Any], model_id: str) -> str:
    """The assistant's text from a chat-completions response (raises on refusals/empties)."""
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise GenerationError(f"{model_id}: the response has no choices")
    message = choices[0].get("message") or {}
    refusal = message.get("refusal")
    if refusal:
        raise UnusableOutputError(f"{model_id} refused to answer: {refusal}")
    content = message.get("content")
    if isinstance(content, list):  # content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if not isinstance(content, str) or not content.strip():
        raise UnusableOutputError(f"{model_id} returned an empty message")
    return content
