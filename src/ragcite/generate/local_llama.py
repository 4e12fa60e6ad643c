"""A local GGUF model as a generator (llama.cpp via `xllamacpp`, `ragcite.llm.local`).

The answer schema becomes a grammar, so the model can only emit well-formed JSON whose
cited IDs are the retrieved ones; the gate still checks quotes and support. The model
is loaded on first use (`warm_up()`), once. Small models get a tighter schema (fewer
claims and citations, shorter claims) and fewer chunks than API models.

    >>> gen = LocalLlamaGenerator(smollm2_path(), max_tokens=256)
    >>> gen.generate("How long is parental leave?", chunks).claims
"""

from __future__ import annotations

from pathlib import Path

from ragcite.config import GenerateSettings
from ragcite.generate.parse import parse_draft
from ragcite.generate.prompt import answer_schema, build_messages
from ragcite.llm.local import DEFAULT_N_CTX, LocalLlama
from ragcite.models import DraftAnswer, SourceChunk

_DEFAULTS = GenerateSettings()
# A small local model reads fewer chunks and writes shorter claims than an API model.
LOCAL_MAX_TOKENS = 512
LOCAL_MAX_CHUNKS = 4
LOCAL_MAX_CHARS = 240
LOCAL_MAX_CITATIONS = 2


class LocalLlamaGenerator:
    """Answers with a GGUF model run in this process."""

    can_retry = True

    def __init__(
        self,
        model_path: Path,
        *,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        max_tokens: int = LOCAL_MAX_TOKENS,
        max_chunks: int = LOCAL_MAX_CHUNKS,
        max_claims: int = _DEFAULTS.max_claims,
        max_chars: int = LOCAL_MAX_CHARS,
    ) -> None:
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be > 0, but got {max_tokens}")
        if max_chunks < 1:
            raise ValueError(f"max_chunks must be > 0, but got {max_chunks}")
        self._llama = LocalLlama(model_path, n_ctx=n_ctx, n_threads=n_threads)
        self.model_path = self._llama.model_path
        self.model_id = self._llama.model_id
        self.max_tokens = max_tokens
        self.max_chunks = max_chunks
        self.max_claims = max_claims
        self.max_chars = max_chars

    def warm_up(self) -> None:
        """Load the model (once)."""
        self._llama.warm_up()

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        chunks = chunks[: self.max_chunks]
        ids = [c.chunk_id for c in chunks]
        schema = answer_schema(
            ids,
            max_claims=self.max_claims,
            max_citations=LOCAL_MAX_CITATIONS,
            max_chars=self.max_chars,
        )
        text = self._llama.chat(
            build_messages(query, chunks, violations=violations, schema=schema),
            max_tokens=self.max_tokens,
            schema=schema,
            schema_name="cited_answer",
        )
        return parse_draft(text, model_id=self.model_id, chunk_ids=ids)

    def close(self) -> None:
        self._llama.close()
