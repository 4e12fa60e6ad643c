"""The answerability decision: answer types, its features, and the shipped model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragcite.embed.cached import CachedEmbedder
from ragcite.errors import ModelError
from ragcite.models import SourceChunk
from ragcite.train.answerability_run import refresh_record
from ragcite.verify.answer_types import expected_type, holds_type
from ragcite.verify.answerability import (
    FEATURES,
    AnswerabilityCheck,
    answerability_features,
    lexical_features,
    load_answerability_model,
)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How long do we keep customer PII?", "duration"),
        ("When was the policy last reviewed?", "date"),
        ("In what year did the Normans conquer England?", "date"),
        ("How much does the company reimburse for a home office?", "amount"),
        ("How many weeks of parental leave do primary caregivers get?", "duration"),
        ("Who approves an exception to the travel policy?", "person"),
        ("Where is the data stored?", "place"),
        ("Does the EU differ from the US?", "yesno"),
        ("What is the Rhine?", "other"),
    ],
)
def test_expected_answer_type(question: str, kind: str) -> None:
    assert expected_type(question) == kind


def test_holds_type() -> None:
    assert holds_type("duration", "PII is retained for three (3) years.", "How long?")
    assert not holds_type("duration", "PII is retained by the data team.", "How long?")
    assert holds_type("date", "The Normans conquered England in 1066.", "When did they arrive?")
    assert holds_type("amount", "We reimburse up to $500.", "How much?")
    assert holds_type("person", "The Chief Financial Officer approves it.", "Who approves it?")
    assert not holds_type("person", "it is approved in advance.", "Who approves it?")


def _chunk(text: str, chunk_id: str = "c1", composite: float = 0.5) -> SourceChunk:
    return SourceChunk(
        chunk_id=chunk_id,
        document_id="d",
        document_title="Normans",
        chunk_text=text,
        char_start=0,
        char_end=len(text),
        composite_confidence=composite,
    )


PARAGRAPH = (
    "The Normans were the people who in the 10th and 11th centuries gave their name to "
    "Normandy, a region in France. They were descended from Norse raiders and pirates from "
    "Denmark, Iceland and Norway who, under their leader Rollo, agreed to swear fealty to "
    "King Charles III of West Francia."
)


def test_a_name_the_passage_lacks_is_counted() -> None:
    chunk = _chunk(PARAGRAPH)
    quote = "They were descended from Norse raiders and pirates from Denmark, Iceland and Norway."
    found = lexical_features("From which countries did the Norse originate?", [(quote, chunk)])
    missing = lexical_features("From which countries did the Vikings originate?", [(quote, chunk)])
    assert found["missing_names"] == 0 and missing["missing_names"] == 1
    assert missing["cover_passage"] < found["cover_passage"]


def test_the_shipped_model_reads_its_features(embedder: CachedEmbedder) -> None:
    model = load_answerability_model()
    assert model.features == FEATURES and 0.0 < model.threshold("answer") < 1.0
    check = AnswerabilityCheck(embedder)
    chunk = _chunk(PARAGRAPH)
    quote = "King Charles III of West Francia."
    answered = check.probability(
        "Who did Rollo agree to swear fealty to?",
        [("Under their leader Rollo, they agreed to swear fealty to " + quote, chunk)],
        [chunk],
    )
    assert 0.0 <= answered <= 1.0
    assert check.probability("Who did Rollo agree to swear fealty to?", [], [chunk]) == 0.0


def test_a_model_with_other_features_says_how_to_rebuild(tmp_path: Path) -> None:
    path = tmp_path / "answerability.json"
    model = load_answerability_model().to_dict()
    model["features"] = ["something_else", *model["features"][1:]]
    path.write_text(
        json.dumps(
            {"format": "ragcite-learned-model/1", "about": "x", "models": {"answerability": model}}
        )
    )
    with pytest.raises(ModelError, match=r"ragcite\.train\.answerability"):
        load_answerability_model(path)


def test_a_record_from_before_a_feature_is_refreshed(embedder: CachedEmbedder) -> None:
    chunk = _chunk(PARAGRAPH)
    question = "Who was the leader of the Norse raiders?"
    quote = "They were descended from Norse raiders and pirates from Denmark, Iceland and Norway"
    full = answerability_features(question, [(quote, chunk)], [chunk], embedder)
    record = {
        "question": question,
        "quotes": [[quote, chunk.chunk_id]],
        "chunks": [chunk.model_dump(mode="json")],
        "features": {k: v for k, v in full.items() if k != "claims"},
    }
    assert refresh_record(record, embedder)
    assert record["features"] == pytest.approx(full)
    assert record["subject_missing"] == []
    assert not refresh_record(record, embedder)  # up to date: nothing to do
