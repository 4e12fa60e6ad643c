"""Request bodies of the API. Responses are the render/api.py JSON and views.py."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from ragcite.trace import MAX_QUERY_CHARS

EMPTY_QUESTION = 'the question is empty: ask something, e.g. "How long is parental leave?"'


class AskRequest(BaseModel):
    """A question, with the same options as `ragcite ask`. The question may be sent as
    `question` or as `query` (the name the response uses)."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(
        max_length=MAX_QUERY_CHARS,
        validation_alias=AliasChoices("question", "query"),
        examples=["How long do we keep customer PII?"],
        description="The question; `query` is accepted as the same field.",
    )
    top_k: int | None = Field(default=None, ge=1, le=200, description="Chunks to retrieve.")
    corpora: list[str] | None = Field(default=None, description="Only these corpora.")
    document_ids: list[str] | None = Field(
        default=None,
        max_length=500,
        description="Only these documents (IDs as GET /documents lists them).",
        examples=[["data-retention-policy"]],
    )
    include_superseded: bool | None = Field(
        default=None, description="Also search superseded document versions."
    )
    as_of: date | None = Field(
        default=None,
        description="Answer from the document versions in force on this date (YYYY-MM-DD), "
        "superseded or not.",
    )

    @field_validator("question")
    @classmethod
    def _not_empty(cls, value: str) -> str:
        if not value.strip():
            raise ValueError(EMPTY_QUESTION)
        return value.strip()


Rating = Literal["helpful", "not_helpful", "wrong_citation", "missing_citation"]


class FeedbackRequest(BaseModel):
    """A person's judgement of an answer, or of one claim or citation in it."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        validation_alias=AliasChoices("query", "question"),
        description="The question the feedback is about; `question` is accepted as the same field.",
    )
    rating: Rating
    chunk_id: str | None = Field(default=None, max_length=200)
    claim_text: str | None = Field(default=None, max_length=4000)
    comment: str | None = Field(default=None, max_length=4000)
    response: dict[str, Any] | None = Field(
        default=None, description="The response JSON the feedback is about, kept for audit."
    )


class VerifyRequest(BaseModel):
    """An answer from any system and the source texts it cites."""

    model_config = ConfigDict(extra="forbid")

    answer: dict[str, Any] = Field(
        description='{"claims": [{"claim_text", "citations": [{"chunk_id", "quote"}]}]}, the '
        'API JSON of /ask, or {"citations": [{"source_id", "quote", "claim"?}]}.',
        examples=[{"citations": [{"source_id": "s1", "quote": "20 weeks"}]}],
    )
    sources: list[dict[str, Any]] = Field(
        max_length=500,
        description='[{"id" | "chunk_id" | "source_id", "text", "title"?, "section"?, "page"?}]',
        examples=[[{"id": "s1", "text": "The primary caregiver receives 20 weeks of leave."}]],
    )
