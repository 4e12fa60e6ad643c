"""Typed settings. Read from a TOML file and the environment at the edges only.

Stages receive the part of the settings they need as arguments; nothing reads
a global. `load_settings()` is called by the CLI and the server, once.

Environment:
    RAGCITE_STORE    the store: a SQLite file path or `sqlite:///PATH`, or a URL whose scheme
                     names an installed store backend (`postgresql://…`); default a SQLite
                     file under the user data dir
    RAGCITE_CONFIG   path of a TOML settings file; default `ragcite.toml` in the working directory
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import ErrorDetails

from ragcite.errors import ConfigError

STORE_ENV = "RAGCITE_STORE"
CONFIG_ENV = "RAGCITE_CONFIG"
DEFAULT_CONFIG_FILE = "ragcite.toml"


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChunkSettings(_Section):
    chunk_size: int = Field(default=800, ge=100, le=20_000)
    chunk_overlap: int = Field(default=100, ge=0)

    @model_validator(mode="after")
    def _overlap_below_size(self) -> ChunkSettings:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError(
                f"chunk_overlap must be smaller than chunk_size, got {self.chunk_overlap} >= "
                f"{self.chunk_size}"
            )
        return self


class RetrieveSettings(_Section):
    top_k: int = Field(default=8, ge=1, le=200)
    candidates_per_retriever: int = Field(default=30, ge=1, le=1000)
    rrf_k: int = Field(default=60, ge=1)
    include_superseded: bool = False


class RerankSettings(_Section):
    # learned (default), cross-encoder:DIR, cohere:MODEL or llm:GENERATOR-SPEC.
    backend: str = "learned"
    vector_weight: float = Field(default=0.3, ge=0.0, le=1.0)
    reranker_weight: float = Field(default=0.7, ge=0.0, le=1.0)
    # Skip reranking when the top vector scores are all at least this high ...
    fast_path_min_score: float = Field(default=0.80, ge=0.0, le=1.0)
    # ... and within this spread of each other.
    fast_path_max_spread: float = Field(default=0.05, ge=0.0, le=1.0)
    fast_path_top_n: int = Field(default=3, ge=1)
    # Compound questions ("…, and how …"): score each chunk against every part as well,
    # keeping its best score (one reranker call per part more).
    score_question_parts: bool = True
    # A model file from scripts/train_rerank.py for the learned reranker, instead of the
    # packaged one.
    model_path: str | None = None


class GenerateSettings(_Section):
    max_claims: int = Field(default=4, ge=1, le=20)
    # A sentence joined to an answer (and, with `answer_decision = "floor"`, the best one)
    # must reach this relevance to the question. 0.40 with the subject and reading checks
    # (gate.subject_check, gate.reading_check) behind it: on held-out shared data it answers
    # 89.9% of answerable questions (0.45: 86.7%) for one point of decline F1
    # (docs/models/answerability.md).
    min_sentence_relevance: float = Field(default=0.40, ge=0.0, le=1.0)
    # Whether to answer at all: "learned" (a model over the candidates fitted on the blind
    # rounds and the shared data, `ragcite.generate.answer_decision`: cross-validated on the
    # rounds 16 more right answers and 59 fewer wrong ones, held-out decline F1 0.711 -> 0.733,
    # docs/models/answer-decision.md) or "floor" (the best sentence's relevance reaches
    # `min_sentence_relevance`).
    answer_decision: Literal["learned", "floor"] = "learned"
    # The learned decision answers from this probability that the answer is right (unset:
    # the threshold chosen when the model was fitted).
    answer_threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    # Further claims must score within this margin of the best sentence.
    claim_margin: float = Field(default=0.05, ge=0.0, le=1.0)
    # The extractive generator ranks sentences by their cosine with the question moved by a
    # learned low-rank map (`ragcite.generate.question_adapter`); false: the plain cosine.
    question_map: bool = True
    llm: str | None = None  # "openai:gpt-4o-mini", "local:PATH.gguf", ...
    # LLM generators only: answer length, time limit, and how many top chunks they read.
    llm_max_tokens: int = Field(default=1024, ge=16, le=32_768)
    llm_timeout_s: float = Field(default=120.0, gt=0.0)
    llm_max_chunks: int = Field(default=6, ge=1, le=50)


# The confidence label floors (HIGH, MEDIUM, LOW; below LOW is VERY_LOW): the defaults of
# `score.high_from`, `score.medium_from` and `score.low_from`.
HIGH_FROM, MEDIUM_FROM, LOW_FROM = 0.85, 0.65, 0.45


class ScoreSettings(_Section):
    claim_weight: float = Field(default=0.6, ge=0.0, le=1.0)
    chunk_weight: float = Field(default=0.4, ge=0.0, le=1.0)
    # Labels: HIGH from high_from, MEDIUM from medium_from, LOW from low_from, else VERY_LOW.
    # Below medium_from a claim or answer also counts as low confidence (a warning flag).
    high_from: float = Field(default=HIGH_FROM, ge=0.0, le=1.0)
    medium_from: float = Field(default=MEDIUM_FROM, ge=0.0, le=1.0)
    low_from: float = Field(default=LOW_FROM, ge=0.0, le=1.0)
    # A calibration map file (`ragcite eval calibration --fit`); unset: the packaged map
    # (docs/models/calibration.md); "none": the raw, uncalibrated blend.
    calibration_path: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _renamed_keys(cls, data: Any) -> Any:
        """`low_confidence_below`, the old name of `medium_from` (the same floor), still reads."""
        if isinstance(data, dict) and "low_confidence_below" in data:
            data = dict(data)
            old = data.pop("low_confidence_below")
            if "medium_from" in data and data["medium_from"] != old:
                raise ValueError(
                    "low_confidence_below is the old name of medium_from: set medium_from only"
                )
            data["medium_from"] = old
        return data

    @model_validator(mode="after")
    def _floors_in_order(self) -> ScoreSettings:
        if not self.low_from <= self.medium_from <= self.high_from:
            raise ValueError(
                "label floors must satisfy low_from <= medium_from <= high_from, but got "
                f"{self.low_from}, {self.medium_from}, {self.high_from}"
            )
        return self

    @property
    def low_confidence_below(self) -> float:
        """Below this a claim or answer counts as low confidence: the MEDIUM floor."""
        return self.medium_from


class GateSettings(_Section):
    policy: Literal["strict", "annotate"] = "annotate"
    retry_on_failure: bool = True
    # Below this overall confidence the answer is regenerated once; by default (in Settings)
    # the LOW label floor, `score.low_from`.
    min_overall_confidence: float = Field(default=LOW_FROM, ge=0.0, le=1.0)
    # The support checker's semantic layer: "minilm" (most accurate; at ask time it reuses
    # the reranker's vectors), "static" (lookup-table vectors, for many fresh claims), "none",
    # or the name of a support checker a plugin registers (entry-point group ragcite.support).
    support_semantic: str = "minilm"
    # A support-model file from `ragcite train support`, instead of the packaged one.
    support_model_path: str | None = None
    # Optional LLM judge for borderline support scores (off by default): an LLM spec as
    # for generate.llm. It judges scores in [partial threshold - below, supported + above].
    support_judge: str | None = None
    support_judge_below: float = Field(default=0.05, ge=0.0, le=1.0)
    support_judge_above: float = Field(default=0.15, ge=0.0, le=1.0)
    support_judge_timeout_s: float = Field(default=30.0, gt=0.0)
    # Decline when the quoted passages do not answer the question (ragcite.verify.answerability):
    # the learned check, at its model's threshold unless `answerability_threshold` is set.
    # Off by default: on the demo set it declines 5 of 89 answerable questions (docs/models/
    # answerability.md); turn it on for corpora like its training data (encyclopedic text).
    answerability: bool = False
    answerability_threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    # Decline when a word that carries the question's topic ("dental", "sabbatical") is in
    # none of the retrieved passages and has no close synonym in the quoted ones
    # (ragcite.verify.subject). On by default: a deterministic rule, no model.
    subject_check: bool = True
    # Decline when the quoted sentences, read closely, answer another question: the
    # question is negated ("What is not used…") and they are not, or they hold the opposite
    # of one of its words ("smallest" asked, "biggest" said) (ragcite.verify.reading).
    # On by default: a deterministic rule, no model.
    reading_check: bool = True


class EmbedSettings(_Section):
    # An all-MiniLM-L6-v2 ONNX file (384-d, the same tokenizer) to use instead of the
    # packaged int8 one; vectors must match the ones the store was ingested with.
    model_path: str | None = None
    # onnxruntime's worker threads spin between runs: each question about 1 ms sooner, at
    # a third more CPU per question and fewer questions a second when several are asked at
    # once (README, Performance). Off: they sleep.
    spin_threads: bool = False


MiB = 1024 * 1024


class IngestSettings(_Section):
    """Limits on each ingested file, so one hostile or huge file cannot exhaust the machine."""

    # A file larger than this is refused before it is read (CLI and uploads alike).
    max_file_bytes: int = Field(default=50 * MiB, ge=1)
    # DOCX (a zip): the declared unpacked size of all parts, and the compression ratio of any
    # part over 1 MiB, checked from the zip directory before anything is decompressed.
    max_unpacked_bytes: int = Field(default=256 * MiB, ge=1)
    max_compression_ratio: float = Field(default=200.0, ge=1.0)
    # PDF: pages and cross-reference objects.
    max_pdf_pages: int = Field(default=5_000, ge=1)
    max_pdf_objects: int = Field(default=500_000, ge=1)
    # A file that takes longer (parse, chunk, embed) is abandoned; nothing of it is stored.
    max_seconds_per_file: float = Field(default=600.0, gt=0.0)
    # Texts (chunks and their sentences) embedded per step; progress within a file embedded
    # alone is reported after each step.
    embed_batch: int = Field(default=128, ge=1, le=4096)
    # Embed each chunk's sentences at ingest and store them with it, so `ask` embeds the
    # question only (about 3x the embedding work at ingest, ~4 KB more per chunk).
    sentence_vectors: bool = True
    # Where those sentence vectors come from: "heading" embeds each sentence once, with its
    # section heading (what the reranker and the generator use), and pools its plain forms
    # (the gate's) from that same forward pass; "separate" embeds every form on its own (about
    # twice the sentence tokens); "spans" pools each sentence's tokens from the chunk's own
    # forward pass (no extra model run; cites less well). With "heading" and "spans" a
    # sentence past the token limit is embedded on its own.
    sentence_pooling: Literal["separate", "heading", "spans"] = "heading"


class ServerSettings(_Section):
    """Connection and load limits of `ragcite serve`."""

    # Requests handled at once, and how many more may wait; beyond that: 503 + Retry-After.
    max_in_flight: int = Field(default=32, ge=1)
    max_queued: int = Field(default=64, ge=0)
    queue_timeout_s: float = Field(default=10.0, gt=0.0)
    retry_after_s: int = Field(default=5, ge=1)
    # An idle keep-alive connection is closed after timeout_keep_alive_s. A request whose
    # headers have not all arrived body_read_timeout_s after the connection opened (or after
    # the previous response) is closed; a body that stalls that long between pieces is
    # answered 408 and its connection closed.
    timeout_keep_alive_s: float = Field(default=5.0, gt=0.0)
    body_read_timeout_s: float = Field(default=15.0, gt=0.0)
    # Names clients may reach `ragcite serve` by (the Host header; a browser's Origin on
    # requests that change something): a name, an IP, ".example.com" for a domain and its
    # subdomains, or "*" for any. Add the server's own name when serving beyond loopback.
    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")


class CorpusSettings(_Section):
    # A corpus that lives in another store: `[corpora.contracts] store = "postgresql://…"`.
    # `ask --corpus contracts` then retrieves from that store (several such corpora, and
    # the main store's, concurrently).
    store: str
    # Its corpus name inside that store, when it differs from the section's name.
    corpus: str | None = None


class CacheSettings(_Section):
    """The answer cache: repeated questions answered from it while the corpus is unchanged."""

    enabled: bool = True
    # How long a cached answer is served (seconds); any ingest, delete or version change
    # ends it sooner (the key holds the corpus version).
    ttl_s: float = Field(default=86_400.0, gt=0.0)
    # Unset: the store's own table. "redis://host:6379/0" (the `redis` extra): a Redis server.
    url: str | None = None


class LifecycleSettings(_Section):
    """How documents age."""

    # Citations to a document not verified (`ragcite documents verify ID`) for this many days
    # (counted from its effective date, or when it was ingested, if it never was) carry a
    # `stale_source` warning; 0 turns the check off.
    stale_after_days: int = Field(default=365, ge=0)
    # Saved answers (every API answer, `ragcite ask --save`) are kept this many days, then
    # pruned; 0 keeps them forever.
    answer_retention_days: int = Field(default=90, ge=0)


class Settings(_Section):
    # Where the collection lives: a SQLite file path or `sqlite:///PATH`, or a URL whose
    # scheme names a store backend (entry-point group `ragcite.stores`).
    store: str
    # A read-only copy of `store` (a PostgreSQL streaming replica's URL) that `ask` and
    # `search` retrieve from; ingest, delete, documents and feedback use `store`.
    store_read: str | None = None
    corpus: str = "default"
    embed: EmbedSettings = EmbedSettings()
    chunk: ChunkSettings = ChunkSettings()
    retrieve: RetrieveSettings = RetrieveSettings()
    rerank: RerankSettings = RerankSettings()
    generate: GenerateSettings = GenerateSettings()
    score: ScoreSettings = ScoreSettings()
    gate: GateSettings = GateSettings()
    ingest: IngestSettings = IngestSettings()
    server: ServerSettings = ServerSettings()
    corpora: dict[str, CorpusSettings] = {}
    cache: CacheSettings = CacheSettings()
    lifecycle: LifecycleSettings = LifecycleSettings()

    @model_validator(mode="before")
    @classmethod
    def _store_path_alias(cls, data: Any) -> Any:
        """`store_path` (deprecated) is read as `store`; a Path is taken as its text."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        legacy = data.pop("store_path", None)
        if data.get("store") is None and legacy is not None:
            data["store"] = legacy
        if isinstance(data.get("store"), Path):
            data["store"] = str(data["store"])
        return data

    @model_validator(mode="before")
    @classmethod
    def _retry_floor_follows_the_low_label(cls, data: Any) -> Any:
        """Unless set, `gate.min_overall_confidence` is `score.low_from`: one number."""
        if not isinstance(data, dict):
            return data
        score, gate = data.get("score"), data.get("gate")
        low = score.get("low_from") if isinstance(score, dict) else None
        if low is None or (isinstance(gate, dict) and "min_overall_confidence" in gate):
            return data
        if gate is not None and not isinstance(gate, dict):
            return data  # a GateSettings object: its value stands
        return {**data, "gate": {**(gate or {}), "min_overall_confidence": low}}


def default_store_path() -> Path:
    return Path(platformdirs.user_data_dir("ragcite")) / "ragcite.db"


def config_file_path(explicit: Path | None = None) -> Path:
    """The settings file in use: `explicit`, else $RAGCITE_CONFIG, else ./ragcite.toml
    (which need not exist).

    >>> config_file_path(Path("hr.toml"))
    PosixPath('hr.toml')
    """
    return explicit or _env_path(CONFIG_ENV) or Path(DEFAULT_CONFIG_FILE)


def load_settings(
    config_path: Path | None = None,
    store: str | Path | None = None,
    overrides: dict[str, Any] | None = None,
    *,
    store_path: str | Path | None = None,
) -> Settings:
    """Settings from (lowest first) defaults, the TOML file, the environment, explicit arguments.

    `store` (a path or a store URL) wins over $RAGCITE_STORE, which wins over the file's
    `store` (or its deprecated `store_path`). `store_path=` is a deprecated alias of `store`.
    """
    data: dict[str, Any] = {}
    path = config_file_path(config_path)
    if config_path is not None and not path.exists():
        raise ConfigError(f"{path}: settings file not found")
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    for key, value in (overrides or {}).items():
        _set_dotted(data, key, value)
    from_file = data.pop("store", None) or data.pop("store_path", None)
    chosen = store or store_path or os.environ.get(STORE_ENV, "").strip() or from_file
    data["store"] = str(chosen or default_store_path())
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}{_given(err)}"
            for err in exc.errors()
        )
        raise ConfigError(f"invalid settings ({path}): {problems}") from None


def _given(error: ErrorDetails) -> str:
    """The value a setting with a fixed set of choices was given (never other values: a
    mistyped secret must not be echoed)."""
    return f", not {error['input']!r}" if error["type"] == "literal_error" else ""


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name, "").strip()
    return Path(value).expanduser() if value else None


def _set_dotted(data: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, leaf = dotted.split(".")
    node = data
    for part in parents:
        node = node.setdefault(part, {})
    node[leaf] = value
