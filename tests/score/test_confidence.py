from __future__ import annotations

import pytest

from ragcite.config import ScoreSettings
from ragcite.models import (
    Citation,
    CitedClaim,
    ConfidenceLabel,
    QuoteStatus,
    SourceChunk,
    SupportVerdict,
)
from ragcite.score.calibration import CalibrationMaps, IsotonicMap
from ragcite.score.confidence import answer_label, label_for, score_answer


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


def test_evidence_blends_claims_and_chunks_and_a_single_claim_answer_is_its_claim() -> None:
    scored = score_answer([_claim(QuoteStatus.EXACT, 1.0)], [_chunk(0.5)], ScoreSettings())
    claim = scored.claims[0].attribution_confidence
    assert scored.evidence == pytest.approx(0.6 * claim + 0.4 * 0.5)
    assert scored.overall_confidence == claim
    assert scored.label is scored.claims[0].confidence_label


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


def _supported(status: QuoteStatus, support: float) -> CitedClaim:
    claim = _claim(status, support)
    citation = claim.citations[0].model_copy(update={"support": SupportVerdict.SUPPORTED})
    return claim.model_copy(update={"citations": [citation]})


def test_an_exact_supported_quote_never_reads_low() -> None:
    # The demo's EU/US PII answer: three exact, supported quotes from weakly ranked chunks.
    claims = [_supported(QuoteStatus.EXACT, 0.63) for _ in range(3)]
    scored = score_answer(claims, [_chunk(0.28)], ScoreSettings(), calibration=lambda raw: 0.3)
    assert all(c.confidence_label is ConfidenceLabel.MEDIUM for c in scored.claims)
    assert scored.label is ConfidenceLabel.MEDIUM
    assert scored.flags == []  # the warnings follow the labels
    # The number stays the calibrated probability; the words say why the label is MEDIUM.
    assert scored.overall_confidence == 0.3
    assert all(c.attribution_confidence == 0.3 for c in scored.claims)
    assert scored.reason.startswith("3 exact quotes, all supported by their sources; MEDIUM")
    assert scored.reason.endswith("answer the question only about 30% of the time.")
    assert scored.claims[0].confidence_reason.startswith(
        "Exact quote, supported by its source; MEDIUM for its verified words"
    )


def test_a_calibrated_exact_supported_quote_reads_its_band() -> None:
    claims = [_supported(QuoteStatus.EXACT, 0.9)]
    high = score_answer(claims, [_chunk(0.9)], ScoreSettings(), calibration=lambda raw: 0.93)
    assert high.label is ConfidenceLabel.HIGH and high.overall_confidence == 0.93
    assert high.reason == "1 exact quote, supported by its source."
    medium = score_answer(claims, [_chunk(0.9)], ScoreSettings(), calibration=lambda raw: 0.7)
    assert medium.label is ConfidenceLabel.MEDIUM
    assert medium.claims[0].confidence_reason == "Exact quote, supported by its source."


def test_the_pipeline_floor_reads_the_evidence_not_the_probability() -> None:
    # A well-sourced answer whose calibrated probability is low still stands (the gate's
    # floor reads the evidence), and a weakly sourced one falls below it whatever the map.
    claims = [_supported(QuoteStatus.EXACT, 0.9)]
    sourced = score_answer(claims, [_chunk(0.8)], ScoreSettings(), calibration=lambda raw: 0.2)
    assert sourced.evidence >= ScoreSettings().low_from > sourced.overall_confidence
    weak = [_claim(QuoteStatus.FUZZY, 0.3)]
    loose = score_answer(weak, [_chunk(0.1)], ScoreSettings(), calibration=lambda raw: 0.9)
    assert loose.evidence < ScoreSettings().low_from < loose.overall_confidence


def test_exact_supported_quotes_from_a_low_ranked_passage_are_not_weakly_sourced() -> None:
    """The passages' composite confidence is relative to the others retrieved: an answer
    quoting the fifth passage exactly, with support, stands above the pipeline's floor (the
    tenancy handbook's "28 days' written notice" was degraded at evidence 0.44) when the
    generator scored the quoted sentence relevant itself, while an answer with a loose claim
    still blends in its passages' rank."""
    low_ranked, settings, floor = [_chunk(0.05)], ScoreSettings(), ScoreSettings().low_from
    exact = [_supported(QuoteStatus.EXACT, 0.9)]
    assert score_answer(exact, low_ranked, settings, relevance_checked=True).evidence >= floor
    mixed = [*exact, _claim(QuoteStatus.FUZZY, 0.3)]
    assert score_answer(mixed, low_ranked, settings, relevance_checked=True).evidence < floor
    # A generator that does not score its sentences' relevance (an LLM, a plugin) may copy
    # an unrelated sentence verbatim: the passages' rank still counts.
    assert score_answer(exact, low_ranked, settings).evidence < floor


def test_the_answer_is_never_surer_than_its_weakest_claim() -> None:
    strong = _supported(QuoteStatus.EXACT, 0.99)
    weak = _claim(QuoteStatus.FUZZY, 0.2)
    for claims in ([strong], [strong, weak]):
        scored = score_answer(claims, [_chunk(1.0)], ScoreSettings())
        weakest = min(c.attribution_confidence for c in scored.claims)
        assert scored.overall_confidence <= weakest
        order = list(ConfidenceLabel)
        assert all(
            order.index(scored.label) >= order.index(c.confidence_label) for c in scored.claims
        )
    scored = score_answer([strong, weak], [_chunk(1.0)], ScoreSettings())
    assert scored.reason == "1 quote matches only approximately."
    assert "approximately" in scored.claims[1].confidence_reason


def test_partial_support_is_explained() -> None:
    claim = _claim(QuoteStatus.EXACT, 0.5)
    partial = claim.citations[0].model_copy(update={"support": SupportVerdict.PARTIAL})
    scored = score_answer(
        [claim.model_copy(update={"citations": [partial]})], [_chunk(0.5)], ScoreSettings()
    )
    assert scored.reason == "1 claim's support is uncertain."


def _answer_maps(claim: float, several: float) -> CalibrationMaps:
    """Every claim maps to `claim`; an answer of several claims to `several`."""
    return CalibrationMaps(
        claim=IsotonicMap((0.0, 1.0), (claim, claim)),
        several_claims=IsotonicMap((0.0, 1.0), (several, several)),
    )


def test_an_answer_of_several_claims_reads_its_own_map_below_its_weakest_claims_label() -> None:
    claims = [_claim(QuoteStatus.FUZZY, 0.9), _claim(QuoteStatus.FUZZY, 0.9)]
    scored = score_answer(
        claims, [_chunk(0.9)], ScoreSettings(), calibration=_answer_maps(0.7, 0.9)
    )
    assert [c.attribution_confidence for c in scored.claims] == [0.7, 0.7]
    assert scored.overall_confidence == 0.9  # answers like it are right 90% of the time
    # ... but its label stays its weakest claim's, and the words say why.
    assert scored.label is ConfidenceLabel.MEDIUM
    assert scored.reason.endswith(
        "MEDIUM as its weakest claim, though answers like it are right about 90% of the time."
    )
    one = score_answer(
        claims[:1], [_chunk(0.9)], ScoreSettings(), calibration=_answer_maps(0.7, 0.9)
    )
    assert one.overall_confidence == 0.7 and one.label is ConfidenceLabel.MEDIUM  # as its claim


def test_exact_supported_quotes_never_read_low_whatever_the_answer_map() -> None:
    claims = [_supported(QuoteStatus.EXACT, 0.63) for _ in range(2)]
    maps = _answer_maps(0.3, 0.2)
    scored = score_answer(claims, [_chunk(0.3)], ScoreSettings(), calibration=maps)
    # An answer of several claims is right when one is: never below its weakest claim.
    assert scored.overall_confidence == 0.3
    assert scored.label is ConfidenceLabel.MEDIUM and scored.flags == []
    assert scored.reason.endswith("answer the question only about 30% of the time.")


@pytest.mark.parametrize("several", [0.1, 0.5, 0.7, 0.95])
@pytest.mark.parametrize("claim_value", [0.2, 0.5, 0.75, 0.9])
def test_the_answer_label_is_never_above_its_weakest_claims_label(
    claim_value: float, several: float
) -> None:
    order = list(ConfidenceLabel)  # HIGH first
    maps = _answer_maps(claim_value, several)
    for claims in (
        [_supported(QuoteStatus.EXACT, 0.9), _claim(QuoteStatus.FUZZY, 0.5)],
        [_claim(QuoteStatus.EXACT, 0.9), _claim(QuoteStatus.EXACT, 0.9)],
        [_supported(QuoteStatus.EXACT, 0.9), _supported(QuoteStatus.NORMALIZED, 0.9)],
    ):
        scored = score_answer(claims, [_chunk(0.5)], ScoreSettings(), calibration=maps)
        weakest = max(order.index(c.confidence_label) for c in scored.claims)
        assert order.index(scored.label) >= weakest
        assert scored.label is answer_label(
            scored.overall_confidence, scored.claims, ScoreSettings()
        )
