"""Whether the extractive generator answers (`ragcite.generate.answer_decision`)."""

from __future__ import annotations

import numpy as np
import pytest

from ragcite.config import GenerateSettings
from ragcite.generate.answer_decision import (
    FEATURES,
    RESCUE_FLOOR,
    _model,
    deciding,
    decision_features,
    decline_reason,
    floor_decision,
    learned_decision,
)
from ragcite.generate.extractive import ExtractiveGenerator, _relevance
from ragcite.pipeline import Ragcite

QUESTION = "how much parental leave do I get if I'm the main carer?"


def _features(rag: Ragcite, question: str) -> dict[str, float]:
    chunks, _ = rag.search(question)
    generator = ExtractiveGenerator(rag.embedder)
    asked, candidates = generator.candidates(question, chunks)
    return decision_features(asked, candidates, chunks[:5], _relevance(candidates))


def test_the_features_are_the_models_and_read_the_question(demo_rag: Ragcite) -> None:
    features = _features(demo_rag, QUESTION)
    assert tuple(features) == FEATURES == _model().features
    assert features["asks_amount"] == 1.0 and features["asks_date"] == 0.0
    assert 0.4 < features["relevance"] <= 1.2 and features["margin_next"] >= 0.0


def test_nothing_below_the_rescue_floor_is_answered(demo_rag: Ragcite) -> None:
    features = _features(demo_rag, QUESTION)
    decide = learned_decision(0.0)
    assert decide(features)
    assert not decide({**features, "relevance": RESCUE_FLOOR - 0.01})


def test_a_more_relevant_sentence_never_turns_an_answer_into_a_decline(demo_rag: Ragcite) -> None:
    model = _model()
    base = _features(demo_rag, "Do I need a receipt for a taxi?")
    grid = np.linspace(0.2, 0.9, 15)
    rows = [{**base, "relevance": r, "best_score": r, "max_shifted": r} for r in grid]
    p = model.predict(model.matrix(rows))
    assert np.all(np.diff(p) >= -1e-12)
    assert p[-1] > p[0]


def test_the_threshold_is_the_models_unless_set(demo_rag: Ragcite) -> None:
    features = _features(demo_rag, QUESTION)
    p = float(_model().predict(_model().matrix([features]))[0])
    assert 0.0 < _model().thresholds["answer"] < 1.0
    assert learned_decision(max(0.0, p - 0.01))(features)
    assert not learned_decision(min(1.0, p + 0.01))(features)


@pytest.mark.parametrize("relevance, answered", [(0.39, False), (0.41, True)])
def test_the_floor_setting_answers_from_the_floor(relevance: float, answered: bool) -> None:
    assert floor_decision(0.40)({"relevance": relevance}) is answered
    decide = deciding(GenerateSettings(answer_decision="floor"))
    assert decide({"relevance": relevance}) is answered


def test_a_declining_decision_declines_what_is_answered(demo_rag: Ragcite) -> None:
    chunks, _ = demo_rag.search(QUESTION)
    answering = ExtractiveGenerator(demo_rag.embedder).generate(QUESTION, chunks)
    assert answering.answerable and answering.claims
    declining = ExtractiveGenerator(demo_rag.embedder, decision=lambda _: False)
    draft = declining.generate(QUESTION, chunks)
    assert not draft.answerable and not draft.claims
    assert draft.decline_reason is not None
    assert "do not read as its answer" in draft.decline_reason


def test_a_question_near_no_sentence_is_declined_in_those_words(demo_rag: Ragcite) -> None:
    features = _features(demo_rag, QUESTION)
    assert "no sentence of the passages found is close" in decline_reason(
        {**features, "relevance": RESCUE_FLOOR - 0.1}
    )
    response = demo_rag.ask("What is the guest Wi-Fi password in the Dublin office?")
    assert not response.answerable
    assert response.confidence_reason.startswith("Not answered: ")
    assert response.confidence_reason.endswith("the closest sources are shown.")
