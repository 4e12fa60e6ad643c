"""Layers 2 and 3 on their own: lexical alignment and embedding similarity."""

from __future__ import annotations

import numpy as np
import pytest

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.verify.support.lexical import lexical_support
from ragcite.verify.support.semantic import SemanticScorer

EVIDENCE = [
    "Opening hours. On Sundays our stores close at 9 pm. Deliveries arrive on Mondays.",
    "Returns. Items may be returned within 30 days.",
]


def test_best_sentence_alignment() -> None:
    result = lexical_support("Stores close at 9 pm on Sundays.", EVIDENCE)
    assert result.signals["lex_best_sentence"] == 1.0
    assert result.ranked_sentences[0] == "On Sundays our stores close at 9 pm."


def test_window_joins_sentences_across_chunks() -> None:
    result = lexical_support(
        "Stores close at 9 pm on Sundays and items are returned in 30 days.", EVIDENCE
    )
    assert result.signals["lex_best_window"] > result.signals["lex_best_sentence"]
    assert result.signals["lex_best_window"] == result.signals["lex_overlap"] == 1.0
    assert "30 days" in result.aligned and "9 pm" in result.aligned


def test_unrelated_claim_has_low_coverage() -> None:
    result = lexical_support("The cafeteria serves vegan lunch.", EVIDENCE)
    assert result.signals["lex_overlap"] < 0.3


def test_empty_evidence() -> None:
    result = lexical_support("Stores close at 9 pm.", [])
    assert result.signals["lex_overlap"] == 0.0
    assert result.aligned == ""


class CountingEmbedder:
    model_id = "counting"
    dimension = 384

    def __init__(self) -> None:
        self.inner = MiniLMEmbedder()
        self.calls: list[int] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.calls.append(len(texts))
        return self.inner.embed(texts)


def test_semantic_similarity_and_cache() -> None:
    embedder = CountingEmbedder()
    scorer = SemanticScorer(embedder)
    claims = ["Shops shut at nine in the evening on Sundays.", "The cafeteria serves vegan lunch."]
    sentences = [
        ("On Sundays our stores close at 9 pm.",),
        ("On Sundays our stores close at 9 pm.",),
    ]
    related, unrelated = scorer.signals_many(claims, sentences)
    assert related["sem_max"] > unrelated["sem_max"] + 0.2
    assert embedder.calls == [3]
    scorer.signals_many(claims, sentences)
    assert embedder.calls == [3]  # every vector came from the cache


def test_tree_model_scores_without_sklearn() -> None:
    from ragcite.learn.model import LearnedModel

    # One stump: lex_overlap <= 0.5 -> -2, else +2; identity Platt scaling.
    model = LearnedModel.from_dict(
        {
            "features": ["lex_overlap"],
            "kind": "trees",
            "init": 0.0,
            "learning_rate": 1.0,
            "trees": [
                {
                    "feature": [0, -2, -2],
                    "threshold": [0.5, -2.0, -2.0],
                    "left": [1, -1, -1],
                    "right": [2, -1, -1],
                    "value": [0.0, -2.0, 2.0],
                }
            ],
            "platt": [1.0, 0.0],
            "thresholds": {"supported": 0.5, "partial": 0.3},
        }
    )
    low, high = model.predict(model.matrix([{"lex_overlap": 0.2}, {"lex_overlap": 0.9}]))
    assert low == pytest.approx(1 / (1 + np.exp(2)))
    assert high == pytest.approx(1 / (1 + np.exp(-2)))


@pytest.mark.parametrize(
    ("claim_word", "evidence_word"),
    [("kept", "keeps"), ("paid", "pays"), ("written", "writes"), ("bought", "buying")],
)
def test_irregular_forms_match_their_regular_ones(claim_word: str, evidence_word: str) -> None:
    result = lexical_support(f"Staff {claim_word} records.", [f"Staff {evidence_word} records."])
    assert result.signals["lex_overlap"] == 1.0
