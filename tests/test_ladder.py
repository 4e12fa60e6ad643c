"""The gate and the fallback ladder with a scripted generator that replays bad outputs.

The store, retrieval, reranking, gate and support checker are all real; only the
generator's text is scripted (and it goes through the real parser). Whatever the
script does, no response may present an unverified citation as verified.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ragcite.config import load_settings
from ragcite.embed.base import Embedder
from ragcite.generate.parse import parse_draft
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.models import CitedResponse, DraftAnswer, QuoteStatus, SourceChunk
from ragcite.pipeline import DEGRADED_TEXT, Ragcite
from ragcite.rerank.sentence_similarity import SentenceSimilarityReranker
from ragcite.verify.normalize import normalize
from ragcite.verify.support import default_support_checker

QUESTION = "How long are full system backups kept before being overwritten?"
ANSWER = "Full system backups are kept for 35 days before they are overwritten."
# True, and in the corpus, but about something else (the employee handbook).
OTHER_ANSWER = "Employees receive up to 10 days of fully paid sick leave per year."

Script = Callable[[list[SourceChunk]], str]


class ScriptedGenerator:
    """Replays one scripted output per call (the last one repeats), through the real parser."""

    model_id = "scripted"

    def __init__(self, *scripts: Script, can_retry: bool = True) -> None:
        self.scripts = scripts
        self.can_retry = can_retry
        self.calls: list[list[str] | None] = []

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        self.calls.append(violations)
        script = self.scripts[min(len(self.calls), len(self.scripts)) - 1]
        return parse_draft(
            script(chunks), model_id=self.model_id, chunk_ids=[c.chunk_id for c in chunks]
        )


def holding(chunks: list[SourceChunk], sentence: str) -> SourceChunk:
    return next(c for c in chunks if sentence in c.chunk_text)


def answer(claims: list[dict[str, Any]], **extra: Any) -> str:
    return json.dumps({"answerable": True, "claims": claims, **extra})


def claim(text: str, chunk_id: str, quote: str, confidence: Any = 0.95) -> dict[str, Any]:
    return {
        "claim_text": text,
        "citations": [{"chunk_id": chunk_id, "quote": quote}],
        "attribution_confidence": confidence,
        "is_synthesized": False,
    }


def good(chunks: list[SourceChunk]) -> str:
    return answer([claim(ANSWER, holding(chunks, ANSWER).chunk_id, ANSWER)])


def hallucinated_id(chunks: list[SourceChunk]) -> str:
    return answer([claim(ANSWER, "c_deadbeefdeadbeef", ANSWER)])


def paraphrased_quote(chunks: list[SourceChunk]) -> str:
    return answer(
        [
            claim(
                "Backups stay around for roughly five weeks.",
                holding(chunks, ANSWER).chunk_id,
                "backups stay around for roughly five weeks",
            )
        ]
    )


def quote_from_another_chunk(chunks: list[SourceChunk]) -> str:
    other = next(c for c in chunks if ANSWER not in c.chunk_text)
    return answer([claim(ANSWER, other.chunk_id, ANSWER)])


def uncited_sentence(chunks: list[SourceChunk]) -> str:
    return answer(
        [claim(ANSWER, holding(chunks, ANSWER).chunk_id, ANSWER)],
        answer_text=f"{ANSWER} Copies are also shipped to a vault in Zurich every Friday night.",
    )


def string_confidences(chunks: list[SourceChunk]) -> str:
    return answer(
        [claim(ANSWER, f"[{holding(chunks, ANSWER).chunk_id.upper()}]", ANSWER, confidence="0.9")]
    )


def broken_json(chunks: list[SourceChunk]) -> str:
    return '{"answerable": true, "claims": [{"claim_text": "Full system backups are'


def different_question(chunks: list[SourceChunk]) -> str:
    return answer([claim(OTHER_ANSWER, chunks[0].chunk_id, OTHER_ANSWER)])


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory, demo_store_template: Path) -> Path:
    path = tmp_path_factory.mktemp("ladder") / "demo.db"
    shutil.copy(demo_store_template, path)
    return path


@pytest.fixture
def make_rag(store_path: Path, embedder: Embedder) -> Iterator[Callable[..., Ragcite]]:
    opened: list[Ragcite] = []
    checker = default_support_checker(embedder)

    def make(generator: ScriptedGenerator, **gate: Any) -> Ragcite:
        settings = load_settings(
            store_path=store_path, overrides={f"gate.{k}": v for k, v in gate.items()}
        )
        rag = Ragcite(
            settings,
            store=SQLiteStore(store_path),
            embedder=embedder,
            reranker=SentenceSimilarityReranker(embedder),
            generator=generator,
            support_checker=checker,
        )
        opened.append(rag)
        return rag

    yield make
    for rag in opened:
        rag.close()


def ask(
    make_rag: Callable[..., Ragcite], *scripts: Script, **options: Any
) -> tuple[CitedResponse, ScriptedGenerator]:
    can_retry = options.pop("can_retry", True)
    generator = ScriptedGenerator(*scripts, can_retry=can_retry)
    response = make_rag(generator, **options).ask(QUESTION)
    assert_never_unverified_as_verified(response)
    return response, generator


def assert_never_unverified_as_verified(response: CitedResponse) -> None:
    for cited in response.cited_claims:
        found = [c for c in cited.citations if c.quote_status is not QuoteStatus.NOT_FOUND]
        if cited.verified:
            assert found, f"verified claim without a located quote: {cited}"
        for citation in found:
            chunk = response.chunk(citation.chunk_id)
            assert chunk is not None, "a citation points outside the retrieved chunks"
            assert citation.quote_start is not None and citation.quote_end is not None
            located = chunk.chunk_text[citation.quote_start : citation.quote_end]
            assert normalize(citation.quote) in normalize(located) or (
                citation.quote_status is QuoteStatus.FUZZY
            )
    if not response.answerable:
        assert not response.cited_claims


def codes(response: CitedResponse) -> list[str]:
    return [f.code for f in response.warning_flags]


def test_a_good_answer_passes_first_time(make_rag: Callable[..., Ragcite]) -> None:
    response, generator = ask(make_rag, good)
    assert response.answerable and len(generator.calls) == 1
    assert "retried" not in codes(response)
    assert all(c.verified for c in response.cited_claims)
    assert {"generate", "verify", "score", "total"} <= set(response.timings_ms)


def test_hallucinated_id_is_retried_with_the_violation_named(
    make_rag: Callable[..., Ragcite],
) -> None:
    response, generator = ask(make_rag, hallucinated_id, good)
    assert generator.calls[0] is None
    retry_violations = generator.calls[1] or []
    assert any("c_deadbeefdeadbeef" in v for v in retry_violations)
    assert codes(response)[0] == "retried"
    assert response.answerable and response.cited_claims[0].verified
    assert "generate_retry" in response.timings_ms and "verify_retry" in response.timings_ms


def test_paraphrased_quote_twice_degrades_to_sources(make_rag: Callable[..., Ragcite]) -> None:
    response, generator = ask(make_rag, paraphrased_quote)
    assert len(generator.calls) == 2
    assert any("quote" in v for v in generator.calls[1] or [])
    assert not response.answerable and response.answer_text == DEGRADED_TEXT
    assert "retried" in codes(response) and "degraded_to_sources" in codes(response)
    assert "quote_not_found" in codes(response)
    assert response.source_chunks  # the best sources are shown instead


def test_quote_from_another_chunk_is_repointed_not_trusted(
    make_rag: Callable[..., Ragcite],
) -> None:
    response, _ = ask(make_rag, quote_from_another_chunk)
    assert "quote_repointed" in codes(response)
    citation = response.cited_claims[0].citations[0]
    chunk = response.chunk(citation.chunk_id)
    assert chunk is not None and ANSWER in chunk.chunk_text


def test_uncited_sentence_is_retried_then_marked_or_removed(
    make_rag: Callable[..., Ragcite],
) -> None:
    annotate, generator = ask(make_rag, uncited_sentence)
    assert len(generator.calls) == 2 and "retried" in codes(annotate)
    assert any("Zurich" in v for v in generator.calls[1] or [])
    # annotate: the verified claim is shown, the uncited sentence kept but flagged.
    assert "unattributed_sentence" in codes(annotate) and "Zurich" in annotate.answer_text
    strict, generator = ask(make_rag, uncited_sentence, policy="strict")
    assert len(generator.calls) == 1  # strict already answers with verified claims only
    assert "Zurich" not in strict.answer_text
    assert strict.cited_claims and all(c.verified for c in strict.cited_claims)


def test_string_confidences_and_decorated_ids(make_rag: Callable[..., Ragcite]) -> None:
    response, generator = ask(make_rag, string_confidences)
    assert len(generator.calls) == 1 and response.cited_claims[0].verified


def test_broken_json_twice_degrades_with_the_reason(make_rag: Callable[..., Ragcite]) -> None:
    response, generator = ask(make_rag, broken_json)
    assert len(generator.calls) == 2
    assert any("could not be used" in v for v in generator.calls[1] or [])
    assert codes(response)[:3] == ["retried", "generation_failed", "degraded_to_sources"]
    assert not response.answerable and not response.cited_claims


def test_broken_json_then_good_answer(make_rag: Callable[..., Ragcite]) -> None:
    response, _ = ask(make_rag, broken_json, good)
    assert response.answerable and codes(response)[0] == "retried"


def test_answer_to_a_different_question_is_never_verified(
    make_rag: Callable[..., Ragcite],
) -> None:
    response, generator = ask(make_rag, different_question)
    assert len(generator.calls) == 2
    assert "degraded_to_sources" in codes(response)
    assert not response.answerable and not response.cited_claims


def test_no_retry_when_disabled_or_unsupported(make_rag: Callable[..., Ragcite]) -> None:
    disabled, generator = ask(make_rag, hallucinated_id, good, retry_on_failure=False)
    assert len(generator.calls) == 1 and "retried" not in codes(disabled)
    assert "degraded_to_sources" in codes(disabled)
    unsupported, generator = ask(make_rag, paraphrased_quote, can_retry=False)
    assert len(generator.calls) == 1 and "degraded_to_sources" in codes(unsupported)


def test_low_confidence_triggers_the_ladder(make_rag: Callable[..., Ragcite]) -> None:
    response, generator = ask(make_rag, good, min_overall_confidence=0.99)
    assert len(generator.calls) == 2
    assert any("confidence" in v for v in generator.calls[1] or [])
    assert "degraded_to_sources" in codes(response)
