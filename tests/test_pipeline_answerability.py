"""The answerability check in the pipeline: it can decline an answer the generator made."""

from __future__ import annotations

from pathlib import Path

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite

PII = "How long do we keep customer PII?"


def _ask(store: Path, **overrides: object) -> Ragcite:
    return Ragcite.open(
        load_settings(store_path=store, overrides={"cache.enabled": False, **overrides})
    )


def test_the_check_declines_below_its_threshold(demo_store_path: Path) -> None:
    rag = _ask(demo_store_path, **{"gate.answerability": True})
    try:
        answered = rag.ask_traced(PII)
        assert answered.response.answerable
        assert "answerability" in answered.response.timings_ms
        assert answered.response.confidence_reason
    finally:
        rag.close()
    strict = _ask(
        demo_store_path, **{"gate.answerability": True, "gate.answerability_threshold": 1.0}
    )
    try:
        declined = strict.ask(PII)
        assert not declined.answerable
        assert "not_answerable" in [f.code for f in declined.warning_flags]
        reason = declined.confidence_reason
        assert reason.startswith("Not answered: the quoted passages are about the question")
        assert "below 1.00" in reason
    finally:
        strict.close()
    off = _ask(
        demo_store_path, **{"gate.answerability": False, "gate.answerability_threshold": 1.0}
    )
    try:
        assert off.ask(PII).answerable
    finally:
        off.close()


DENTAL = "Does our health insurance include dental cover?"


def test_the_subject_check_declines_a_question_about_what_the_documents_never_mention(
    demo_store_path: Path,
) -> None:
    rag = _ask(demo_store_path)  # the default settings: the subject check is on
    try:
        declined = rag.ask_traced(DENTAL).response
        assert not declined.answerable
        assert "not_answerable" in [f.code for f in declined.warning_flags]
        assert '"dental"' in declined.confidence_reason
        assert declined.source_chunks  # the nearest material is still shown
        answered = rag.ask_traced(PII).response
        assert answered.answerable
        assert "answerability" in answered.timings_ms
    finally:
        rag.close()
    off = _ask(demo_store_path, **{"gate.subject_check": False})
    try:
        assert off.ask(DENTAL).answerable  # what the check stops: an unrelated sentence
    finally:
        off.close()


NEGATED_PII = "How long do we not keep customer PII?"


def test_the_reading_check_declines_a_negated_question_over_a_sentence_that_is_not(
    demo_store_path: Path,
) -> None:
    rag = _ask(demo_store_path)  # the default settings: the reading check is on
    try:
        declined = rag.ask(NEGATED_PII)
        assert not declined.answerable
        assert "not_answerable" in [f.code for f in declined.warning_flags]
        assert declined.confidence_reason.startswith(
            'Not answered: the question is negated ("not")'
        )
        assert declined.source_chunks
        assert rag.ask(PII).answerable
    finally:
        rag.close()
    off = _ask(demo_store_path, **{"gate.reading_check": False})
    try:
        assert off.ask(NEGATED_PII).answerable  # what the check stops
    finally:
        off.close()
