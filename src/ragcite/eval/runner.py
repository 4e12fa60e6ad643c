"""Run the pipeline over a labelled question set once, keeping what every metric needs.

    >>> traces = run_questions(rag, load_questions(Path("eval/demo.jsonl")))
    >>> traces[0].response.answerable, traces[0].claim_correct
    (True, [True, True])

Each question is asked once, with `Ragcite.ask_traced`: the rankings scored are the
ones that answer used (the fused and reranked lists at `retrieve.top_k`, the dense and
keyword lists as deep as each retriever went), never a second retrieval at another depth.
The run is uncalibrated (claim confidences are the raw blend) so that calibration can
be measured before and after, and fitted, from the same traces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ragcite.config import Settings
from ragcite.eval.labels import claim_is_correct
from ragcite.eval.questions import LabelledQuestion
from ragcite.models import CitedResponse, SourceChunk
from ragcite.pipeline import Ragcite
from ragcite.score.confidence import blend_claim_confidence, claim_signals
from ragcite.trace import AskTrace

STAGE_DEPTH = 10  # ranks scored per retrieval stage (MRR@10, nDCG@10)
STAGES = ("dense", "keyword", "hybrid", "reranked")


@dataclass(frozen=True)
class QuestionTrace:
    question: LabelledQuestion
    rankings: dict[str, list[SourceChunk]]  # stage -> chunks, best first
    response: CitedResponse
    claim_correct: list[bool]
    # Each claim's uncalibrated blend before the exact-and-supported floor: what a
    # calibration map reads (`score.confidence.claim_confidence`); empty if unknown.
    raw_confidence: list[float] = field(default_factory=list)

    @property
    def chunks_by_id(self) -> dict[str, SourceChunk]:
        return {c.chunk_id: c for c in self.response.source_chunks}

    @property
    def answer_correct(self) -> bool:
        """Answered, and at least half of its claims are correct."""
        return (
            self.response.answerable
            and bool(self.claim_correct)
            and sum(self.claim_correct) * 2 >= len(self.claim_correct)
        )


def pipeline_view(rag: Ragcite, settings: Settings | None = None) -> Ragcite:
    """The same stages and store under other settings, without calibration."""
    return Ragcite(
        settings or rag.settings,
        store=rag.store,
        embedder=rag.embedder,
        reranker=rag.reranker,
        generator=rag.generator,
        support_checker=rag.support_checker,
        calibration=None,
    )


def run_questions(
    rag: Ragcite,
    questions: list[LabelledQuestion],
    *,
    settings: Settings | None = None,
    on_question: Callable[[], None] | None = None,
) -> list[QuestionTrace]:
    """Ask every question (uncalibrated) and record each retrieval stage's ranking."""
    view = pipeline_view(rag, settings)
    traces = []
    for question in questions:
        traces.append(trace_question(view, question))
        if on_question is not None:
            on_question()
    return traces


def trace_question(rag: Ragcite, question: LabelledQuestion) -> QuestionTrace:
    """Ask `question` once and keep each stage's ranking from that very ask."""
    trace = rag.ask_traced(question.query, filters=rag.filters())
    response = trace.response
    retrieved = trace.retrieved
    chunks = {c.chunk_id: c for c in response.source_chunks}
    return QuestionTrace(
        question=question,
        rankings={
            "dense": [h.chunk for h in retrieved.dense[:STAGE_DEPTH]] if retrieved else [],
            "keyword": [h.chunk for h in retrieved.keyword[:STAGE_DEPTH]] if retrieved else [],
            "hybrid": retrieved.chunks[:STAGE_DEPTH] if retrieved else [],
            "reranked": trace.reranked[:STAGE_DEPTH],
        },
        response=response,
        claim_correct=[claim_is_correct(c, chunks, question) for c in response.cited_claims],
        raw_confidence=_raw_confidences(trace),
    )


def _raw_confidences(trace: AskTrace) -> list[float]:
    """The answer's claims' raw blends, recomputed as the score stage computed them."""
    response = trace.response
    if not response.answerable or not trace.attempts:
        return []
    drafted = trace.attempts[-1].gate.claims
    if len(drafted) != len(response.cited_claims):
        return []
    chunks = {c.chunk_id: c for c in response.source_chunks}
    return [
        blend_claim_confidence(
            claim_signals(claim, chunks, self_reported=own.attribution_confidence or None)
        )
        for claim, own in zip(response.cited_claims, drafted, strict=True)
    ]
