"""Parsing what models really return into a DraftAnswer."""

from __future__ import annotations

import pytest

from ragcite.errors import UnusableOutputError
from ragcite.generate.parse import confidence_value, parse_draft

IDS = ["c_1a2b3c", "c_9f8e7d"]


def test_prose_fences_and_trailing_commas() -> None:
    text = """Sure! Here is the answer:
```json
{"answerable": true, "claims": [
  {"claim_text": "Leave is 16 weeks.", "citations": [{"chunk_id": "c_1a2b3c",
   "quote": "16 weeks",},], "attribution_confidence": "0.85",},
],}
```
Hope this helps."""
    draft = parse_draft(text, model_id="m", chunk_ids=IDS)
    assert draft.answerable
    assert draft.answer_text == "Leave is 16 weeks."
    claim = draft.claims[0]
    assert claim.citations[0].chunk_id == "c_1a2b3c"
    assert claim.citations[0].quote == "16 weeks"
    assert claim.attribution_confidence == pytest.approx(0.85)


def test_decorated_ids_resolve_only_when_unambiguous() -> None:
    text = (
        '{"claims": [{"claim": "A.", "source_ids": ["[C_1A2B3C]", "chunk: c_9F8E7D"], '
        '"quote": "a"}, {"claim": "B.", "citations": ["c_unknown"]}]}'
    )
    draft = parse_draft(text, model_id="m", chunk_ids=IDS)
    assert [c.chunk_id for c in draft.claims[0].citations] == ["c_1a2b3c", "c_9f8e7d"]
    assert draft.claims[0].is_synthesized  # two sources
    assert draft.claims[1].citations[0].chunk_id == "c_unknown"  # left for the gate to flag
    ambiguous = parse_draft(
        '{"claims": [{"claim": "A.", "citations": ["[X]"]}]}', model_id="m", chunk_ids=["x", "X "]
    )
    assert ambiguous.claims[0].citations[0].chunk_id == "[X]"


def test_missing_fields_and_string_values() -> None:
    draft = parse_draft(
        '{"answer": "It is 16 weeks.", "claims": [{"text": "It is 16 weeks.", '
        '"citations": [{"id": "c_1a2b3c"}], "confidence": "high", '
        '"is_synthesized": "false"}]}',
        model_id="m",
        chunk_ids=IDS,
    )
    claim = draft.claims[0]
    assert claim.citations[0].quote == ""
    assert claim.attribution_confidence == 0.9
    assert not claim.is_synthesized
    assert draft.answer_text == "It is 16 weeks."


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.85, 0.85),
        ("0.85", 0.85),
        ("85%", 0.85),
        (85, 0.85),
        ("medium", 0.75),
        ("very likely", None),
        (-1, None),
        (True, None),
        (None, None),
        (250, None),
    ],
)
def test_confidences(value: object, expected: float | None) -> None:
    got = confidence_value(value)
    assert got == pytest.approx(expected) if expected is not None else got is None


@pytest.mark.parametrize(
    "text",
    [
        '{"answerable": true, "claims": []}',
        '{"answerable": false, "claims": [{"claim_text": "x", "citations": ["c_1a2b3c"]}]}',
        '{"answerable": "no", "answer_text": "Not in the sources."}',
    ],
)
def test_empty_or_declined_answers_are_unanswerable(text: str) -> None:
    draft = parse_draft(text, model_id="m", chunk_ids=IDS)
    assert not draft.answerable and not draft.claims and not draft.answer_text


def test_a_bare_list_of_claims() -> None:
    draft = parse_draft(
        '[{"claim_text": "A.", "citations": [{"chunk_id": "c_1a2b3c", "quote": "a"}]}]',
        model_id="m",
        chunk_ids=IDS,
    )
    assert draft.answerable and len(draft.claims) == 1


@pytest.mark.parametrize("text", ["", "I could not find that.", '{"claims": [', "```json\n{```"])
def test_broken_json_is_unusable_output(text: str) -> None:
    with pytest.raises(UnusableOutputError, match="m returned no readable JSON"):
        parse_draft(text, model_id="m", chunk_ids=IDS)
