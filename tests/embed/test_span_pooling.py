"""Sentence vectors pooled from a chunk's own forward pass ("late chunking")."""

from __future__ import annotations

import numpy as np
import pytest

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.index.sentence_vectors import SpanPlan, decode_sentence_vectors
from ragcite.models import SourceChunk
from ragcite.text.sentence_forms import chunk_sentence_forms

LEAVE = "Parental leave is 16 weeks at full pay."
EXPENSES = "Expenses over 500 EUR need a receipt."
TEXTS = [
    f"Handbook — Leave\n{LEAVE} {EXPENSES}",
    "Backups are kept for 35 days.",
    "Visitors sign in at the front desk and wear a badge at all times in the building.",
]


def _span(text: str, part: str) -> tuple[int, int]:
    return text.index(part), text.index(part) + len(part)


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def test_the_texts_vectors_are_exactly_those_of_embed(embedder: MiniLMEmbedder) -> None:
    spans = [[_span(TEXTS[0], LEAVE), _span(TEXTS[0], EXPENSES)], [], [(0, 20)]]
    vectors, pooled = embedder.embed_spans(TEXTS, spans)

    assert np.array_equal(vectors, embedder.embed(TEXTS))
    assert [len(p) for p in pooled] == [2, 0, 1]
    for vector in (v for p in pooled for v in p):
        assert vector is not None and vector.shape == (384,)
        assert float(np.linalg.norm(vector)) == pytest.approx(1.0, abs=1e-5)


def test_a_pooled_sentence_is_nearest_its_own_wording(embedder: MiniLMEmbedder) -> None:
    _, pooled = embedder.embed_spans(
        TEXTS[:1], [[_span(TEXTS[0], LEAVE), _span(TEXTS[0], EXPENSES)]]
    )
    alone = embedder.embed([LEAVE, EXPENSES])
    similarity = np.stack(pooled[0]) @ alone.T  # type: ignore[arg-type]

    assert similarity[0, 0] > similarity[0, 1]
    assert similarity[1, 1] > similarity[1, 0]


def test_a_span_past_the_token_limit_is_not_pooled() -> None:
    short = MiniLMEmbedder(max_tokens=16)
    text = "One two three four five. " * 8
    _, pooled = short.embed_spans([text], [[(0, 24), (len(text) - 25, len(text) - 1)]])

    assert pooled[0][0] is not None
    assert pooled[0][1] is None


def test_spans_must_match_the_texts(embedder: MiniLMEmbedder) -> None:
    with pytest.raises(ValueError, match="one span list per text"):
        embedder.embed_spans(TEXTS, [[]])


def _chunk(text: str, heading: str | None) -> SourceChunk:
    return SourceChunk(
        chunk_id="c1",
        document_id="d",
        document_title="Handbook",
        chunk_text=text,
        section_heading=heading,
        char_start=0,
        char_end=len(text),
    )


def test_a_span_plan_gives_every_form_a_vector_and_embeds_the_cut_ones_alone() -> None:
    chunk = _chunk("Kept 3 years. Then erased.\nNot before.", "Records")
    plan = SpanPlan.of([chunk], [10])
    forms = chunk_sentence_forms(chunk.chunk_text, chunk.section_heading)
    assert plan.per_chunk == [forms]
    assert plan.spans == [[(10, 23), (24, 36), (37, 48)]]
    embedded: list[str] = []

    def embed(texts: list[str]) -> np.ndarray:
        embedded.extend(texts)
        return np.full((len(texts), 384), 0.5, dtype=np.float32)

    pooled = [[np.eye(384, dtype=np.float32)[k] for k in range(2)] + [None]]
    (blob,) = plan.blobs(pooled, embed)  # type: ignore[arg-type]

    assert blob is not None
    vectors = decode_sentence_vectors(blob, forms)
    assert vectors is not None and vectors.shape == (len(forms), 384)
    assert embedded == ["Records: Not before.", "Not before."]  # the third sentence's forms
    assert vectors[0, 0] == 1.0 and vectors[-1, 0] == 0.5
