"""ALCE-style citation precision and the LLM judge, on a hand-built response."""

from __future__ import annotations

from ragcite.eval.attribution import LLMJudge, attribution_metrics
from ragcite.eval.questions import LabelledQuestion
from ragcite.eval.runner import QuestionTrace
from ragcite.models import Citation, CitedClaim, CitedResponse, QuoteStatus, SourceChunk


def _chunk(cid: str, text: str) -> SourceChunk:
    return SourceChunk(
        chunk_id=cid,
        document_id="d",
        document_title="D",
        chunk_text=text,
        char_start=0,
        char_end=len(text),
    )


def _trace() -> QuestionTrace:
    chunks = [_chunk("c1", "Backups are kept for 35 days."), _chunk("c2", "Logs are kept.")]
    claim = CitedClaim(
        claim_text="Backups are kept for 35 days.",
        source_chunk_ids=["c1", "c2"],
        citations=[
            Citation(
                chunk_id="c1", quote="Backups are kept for 35 days.", quote_status=QuoteStatus.EXACT
            ),
            Citation(chunk_id="c2", quote="Logs are kept.", quote_status=QuoteStatus.FUZZY),
        ],
    )
    response = CitedResponse(
        query="q",
        answer_text=claim.claim_text,
        answerable=True,
        cited_claims=[claim],
        source_chunks=chunks,
    )
    question = LabelledQuestion(id="q", query="q", expected_document_id="d")
    return QuestionTrace(question, {}, response, [True])


def test_a_citation_that_is_not_needed_lowers_precision() -> None:
    prompts: list[str] = []

    def complete(prompt: str) -> str:
        prompts.append(prompt)
        evidence = prompt.split("Evidence:")[1].split("Claim:")[0]
        return "SUPPORTED" if "35 days" in evidence else "NOT_SUPPORTED"

    judge = LLMJudge(complete)
    metrics = attribution_metrics([_trace()], judge)
    assert metrics["citation_recall"] == 1.0
    assert metrics["citation_precision"] == 0.5  # c2 alone does not support; c1 alone does
    assert metrics["quote_verbatim_rate"] == 0.5
    assert metrics["hallucinated_id_rate"] == 0.0
    assert len(prompts) == 5  # joint, then alone / without for each of the two citations
    assert judge.judge_many([("x", ["y"])]) == [False]
