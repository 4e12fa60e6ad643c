"""ask_traced(): what each stage of one ask produced, on the demo corpus."""

from __future__ import annotations

from pathlib import Path

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from ragcite.trace import EMPTY_STORE_TEXT, progress_hook


def test_the_trace_holds_each_stage_of_the_answer(demo_rag: Ragcite) -> None:
    trace = demo_rag.ask_traced("How much parental leave does the primary caregiver get?")
    response = trace.response
    assert response.answerable
    assert trace.retrieved is not None
    top_k = demo_rag.settings.retrieve.top_k
    assert len(trace.retrieved.chunks) == top_k
    assert len(trace.retrieved.dense) >= top_k and len(trace.retrieved.keyword) >= 1
    # The reranked list is the fused one reordered, and is what the answer cites from.
    assert {c.chunk_id for c in trace.reranked} == {c.chunk_id for c in trace.retrieved.chunks}
    assert [c.chunk_id for c in trace.reranked] == [c.chunk_id for c in response.source_chunks]
    assert len(trace.attempts) == 1 and trace.final is not None
    assert trace.final.error is None and trace.final.gate.passed
    assert trace.final.draft.claims
    assert [c.claim_text for c in trace.final.scored.claims] == [
        c.claim_text for c in response.cited_claims
    ]
    assert trace.final.scored.overall_confidence == response.overall_confidence


def test_ask_is_the_traced_response(demo_rag: Ragcite) -> None:
    question = "Can I use SMS codes as my second factor for MFA?"
    plain = demo_rag.ask(question)
    traced = demo_rag.ask_traced(question).response
    per_answer = {"timings_ms", "retrieval_timestamp", "answer_id"}  # each answer its own
    assert plain.model_dump(exclude=per_answer) == traced.model_dump(exclude=per_answer)
    assert plain.answer_id and traced.answer_id and plain.answer_id != traced.answer_id


def test_an_unanswerable_question_keeps_its_rankings(demo_rag: Ragcite) -> None:
    trace = demo_rag.ask_traced("What is the airspeed velocity of an unladen swallow?")
    assert not trace.response.answerable
    assert trace.retrieved is not None and trace.reranked
    assert trace.attempts  # the generator was asked and found nothing to say


def test_an_empty_store_has_no_rankings(tmp_path: Path) -> None:
    rag = Ragcite.open(load_settings(store=str(tmp_path / "empty.db")))
    trace = rag.ask_traced("How long is parental leave?")
    rag.close()
    assert trace.response.answer_text == EMPTY_STORE_TEXT
    assert trace.retrieved is None and trace.reranked == [] and trace.final is None


def test_the_progress_hook_hears_each_claim_pass_the_gate(demo_rag: Ragcite) -> None:
    heard: list[tuple[str, int]] = []
    token = progress_hook.set(lambda stage, count: heard.append((stage, count)))
    try:
        trace = demo_rag.ask_traced("How long are database backups retained? (progress)")
    finally:
        progress_hook.reset(token)
    assert trace.final is not None
    gate = trace.final.gate
    passed = sum(c.verified for c in gate.claims)
    assert passed > 0
    assert heard == [
        ("passages", len(trace.reranked)),
        ("checking", len(trace.final.draft.claims)),
        *[("verified", i) for i in range(1, passed + 1)],
    ]
