"""The static (lookup-table) embedder shipped for the support checker's fast layer."""

from __future__ import annotations

import numpy as np
import pytest

from ragcite.embed.static import StaticEmbedder


@pytest.fixture(scope="module")
def embedder() -> StaticEmbedder:
    return StaticEmbedder()


def test_vectors_are_normalised_and_typed(embedder: StaticEmbedder) -> None:
    vectors = embedder.embed(["Stores close at 9 pm.", "Refunds take five days."])
    assert vectors.shape == (2, embedder.dimension)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_empty_inputs(embedder: StaticEmbedder) -> None:
    assert embedder.embed([]).shape == (0, embedder.dimension)
    vectors = embedder.embed(["", "   ", "Text."])
    assert not vectors[0].any() and not vectors[1].any()
    assert np.linalg.norm(vectors[2]) == pytest.approx(1.0, abs=1e-5)


def test_related_texts_are_closer_than_unrelated(embedder: StaticEmbedder) -> None:
    claim, related, unrelated = embedder.embed(
        [
            "Employees get 25 days of paid annual leave.",
            "Every employee is entitled to 25 days of paid holiday per year.",
            "The cafeteria serves vegan lunches on Fridays.",
        ]
    )
    assert float(claim @ related) > float(claim @ unrelated) + 0.1


def test_batch_equals_one_by_one(embedder: StaticEmbedder) -> None:
    texts = ["A", "The warranty lasts three years.", "", "Données personnelles: 30 jours."]
    batched = embedder.embed(texts)
    for text, row in zip(texts, batched, strict=True):
        assert np.allclose(embedder.embed([text])[0], row, atol=1e-6)
