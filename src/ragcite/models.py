"""The data model: the only place these fields are defined.

Every stage hands these typed objects to the next. Field names follow the
reference design (`SourceChunk`, `CitedClaim`, `CitedResponse`) and are
extended where trust needs more (versions, offsets, quote status, support).

Scores are validated to [0, 1]; numeric strings from a model ("0.85") are coerced.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator


def _coerce_score(value: Any) -> Any:
    """Accept 0.85, "0.85", " 85% " or None; leave range checking to the field."""
    if isinstance(value, str):
        text = value.strip().rstrip("%").strip()
        try:
            number = float(text)
        except ValueError:
            return value  # pydantic reports the bad value
        return number / 100 if value.strip().endswith("%") else number
    return value


Score = Annotated[float, BeforeValidator(_coerce_score), Field(ge=0.0, le=1.0)]
OptionalScore = Score | None


def new_answer_id() -> str:
    """A new answer's ID: 12 hex digits of milliseconds since the epoch, then 16 random
    ones, so IDs sort by time and never repeat.

    >>> len(new_answer_id())
    28
    """
    return f"{int(time.time() * 1000):012x}{secrets.token_hex(8)}"


def utc_now() -> datetime:
    return datetime.now(UTC)


class DocumentStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    DELETED = "deleted"


class QuoteStatus(StrEnum):
    EXACT = "exact"
    NORMALIZED = "normalized"
    FUZZY = "fuzzy"
    NOT_FOUND = "not_found"


class SupportVerdict(StrEnum):
    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"
    CONTRADICTED = "contradicted"
    UNCHECKED = "unchecked"


class ConfidenceLabel(StrEnum):
    HIGH = "HIGH"
    MEDIUM = "MEDIUM"
    LOW = "LOW"
    VERY_LOW = "VERY_LOW"


def version_label(version: int, effective: date | None, name: str | None = None) -> str:
    """The one version label shown everywhere: the version's name (else "v" and its
    number) and its effective date.

    >>> version_label(5, date(2024, 2, 1)), version_label(2, None)
    ('v5 · 2024-02-01', 'v2')
    >>> version_label(6, date(2024, 7, 1), "2024-Q3")
    '2024-Q3 · 2024-07-01'
    """
    shown = name or f"v{version}"
    return f"{shown} · {effective.isoformat()}" if effective else shown


class Document(BaseModel):
    """One version of one document. `document_id` is stable across versions."""

    model_config = ConfigDict(frozen=True)

    document_id: str = Field(min_length=1)
    corpus: str = "default"
    title: str
    url: str | None = None
    source_uri: str
    version: int = Field(default=1, ge=1)
    # A free-text name for the version ("2024-Q3", "Rev B"), shown instead of "v6"; the
    # number still orders the versions.
    version_name: str | None = Field(default=None, min_length=1, max_length=64)
    content_sha256: str
    effective_date: date | None = None
    ingested_at: datetime = Field(default_factory=utc_now)
    last_verified: datetime | None = None
    status: DocumentStatus = DocumentStatus.ACTIVE
    superseded_by: int | None = None
    access: tuple[str, ...] = ()

    @property
    def version_label(self) -> str:
        """The version's label, as everywhere: 'v5 · 2024-02-01', 'v2' without a date,
        '2024-Q3 · 2024-07-01' with a version name."""
        return version_label(self.version, self.effective_date, self.version_name)


class SourceChunk(BaseModel):
    """A verbatim span of a document version, with provenance and retrieval scores."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    document_id: str
    document_version: int = 1
    document_version_name: str | None = None
    document_title: str
    document_url: str | None = None
    document_date: date | None = None
    document_status: DocumentStatus = DocumentStatus.ACTIVE
    corpus: str = "default"
    page_number: int | None = None
    section_heading: str | None = None
    chunk_text: str
    char_start: int = Field(ge=0)
    char_end: int = Field(ge=0)
    vector_similarity_score: Score = 0.0
    keyword_score: float = 0.0
    reranker_score: Score = 0.0
    composite_confidence: Score = 0.0
    # Set on the chunks of an answer drawn from several corpora: the display names the corpus.
    # Serialised, so an answer served from the answer cache names it too.
    show_corpus: bool = False

    @property
    def version_label(self) -> str:
        """The label of the chunk's document version (`version_label`)."""
        return version_label(self.document_version, self.document_date, self.document_version_name)

    @property
    def display(self) -> str:
        """Display metadata: "Data Retention Policy v2 · 2024-01-15 → Customer records, p. 2",
        or "[policies] Data Retention Policy v2 · 2024-01-15 → …" when several corpora were
        asked. The version label is the one shown everywhere (`version_label`)."""
        label = f"[{self.corpus}] " if self.show_corpus else ""
        label += self.document_title
        if self.document_date or self.document_version > 1 or self.document_version_name:
            label += " " + self.version_label
        if self.section_heading:
            label += f" → {self.section_heading}"
        if self.page_number is not None:
            label += f", p. {self.page_number}"
        return label


class Citation(BaseModel):
    """One claim's pointer into one chunk, with the quote checked against it."""

    chunk_id: str
    quote: str = ""
    quote_status: QuoteStatus = QuoteStatus.NOT_FOUND
    quote_start: int | None = None
    quote_end: int | None = None
    support: SupportVerdict = SupportVerdict.UNCHECKED
    support_score: OptionalScore = None
    display: str = ""


class CitedClaim(BaseModel):
    claim_text: str
    source_chunk_ids: list[str] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    attribution_confidence: Score = 0.0
    # Set by the score stage from the settings' label floors (`score.high_from`, ...).
    confidence_label: ConfidenceLabel | None = None
    # Why the claim got its label, in words a reader understands (set by the score stage).
    confidence_reason: str = ""
    is_synthesized: bool = False
    verified: bool = False

    @field_validator("source_chunk_ids", mode="before")
    @classmethod
    def _one_id_is_a_list(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class WarningFlag(BaseModel):
    """A stable machine code with a message a person can read."""

    model_config = ConfigDict(frozen=True)

    code: str
    message: str


class CitedResponse(BaseModel):
    query: str
    answer_text: str
    answerable: bool
    # A stable ID for this answer, used to save, re-check and give feedback on it.
    answer_id: str = ""
    cited_claims: list[CitedClaim] = Field(default_factory=list)
    source_chunks: list[SourceChunk] = Field(default_factory=list)
    overall_confidence: Score = 0.0
    confidence_label: ConfidenceLabel = ConfidenceLabel.VERY_LOW
    # Why the answer got its label, in words ("3 exact quotes, all supported by their sources").
    confidence_reason: str = ""
    warning_flags: list[WarningFlag] = Field(default_factory=list)
    model_id: str = ""
    retrieval_timestamp: datetime = Field(default_factory=utc_now)
    corpus_version: str = ""
    timings_ms: dict[str, float] = Field(default_factory=dict)
    # Set when the answer came from the answer cache: when it was computed, and its age.
    cached_at: datetime | None = None
    cache_age_s: float | None = None

    def chunk(self, chunk_id: str) -> SourceChunk | None:
        return next((c for c in self.source_chunks if c.chunk_id == chunk_id), None)


class DraftCitation(BaseModel):
    """A citation as a generator (or an outside system) claims it, before the gate."""

    chunk_id: str
    quote: str = ""


class DraftClaim(BaseModel):
    claim_text: str
    citations: list[DraftCitation] = Field(default_factory=list)
    attribution_confidence: OptionalScore = None
    is_synthesized: bool = False


class DraftAnswer(BaseModel):
    """What a generator returns: unverified claims. Only the gate turns these into CitedClaims."""

    answer_text: str
    claims: list[DraftClaim] = Field(default_factory=list)
    answerable: bool = True
    model_id: str = ""
    # Why a generator that declined did, in words (the answer's confidence reason).
    decline_reason: str | None = None
