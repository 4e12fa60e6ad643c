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
        assert declined.confidence_reason == "No passage in the documents answers the question."
    finally:
        strict.close()
    off = _ask(
        demo_store_path, **{"gate.answerability": False, "gate.answerability_threshold": 1.0}
    )
    try:
        assert off.ask(PII).answerable
    finally:
        off.close()
