"""Chat-completions generators: OpenAI, vLLM, Ollama, llama.cpp server, any base URL.

The request asks for JSON-schema structured output (the answer schema, with cited IDs
limited to the retrieved chunks); the transport (`ragcite.llm.openai.ChatClient`) falls
back to plain JSON mode for a server without structured outputs. Temperature is 0. The
API key is read from an environment variable when the generator is built and is sent
only in the Authorization header: it is never logged, never in an error, never serialized.

    >>> gen = OpenAICompatibleGenerator("http://127.0.0.1:8080/v1", "qwen2.5-7b-instruct")
    >>> draft = gen.generate("How long is parental leave?", chunks)
"""

from __future__ import annotations

from ragcite.config import GenerateSettings
from ragcite.generate.parse import parse_draft
from ragcite.generate.prompt import answer_schema, build_messages
from ragcite.llm.openai import COMPATIBLE_KEY_ENV, ChatClient, ResponseFormat
from ragcite.models import DraftAnswer, SourceChunk

_DEFAULTS = GenerateSettings()


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
        max_tokens: int = _DEFAULTS.llm_max_tokens,
        max_chunks: int = _DEFAULTS.llm_max_chunks,
        timeout_s: float = _DEFAULTS.llm_timeout_s,
        model_id: str | None = None,
        max_claims: int | None = None,
        max_chars: int | None = None,
    ) -> None:
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
        self._chat = ChatClient(
            base_url,
            model,
            api_key_env=api_key_env,
            require_key=require_key,
            response_format=response_format,
            timeout_s=timeout_s,
            model_id=model_id,
        )
        self.base_url = self._chat.base_url
        self.model = self._chat.model
        self.model_id = self._chat.model_id
        self.max_tokens = max_tokens
        self.max_chunks = max_chunks
        # Schema bounds for servers that honour them (llama.cpp, vLLM); OpenAI rejects some.
        self.max_claims = max_claims
        self.max_chars = max_chars

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAICompatibleGenerator({self.base_url!r}, {self.model!r})"

    @property
    def response_format(self) -> ResponseFormat:
        """How structured output is asked for (json_object after a server refused json_schema)."""
        return self._chat.response_format

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        chunks = chunks[: self.max_chunks]
        ids = [c.chunk_id for c in chunks]
        schema = answer_schema(ids, max_claims=self.max_claims, max_chars=self.max_chars)
        messages = build_messages(query, chunks, violations=violations, schema=schema)
        text = self._chat.chat(
            messages, max_tokens=self.max_tokens, schema=schema, schema_name="cited_answer"
        )
        return parse_draft(text, model_id=self.model_id, chunk_ids=ids)

    def close(self) -> None:
        self._chat.close()
