from __future__ import annotations

from datetime import date

import pytest
from pydantic import ValidationError

from ragcite.models import Citation, CitedClaim, Document, DraftClaim, SourceChunk, version_label


def _chunk(**changes: object) -> SourceChunk:
    fields: dict[str, object] = {
        "chunk_id": "c_1",
        "document_id": "d",
        "document_title": "Data Retention Policy",
        "chunk_text": "text",
        "char_start": 0,
        "char_end": 4,
    }
    return SourceChunk.model_validate(fields | changes)


@pytest.mark.parametrize(
    ("raw", "expected"), [("0.85", 0.85), (" 0.5 ", 0.5), ("85%", 0.85), (1, 1.0)]
)
def test_string_confidences_are_coerced(raw: object, expected: float) -> None:
    claim = CitedClaim(claim_text="x", attribution_confidence=raw)  # type: ignore[arg-type]
    assert claim.attribution_confidence == pytest.approx(expected)


@pytest.mark.parametrize("raw", ["1.5", -0.1, "high"])
def test_scores_outside_unit_interval_are_rejected(raw: object) -> None:
    with pytest.raises(ValidationError):
        CitedClaim(claim_text="x", attribution_confidence=raw)  # type: ignore[arg-type]


def test_single_source_id_becomes_a_list() -> None:
    assert CitedClaim(claim_text="x", source_chunk_ids="c_1").source_chunk_ids == ["c_1"]  # type: ignore[arg-type]


def test_display_names_title_version_section_and_page() -> None:
    chunk = _chunk(
        document_date=date(2024, 1, 15), section_heading="Customer records", page_number=2
    )
    assert chunk.display == "Data Retention Policy v1 · 2024-01-15 → Customer records, p. 2"
    assert _chunk().display == "Data Retention Policy"
    assert _chunk(document_version=3).display == "Data Retention Policy v3"


def test_a_version_name_shows_in_the_one_label() -> None:
    named = _chunk(document_version=6, document_version_name="2024-Q3")
    assert named.display == "Data Retention Policy 2024-Q3"
    dated = named.model_copy(update={"document_date": date(2024, 7, 1)})
    assert dated.version_label == "2024-Q3 · 2024-07-01"
    assert version_label(5, date(2024, 2, 1)) == "v5 · 2024-02-01"
    assert version_label(1, None, "Rev B") == "Rev B"
    with pytest.raises(ValidationError):
        Document(document_id="d", title="t", source_uri="u", content_sha256="x", version_name="")


def test_chunks_are_immutable() -> None:
    with pytest.raises(ValidationError):
        _chunk().chunk_text = "rewritten"  # type: ignore[misc]


def test_optional_scores_accept_none_and_coerce_strings() -> None:
    assert DraftClaim(claim_text="x", attribution_confidence=None).attribution_confidence is None
    assert Citation(chunk_id="c", support_score="90%").support_score == pytest.approx(0.9)
