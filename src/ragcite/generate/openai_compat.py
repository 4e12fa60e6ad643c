"""Chat-completions generators: OpenAI, vLLM, Ollama, llama.cpp server, any base URL.

The request asks for JSON-schema structured output (the answer schema, with cited IDs
limited to the retrieved chunks); a server that rejects `json_schema` is asked again in
plain JSON mode, and that choice is remembered. Temperature is 0. The API key is read
from an environment variable when the generator is built and is sent only in the
Authorization header: it is never logged, never in an error, never serialized.

    >>> gen = OpenAICompatibleGenerator("http://127.0.0.1:8080/v1", "qwen2.5-7b-instruct")
    >>> draft = gen.generate("How long is parental leave?", chunks)
"""

from __future__ import annotations

import json
from typing import Any, Literal

from ragcite.errors import ConfigError, GenerationError, UnusableOutputError
from ragcite.generate.parse import parse_draft
from ragcite.generate.prompt import answer_schema, build_messages
from ragcite.llm.http import api_key, http_client
from ragcite.models import DraftAnswer, SourceChunk

ResponseFormat = Literal["json_schema", "json_object", "none"]
OPENAI_BASE_URL = "https://api.openai.com/v1"
OPENAI_KEY_ENV = "OPENAI_API_KEY"
COMPATIBLE_KEY_ENV = "RAGCITE_LLM_API_KEY"


class OpenAICompatibleGenerator:
    """A generator over any OpenAI-compatible `/chat/completions` endpoint."""

    can_retry = True

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str | None = COMPATIBLE_KEY_ENV,
        require_key: bool = False,
        response_format: ResponseFormat = "json_schema",
        max_tokens: int = 1024,
        max_chunks: int = 8,
        timeout_s: float = 120.0,
        model_id: str | None = None,
        max_claims: int | None = None,
        max_chars: int | None = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"LLM base URL {base_url!r} must start with http:// or https://")
        if not model:
            raise ConfigError(
                "an OpenAI-compatible generator needs a model name "
                "(e.g. openai-compatible:http://127.0.0.1:8080/v1#my-model)"
            )
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
        key = api_key(api_key_env, "LLM", required=require_key)
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client = http_client(base_url, headers, timeout_s)
        self._key_env = api_key_env
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.model_id = model_id or f"openai-compatible:{self.base_url}#{model}"
        self.response_format: ResponseFormat = response_format
        self.max_tokens = max_tokens
        self.max_chunks = max_chunks
        # Schema bounds for servers that honour them (llama.cpp, vLLM); OpenAI rejects some.
        self.max_claims = max_claims
        self.max_chars = max_chars

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAICompatibleGenerator({self.base_url!r}, {self.model!r})"

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        chunks = chunks[: self.max_chunks]
        ids = [c.chunk_id for c in chunks]
        schema = answer_schema(ids, max_claims=self.max_claims, max_chars=self.max_chars)
        messages = build_messages(query, chunks, violations=violations, schema=schema)
        payload = self._post(messages, schema)
        return parse_draft(
            completion_text(payload, self.model_id), model_id=self.model_id, chunk_ids=ids
        )

    def complete(self, prompt: str) -> str:
        """The model's plain-text reply to one user message (no schema, temperature 0)."""
        payload = self._post([{"role": "user", "content": prompt}], None)
        return completion_text(payload, self.model_id)

    def close(self) -> None:
        self._client.close()

    def _post(
        self, messages: list[dict[str, str]], schema: dict[str, Any] | None
    ) -> dict[str, Any]:
        """POST /chat/completions; `schema=None` asks for plain text."""
        import httpx

        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": 0,
            "max_tokens": self.max_tokens,
        }
        if schema is not None and self.response_format == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "cited_answer", "strict": True, "schema": schema},
            }
        elif schema is not None and self.response_format == "json_object":
            body["response_format"] = {"type": "json_object"}
        try:
            response = self._client.post("/chat/completions", json=body)
        except httpx.TimeoutException:
            raise GenerationError(
                f"{self.model_id}: no answer within the timeout; raise "
                "the timeout or use a faster model"
            ) from None
        except httpx.HTTPError as exc:
            raise GenerationError(
                f"cannot reach {self.base_url} ({type(exc).__name__}): "
                "is the server running and the URL right?"
            ) from None
        if (
            response.status_code == 400
            and schema is not None
            and self.response_format == "json_schema"
            and ("response_format" in response.text or "json_schema" in response.text)
        ):
            self.response_format = "json_object"  # the server has no structured outputs
            return self._post(messages, schema)
        if response.status_code in (401, 403):
            where = f"${self._key_env}" if self._key_env else "the API key"
            raise GenerationError(
                f"{self.base_url} rejected the request ({response.status_code}): check {where}"
            )
        if response.status_code >= 400:
            raise GenerationError(
                f"{self.model_id}: HTTP {response.status_code}: {_error_message(response.text)}"
            )
        try:
            data = response.json()
        except ValueError:
            raise GenerationError(
                f"{self.base_url} answered with something that is not "
                "JSON: is it an OpenAI-compatible endpoint?"
            ) from None
        if not isinstance(data, dict):
            raise GenerationError(f"{self.base_url}: unexpected response shape")
        return data


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


def _error_message(text: str) -> str:
    try:
        data = json.loads(text)
    except ValueError:
        return text[:200]
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        return str(error.get("message", error))[:200]
    return str(error or data)[:200]
