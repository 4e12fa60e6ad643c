"""The shipped learned reranker: real model, real embedder, the demo corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragcite.config import RerankSettings
from ragcite.embed.cached import CachedEmbedder
from ragcite.errors import ModelError
from ragcite.models import SourceChunk
from ragcite.pipeline import Ragcite
from ragcite.rerank.composite import rerank_chunks
from ragcite.rerank.learned import (
    FEATURES,
    LearnedReranker,
    content_words,
    load_model,
    packaged_model_path,
    rerank_features,
    words_by_sentence,
)
from ragcite.text.sentences import split_sentences

from ..conftest import ROOT

ANSWERABLE = [
    q
    for q in (
        json.loads(line)
        for line in (ROOT / "eval" / "demo.jsonl").read_text().splitlines()
        if line.strip()
    )
    if q["answerable"]
]
# Every other question keeps the test fast; the model card reports all of them.
SAMPLE = ANSWERABLE[::2]


def _chunk(
    text: str, vector: float, keyword: float = 0.0, heading: str | None = None
) -> SourceChunk:
    return SourceChunk(
        chunk_id=f"c_{abs(hash(text)) % 10**12:012d}",
        document_id="doc",
        document_version=1,
        document_title="Employee Handbook",
        section_heading=heading,
        chunk_text=text,
        char_start=0,
        char_end=len(text),
        vector_similarity_score=vector,
        keyword_score=keyword,
    )


@pytest.fixture(scope="module")
def reranker(embedder: CachedEmbedder) -> LearnedReranker:
    return LearnedReranker(embedder)


def test_the_packaged_model_loads_and_matches_the_features() -> None:
    spec = json.loads(packaged_model_path().read_text(encoding="utf-8"))
    assert tuple(spec["models"]["reranker"]["features"]) == FEATURES
    assert load_model() is load_model()  # loaded once


def test_scores_are_probabilities_in_order(reranker: LearnedReranker) -> None:
    chunks = [
        _chunk("Visitors must sign in at reception.", 0.21, 0.0),
        _chunk(
            "Primary caregivers receive 16 weeks of fully paid parental leave.",
            0.62,
            7.5,
            heading="Parental leave",
        ),
        _chunk("The cafeteria opens at 8 a.m. on weekdays.", 0.12, 0.0),
    ]
    scores = reranker.score("How much parental leave does a primary caregiver get?", chunks)
    assert len(scores) == 3
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores[1] == max(scores)
    assert reranker.score("anything", []) == []


def test_features_have_one_row_per_chunk(embedder: CachedEmbedder) -> None:
    chunks = [_chunk("One sentence. Another sentence.", 0.4, 2.0), _chunk("", 0.1)]
    rows = rerank_features("which sentence?", chunks, embedder)
    assert rows.shape == (2, len(FEATURES))
    assert rows[0, FEATURES.index("hybrid_rank")] == 1.0


@pytest.mark.parametrize(
    "text",
    [
        "Keep records 3 years. Then delete them.\n\n- EU: 2 years\n- US: 7 years",
        "Tier — Storage: 100 GB; Users: 25\nTeam — Storage: 1 TB; Users: 100",
        "No sentence end here",
        "",
    ],
)
def test_chunk_words_are_the_whole_texts_and_sentence_words_each_sentences(text: str) -> None:
    per_sentence, whole = words_by_sentence(text)
    assert whole == set(content_words(text))
    assert list(per_sentence) == [set(content_words(text[a:b])) for a, b in split_sentences(text)]


def test_chunk_words_of_every_demo_chunk_are_its_whole_texts(demo_rag: Ragcite) -> None:
    chunks = demo_rag.search("leave policy", k=8)[0]
    chunks += demo_rag.search("security incident reporting", k=8)[0]
    for chunk in chunks:
        assert words_by_sentence(chunk.chunk_text)[1] == set(content_words(chunk.chunk_text))


def test_content_words_drop_question_words_and_plurals() -> None:
    assert content_words("Which magazines were started first?") == ["magazine", "started", "first"]


def test_a_model_file_of_another_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"format": "something-else"}), encoding="utf-8")
    with pytest.raises(ModelError, match="format"):
        load_model(path)


def test_expected_document_ranks_first_on_the_demo_questions(demo_rag: Ragcite) -> None:
    reranker = LearnedReranker(demo_rag.embedder)
    settings = demo_rag.settings.rerank
    first = 0
    for question in SAMPLE:
        retrieved = demo_rag.retriever.retrieve(question["query"], 8, demo_rag.filters())
        ranked = rerank_chunks(question["query"], retrieved.chunks, reranker, settings).chunks
        first += ranked[0].document_id == question["expected_document_id"]
    # Measured: 62 of 62 answerable demo questions (the model card has the chunk-level figures).
    assert first / len(SAMPLE) >= 0.95


def test_composite_confidence_blends_vector_and_reranker(reranker: LearnedReranker) -> None:
    chunks = [
        _chunk("The cafeteria opens at 8 a.m. on weekdays.", 0.50),
        _chunk("Primary caregivers receive 16 weeks of paid parental leave.", 0.45, 6.0),
    ]
    settings = RerankSettings()
    outcome = rerank_chunks("How long is parental leave?", chunks, reranker, settings)
    assert not outcome.fast_path
    best = outcome.chunks[0]
    assert "parental" in best.chunk_text
    assert best.composite_confidence == pytest.approx(
        0.3 * best.vector_similarity_score + 0.7 * best.reranker_score
    )


def test_fast_path_skips_the_reranker_when_vectors_agree(reranker: LearnedReranker) -> None:
    chunks = [
        _chunk("Primary caregivers receive 16 weeks of paid parental leave.", 0.91),
        _chunk("Secondary caregivers receive 4 weeks of paid parental leave.", 0.89),
        _chunk("Parental leave may start up to 2 weeks before the due date.", 0.88),
    ]
    outcome = rerank_chunks("How long is parental leave?", chunks, reranker, RerankSettings())
    assert outcome.fast_path
    assert [c.reranker_score for c in outcome.chunks] == [0.91, 0.89, 0.88]


def test_compound_question_scores_each_chunk_against_its_part(demo_rag: Ragcite) -> None:
    question = "How long do we keep customer PII, and how long are backups kept?"
    retrieved = demo_rag.retriever.retrieve(question, 8, demo_rag.filters())
    reranker = LearnedReranker(demo_rag.embedder)
    by_parts = rerank_chunks(question, retrieved.chunks, reranker, RerankSettings()).chunks
    whole = rerank_chunks(
        question, retrieved.chunks, reranker, RerankSettings(score_question_parts=False)
    ).chunks
    whole_scores = {c.chunk_id: c.reranker_score for c in whole}
    # Never lower than against the whole question; the backups chunk, which answers only
    # the second part, rises the most and comes first.
    assert all(c.reranker_score >= whole_scores[c.chunk_id] for c in by_parts)
    backups = next(c for c in by_parts if "backups are kept for 35 days" in c.chunk_text)
    assert backups.reranker_score > whole_scores[backups.chunk_id] + 0.2
    assert by_parts[0].chunk_id == backups.chunk_id


def test_a_model_trained_on_other_features_is_refused(tmp_path: Path) -> None:
    spec = json.loads(packaged_model_path().read_text(encoding="utf-8"))
    entry = spec["models"]["reranker"]
    entry["features"] = [*entry["features"][:-1], "renamed"]
    path = tmp_path / "model.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(ModelError, match=r"other features.*ragcite train rerank"):
        load_model(path)
