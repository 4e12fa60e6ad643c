"""The extractive generator's learned question map (`ragcite.generate.question_adapter`)."""

from __future__ import annotations

import numpy as np
import pytest

from ragcite.config import GenerateSettings
from ragcite.embed.base import Embedder
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.generate.question_adapter import mapped, rank_shift
from ragcite.pipeline import Ragcite


def test_the_mapped_question_is_a_unit_vector_moved_from_the_plain_one(
    embedder: Embedder,
) -> None:
    question = embedder.embed(["when do I get paid for the weeks my caravan was rented out?"])[0]
    moved = mapped(question)
    assert moved.shape == question.shape
    assert abs(float(np.linalg.norm(moved)) - 1.0) < 1e-5
    assert 0.5 < float(moved @ question) < 0.9999


def test_no_sentences_no_shift(embedder: Embedder) -> None:
    question = embedder.embed(["How long is parental leave?"])[0]
    assert rank_shift(question, np.zeros((0, question.shape[0]), dtype=np.float32)).shape == (0,)


@pytest.mark.parametrize("on", [True, False])
def test_the_setting_turns_the_map_on_and_off(demo_rag: Ragcite, on: bool) -> None:
    question = "how much parental leave do I get if I'm the main carer?"
    chunks, _ = demo_rag.search(question)
    generator = ExtractiveGenerator(demo_rag.embedder, GenerateSettings(question_map=on))
    _, candidates = generator.candidates(question, chunks)
    shifts = [c.shift for c in candidates]
    assert candidates and any(shifts) is on
