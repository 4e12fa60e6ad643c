"""The `llm:` reranker: lenient parsing of ratings, and a real SmolLM2 on llama.cpp."""

from __future__ import annotations

import pytest

from ragcite.embed.base import Embedder
from ragcite.errors import GenerationError, UnusableOutputError
from ragcite.models import SourceChunk
from ragcite.rerank.factory import build_reranker
from ragcite.rerank.llm_judge import LLMJudgeReranker, parse_rating

QUERY = "How long is parental leave?"


def _chunks(vector_scores: tuple[float, ...] = (0.6, 0.2)) -> list[SourceChunk]:
    texts = ["Primary caregivers receive 16 weeks of paid leave.", "Backups are kept 35 days."]
    return [
        SourceChunk(
            chunk_id=f"c_{i}",
            document_id="d",
            document_title="Handbook",
            chunk_text=text,
            char_start=0,
            char_end=len(text),
            vector_similarity_score=score,
        )
        for i, (text, score) in enumerate(zip(texts, vector_scores, strict=True))
    ]


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        ("8", 0.8),
        (" 10\n", 1.0),
        ("0", 0.0),
        ("Rating: 7/10", 0.7),
        ("**9**", 0.9),
        ("I'd say 6 out of 10.", 0.6),
        ("7.5", 0.75),
        ("0.5\n\nThe passage provides", 0.5),
        ("1.0", 1.0),
        ("1", 0.1),
        ("85%", 0.85),
        ("Rating (0-10): 3", 0.3),
        ("The passage says 16 weeks, so 9.", 0.9),
        ("Yes, it answers it.", 1.0),
        ("No.", 0.0),
        ("Not relevant", 0.0),
        ("", None),
        ("The passage talks about leave.", None),
        ("42", None),
        ("version2", None),
    ],
)
def test_parse_rating(reply: str, score: float | None) -> None:
    assert parse_rating(reply) == (pytest.approx(score) if score is not None else None)


def test_scripted_completion_scores_each_chunk_once() -> None:
    prompts: list[str] = []

    def complete(prompt: str) -> str:
        prompts.append(prompt)
        return "9" if "16 weeks" in prompt else "Rating: 1/10"

    scores = LLMJudgeReranker(complete).score(QUERY, _chunks())
    assert scores == pytest.approx([0.9, 0.1])
    assert len(prompts) == 2 and all(QUERY in p for p in prompts)
    assert "Handbook\nPrimary caregivers" in prompts[0]


def test_garbage_falls_back_to_vector_similarity() -> None:
    replies = iter(["I cannot rate this.", ""])

    def complete(prompt: str) -> str:
        reply = next(replies)
        if not reply:
            raise UnusableOutputError("m returned an empty message")
        return reply

    assert LLMJudgeReranker(complete).score(QUERY, _chunks((0.6, 0.2))) == [0.6, 0.2]


def test_unreachable_model_errors_are_raised() -> None:
    def complete(prompt: str) -> str:
        raise GenerationError("cannot reach http://127.0.0.1:9")

    with pytest.raises(GenerationError, match="cannot reach"):
        LLMJudgeReranker(complete).score(QUERY, _chunks())


def test_long_passages_are_cut() -> None:
    seen: list[str] = []
    chunk = _chunks()[0].model_copy(update={"chunk_text": "word " * 2000})
    LLMJudgeReranker(lambda p: seen.append(p) or "5", max_passage_chars=300).score(QUERY, [chunk])
    assert len(seen[0]) < 600


def test_smollm2_server_scores_every_chunk(llama_server_url: str, embedder: Embedder) -> None:
    reranker = build_reranker(f"llm:openai-compatible:{llama_server_url}/v1#smollm2", embedder)
    assert reranker.name == f"llm:openai-compatible:{llama_server_url}/v1#smollm2"
    chunks = _chunks()
    scores = reranker.score(QUERY, chunks)
    assert len(scores) == len(chunks)
    assert all(0.0 <= s <= 1.0 for s in scores)
