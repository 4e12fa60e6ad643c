from __future__ import annotations

import pytest

from ragcite.config import ScoreSettings
from ragcite.models import Citation, CitedClaim, ConfidenceLabel, QuoteStatus, SourceChunk
from ragcite.score.confidence import label_for, score_answer


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (0.9, ConfidenceLabel.HIGH),
        (0.85, ConfidenceLabel.HIGH),
        (0.7, ConfidenceLabel.MEDIUM),
        (0.5, ConfidenceLabel.LOW),
        (0.2, ConfidenceLabel.VERY_LOW),
    ],
)
def test_labels(value: float, label: ConfidenceLabel) -> None:
    assert label_for(value) is label


def _chunk(confidence: float) -> SourceChunk:
    return SourceChunk(
        chunk_id="c1",
        document_id="d",
        document_title="T",
        chunk_text="x",
        char_start=0,
        char_end=1,
        composite_confidence=confidence,
    )


def _claim(status: QuoteStatus, support: float | None) -> CitedClaim:
    return CitedClaim(
        claim_text="x",
        source_chunk_ids=["c1"],
        citations=[Citation(chunk_id="c1", quote="x", quote_status=status, support_score=support)],
    )


def test_overall_blends_claims_and_chunks() -> None:
    scored = score_answer([_claim(QuoteStatus.EXACT, 1.0)], [_chunk(0.5)], ScoreSettings())
    claim = scored.claims[0].attribution_confidence
    assert scored.overall_confidence == pytest.approx(0.6 * claim + 0.4 * 0.5)


def test_verified_strong_claims_score_higher_than_weak_ones() -> None:
    strong = score_answer([_claim(QuoteStatus.EXACT, 0.95)], [_chunk(0.8)], ScoreSettings())
    weak = score_answer([_claim(QuoteStatus.NOT_FOUND, 0.3)], [_chunk(0.3)], ScoreSettings())
    assert strong.overall_confidence > 0.75 > weak.overall_confidence
    assert [f.code for f in weak.flags] == [
        "low_overall_confidence",
        "majority_claims_low_confidence",
    ]
    assert strong.flags == []


def test_calibration_map_is_applied() -> None:
    scored = score_answer(
        [_claim(QuoteStatus.EXACT, 1.0)],
        [_chunk(1.0)],
        ScoreSettings(),
        calibration=lambda raw: 0.5,
    )
    assert scored.claims[0].attribution_confidence == 0.5


def test_no_claims_means_zero_confidence() -> None:
    scored = score_answer([], [], ScoreSettings())
    assert scored.overall_confidence == 0.0 and scored.label is ConfidenceLabel.VERY_LOW


def test_labels_follow_the_settings() -> None:
    strict = ScoreSettings(high_from=0.95, medium_from=0.8, low_from=0.6)
    assert label_for(0.9, strict) is ConfidenceLabel.MEDIUM
    assert label_for(0.7, strict) is ConfidenceLabel.LOW
    assert label_for(0.5, strict) is ConfidenceLabel.VERY_LOW
    claims = [_claim(QuoteStatus.EXACT, 0.9)]
    default = score_answer(claims, [_chunk(0.9)], ScoreSettings())
    moved = score_answer(claims, [_chunk(0.9)], ScoreSettings(high_from=0.99, medium_from=0.95))
    assert default.label is ConfidenceLabel.HIGH and moved.label is ConfidenceLabel.LOW
    assert default.claims[0].confidence_label is ConfidenceLabel.HIGH
    assert moved.claims[0].confidence_label is ConfidenceLabel.LOW
    # Below medium_from the answer is flagged as low confidence.
    assert "low_overall_confidence" in [f.code for f in moved.flags]
    assert "low_overall_confidence" not in [f.code for f in default.flags]
