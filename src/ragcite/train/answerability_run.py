"""Run ragcite's own stages on the answerability cases and record what they produced.

For each case (see `answerability_data`): rerank its passages, generate with the
configured generator (the extractive one by default), verify with the support checker and
score, then record whether the generator answered, the answerability features of its
quotes, and each claim's raw confidence and correctness (its quote holds a gold answer
and comes from a gold passage). Records are cached as JSON lines: building them is the
slow part, and fitting and measuring then read the file.

Where the generator declines at its relevance floor, the record also holds what it would
have quoted with no floor (`answered` false, `quotes` set): a lower floor can then be
measured, and the answerability check decide instead, without rebuilding the records. Each
record keeps its question, best sentence relevance, quotes and chunks, so new features can
be computed from it (`record_features`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ragcite.embed.base import Embedder
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.models import CitedClaim, DraftAnswer, SourceChunk
from ragcite.pipeline import Ragcite
from ragcite.rerank.composite import rerank_chunks
from ragcite.score.confidence import (
    blend_claim_confidence,
    claim_signals,
    is_exact_and_supported,
    score_answer,
)
from ragcite.train.answerability_data import Case, candidate_chunks
from ragcite.verify.answerability import FEATURES, answerability_features
from ragcite.verify.gate import verify_answer
from ragcite.verify.subject import missing_subject

_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text.casefold()).strip(" .")


def claim_correct(claim: CitedClaim, case: Case) -> bool:
    """The claim quotes a gold passage and its words hold a gold answer (or yes/no)."""
    if not case.answerable or not set(claim.source_chunk_ids) & case.gold:
        return False
    quoted = _norm(" ".join([claim.claim_text, *(c.quote for c in claim.citations)]))
    answers = [_norm(a) for a in case.answers if a.strip()]
    return any(a in quoted or a in ("yes", "no") for a in answers)


def run_case(rag: Ragcite, case: Case, chunks: list[SourceChunk] | None = None) -> dict[str, Any]:
    """One case through rerank, generate, verify and score (see the module doc); `chunks`,
    when given, are the reranked passages to use instead of the case's own."""
    embedder = rag.embedder
    settings = rag.settings
    if chunks is None:
        retrieved = candidate_chunks(case, embedder)
        chunks = rerank_chunks(case.question, retrieved, rag.reranker, settings.rerank).chunks
    draft = rag.generator.generate(case.question, chunks)
    answered_at_floor = draft.answerable
    decision = None  # what the answer decision read (`decision_features`)
    if isinstance(rag.generator, ExtractiveGenerator):
        decision = rag.generator.decision_inputs(case.question, chunks)
        if not draft.answerable:
            draft = _floorless(rag, case.question, chunks)
    gate = verify_answer(
        draft, chunks, support_checker=rag.support_checker, policy=settings.gate.policy
    )
    scored = score_answer(gate.claims, chunks, settings.score)
    by_id: dict[str, SourceChunk] = {c.chunk_id: c for c in chunks}
    quotes = [
        (c.quote or claim.claim_text, by_id[c.chunk_id])
        for claim in gate.claims
        for c in claim.citations
        if c.chunk_id in by_id
    ]
    quoted = bool(draft.answerable and quotes)
    answered = quoted and answered_at_floor
    return {
        **case.record_fields(),
        "generator_answered": answered,
        "question": case.question,
        "relevance": None if decision is None else decision["relevance"],
        "decision": decision,
        "quotes": [[q, c.chunk_id] for q, c in quotes] if quoted else [],
        "chunks": [c.model_dump(mode="json") for c in chunks],
        "features": answerability_features(case.question, quotes, chunks, embedder)
        if quoted
        else None,
        "subject_missing": missing_subject(case.question, quotes, chunks, embedder)
        if quoted
        else [],
        "claims": [
            {
                "confidence": c.attribution_confidence,
                "raw": blend_claim_confidence(claim_signals(c, by_id)),
                "exact_supported": is_exact_and_supported(c),
                "chunk": sum(
                    by_id[i].composite_confidence for i in c.source_chunk_ids if i in by_id
                )
                / max(1, sum(1 for i in c.source_chunk_ids if i in by_id)),
                "label": str(c.confidence_label),
                "correct": claim_correct(c, case),
            }
            for c in scored.claims
        ],
        "overall": scored.overall_confidence,
        "label": str(scored.label),
        "answer_correct": quoted and any(claim_correct(c, case) for c in scored.claims),
    }


def _floorless(rag: Ragcite, question: str, chunks: list[SourceChunk]) -> DraftAnswer:
    """What the extractive generator would quote with no relevance floor."""
    settings = rag.settings.generate.model_copy(
        update={"min_sentence_relevance": 0.0, "answer_decision": "floor"}
    )
    return ExtractiveGenerator(rag.embedder, settings).generate(question, chunks)


def record_quotes(
    record: dict[str, Any],
) -> tuple[list[tuple[str, SourceChunk]], list[SourceChunk]]:
    """A record's (quote, chunk) pairs and its ranked chunks, as `answerability_features` takes."""
    chunks = [SourceChunk.model_validate(c) for c in record["chunks"]]
    by_id = {c.chunk_id: c for c in chunks}
    return [(q, by_id[i]) for q, i in record["quotes"] if i in by_id], chunks


def refresh_record(record: dict[str, Any], embedder: Embedder) -> bool:
    """Recompute a record's answerability features (when some of FEATURES are missing:
    the record predates them) and its subject check (always: the check is cheap and
    may have changed since the record was made), from its stored question, quotes and
    chunks; True when anything changed."""
    if not record.get("quotes"):
        return False
    stale = record.get("features") is None or not set(FEATURES) <= set(record["features"])
    quotes, chunks = record_quotes(record)
    question = record["question"]
    if stale:
        record["features"] = answerability_features(question, quotes, chunks, embedder)
    missing = missing_subject(question, quotes, chunks, embedder)
    changed = stale or record.get("subject_missing") != missing
    record["subject_missing"] = missing
    return changed


def refresh_records(path: Path, embedder: Embedder) -> list[dict[str, Any]]:
    """The records in `path`, each refreshed (`refresh_record`); the file is rewritten
    when any changed."""
    records = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    changed = [refresh_record(r, embedder) for r in records]
    if any(changed):
        tmp = path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        tmp.replace(path)
    return records


def run_cases(rag: Ragcite, cases: list[Case], path: Path) -> list[dict[str, Any]]:
    """Every case's record, read from `path` where already computed (and refreshed:
    `refresh_records`), else computed and added."""
    done: dict[str, dict[str, Any]] = {}
    if path.exists():
        for record in refresh_records(path, rag.embedder):
            done[record["id"]] = record
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        for case in cases:
            if case.id not in done:
                done[case.id] = run_case(rag, case)
                out.write(json.dumps(done[case.id]) + "\n")
                out.flush()
    return [done[c.id] for c in cases]
