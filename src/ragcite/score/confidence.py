"""Claim and answer confidence, labels and the confidence warning flags.

Claim confidence blends what we measured about a claim: whether its quote was found
(and how strictly), whether the cited text supports it, how good its cited chunks are,
and (when a model reported one) the model's own attribution confidence. Answer
confidence is `claim_weight · mean claim confidence + chunk_weight · mean cited-chunk
confidence`. A calibration map, when one is fitted, turns the raw claim blend into the
observed probability that such a claim is correct.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ragcite.config import ScoreSettings
from ragcite.flags import flag
from ragcite.models import (
    CitedClaim,
    ConfidenceLabel,
    QuoteStatus,
    SourceChunk,
    SupportVerdict,
    WarningFlag,
)

QUOTE_STRENGTH = {
    QuoteStatus.EXACT: 1.0,
    QuoteStatus.NORMALIZED: 0.95,
    QuoteStatus.FUZZY: 0.75,
    QuoteStatus.NOT_FOUND: 0.0,
}

Calibration = Callable[[float], float]
_DEFAULT_SCORE = ScoreSettings()


@dataclass(frozen=True)
class ClaimSignals:
    """The raw signals of one claim, for the blend and for calibration fitting."""

    quote: float
    support: float | None
    chunk: float
    self_reported: float | None


def claim_signals(
    claim: CitedClaim, chunks: dict[str, SourceChunk], *, self_reported: float | None = None
) -> ClaimSignals:
    quote = max((QUOTE_STRENGTH[c.quote_status] for c in claim.citations), default=0.0)
    scores = [c.support_score for c in claim.citations if c.support_score is not None]
    if any(c.support is SupportVerdict.CONTRADICTED for c in claim.citations):
        scores = [0.0]
    cited = [chunks[i].composite_confidence for i in claim.source_chunk_ids if i in chunks]
    return ClaimSignals(
        quote=quote,
        support=sum(scores) / len(scores) if scores else None,
        chunk=sum(cited) / len(cited) if cited else 0.0,
        self_reported=self_reported,
    )


def blend_claim_confidence(signals: ClaimSignals) -> float:
    """The raw (uncalibrated) claim confidence in [0, 1]."""
    support = signals.support if signals.support is not None else signals.quote * 0.8
    if signals.quote == 0.0:
        support = min(support, 0.5)  # an unverifiable quote caps what support can claim
    parts = [(0.25, signals.quote), (0.5, support), (0.25, signals.chunk)]
    if signals.self_reported is not None:
        parts = [(w * 0.8, v) for w, v in parts] + [(0.2, signals.self_reported)]
    return _unit(sum(w * v for w, v in parts) / sum(w for w, _ in parts))


def label_for(confidence: float, settings: ScoreSettings | None = None) -> ConfidenceLabel:
    """The label of a confidence under the settings' floors (default 0.85 / 0.65 / 0.45).

    >>> label_for(0.7), label_for(0.7, ScoreSettings(medium_from=0.75))
    (<ConfidenceLabel.MEDIUM: 'MEDIUM'>, <ConfidenceLabel.LOW: 'LOW'>)
    """
    settings = settings or _DEFAULT_SCORE
    floors = (
        (ConfidenceLabel.HIGH, settings.high_from),
        (ConfidenceLabel.MEDIUM, settings.medium_from),
        (ConfidenceLabel.LOW, settings.low_from),
    )
    for label, floor in floors:
        if confidence >= floor:
            return label
    return ConfidenceLabel.VERY_LOW


@dataclass(frozen=True)
class ScoredAnswer:
    claims: list[CitedClaim]
    overall_confidence: float
    label: ConfidenceLabel
    flags: list[WarningFlag]


def score_answer(
    claims: list[CitedClaim],
    chunks: list[SourceChunk],
    settings: ScoreSettings,
    *,
    self_reported: list[float | None] | None = None,
    calibration: Calibration | None = None,
) -> ScoredAnswer:
    """Claims with their confidence set, the overall confidence, its label and flags."""
    by_id = {c.chunk_id: c for c in chunks}
    reported = self_reported or [None] * len(claims)
    scored = []
    for claim, own in zip(claims, reported, strict=True):
        raw = blend_claim_confidence(claim_signals(claim, by_id, self_reported=own))
        value = _unit(calibration(raw)) if calibration else raw
        label = label_for(value, settings)
        scored.append(
            claim.model_copy(update={"attribution_confidence": value, "confidence_label": label})
        )
    if not scored:
        return ScoredAnswer([], 0.0, ConfidenceLabel.VERY_LOW, [])
    claim_mean = sum(c.attribution_confidence for c in scored) / len(scored)
    cited = {i for c in scored for i in c.source_chunk_ids if i in by_id}
    chunk_mean = sum(by_id[i].composite_confidence for i in cited) / len(cited) if cited else 0.0
    total = settings.claim_weight + settings.chunk_weight or 1.0
    overall = _unit(
        (settings.claim_weight * claim_mean + settings.chunk_weight * chunk_mean) / total
    )
    flags = []
    if overall < settings.low_confidence_below:
        flags.append(flag("low_overall_confidence", confidence=overall))
    low = sum(1 for c in scored if c.attribution_confidence < settings.low_confidence_below)
    if low * 2 > len(scored):
        flags.append(flag("majority_claims_low_confidence", low=low, total=len(scored)))
    return ScoredAnswer(scored, overall, label_for(overall, settings), flags)


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value))
