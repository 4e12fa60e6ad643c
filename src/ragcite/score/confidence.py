"""Claim and answer confidence, labels and the confidence warning flags.

Claim confidence blends what we measured about a claim: whether its quote was found
(and how strictly), whether the cited text supports it, how good its cited chunks are,
and (when a model reported one) the model's own attribution confidence. Answer
confidence is `claim_weight · mean claim confidence + chunk_weight · mean cited-chunk
confidence`; an answer that stands (at least the LOW floor) is never above its weakest
claim (no surer than its least sure part), and when every claim is an exact quote its
source supports, it reads as its weakest claim. A calibration map, when one is fitted,
turns the raw claim blend into the observed probability that such a claim is correct.
An exact (or normalised) quote that its source supports never reads below MEDIUM: its
words are the source's and the source says it.
Each claim and the answer carry `confidence_reason`, the label in words.
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
from ragcite.score.reasons import NO_ANSWER_REASON, answer_reason, claim_reason

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


def is_exact_and_supported(claim: CitedClaim) -> bool:
    """Every citation of `claim` is an exact or normalised quote its source supports."""
    return bool(claim.citations) and all(
        c.quote_status in (QuoteStatus.EXACT, QuoteStatus.NORMALIZED)
        and c.support is SupportVerdict.SUPPORTED
        for c in claim.citations
    )


def claim_confidence(
    raw: float, claim: CitedClaim, settings: ScoreSettings, calibration: Calibration | None
) -> float:
    """The (calibrated) claim confidence; an exact, supported quote is at least MEDIUM."""
    value = _unit(calibration(raw)) if calibration else raw
    if is_exact_and_supported(claim):
        value = max(value, settings.medium_from)
    return value


def answer_confidence(
    claim_values: list[float], chunk_mean: float, settings: ScoreSettings, *, all_supported: bool
) -> float:
    """The answer's confidence from its claims' and its cited chunks' (see the module doc).

    >>> answer_confidence([0.9, 0.7], 0.2, ScoreSettings(), all_supported=True)
    0.7
    """
    if not claim_values:
        return 0.0
    total = settings.claim_weight + settings.chunk_weight or 1.0
    mean = sum(claim_values) / len(claim_values)
    blend = (settings.claim_weight * mean + settings.chunk_weight * chunk_mean) / total
    if blend < settings.low_from:
        return _unit(blend)  # too weakly sourced to stand: the pipeline degrades it
    weakest = min(claim_values)
    if all_supported:
        return _unit(max(weakest, settings.low_from))
    return _unit(max(min(blend, weakest), settings.low_from))


@dataclass(frozen=True)
class ScoredAnswer:
    claims: list[CitedClaim]
    overall_confidence: float
    label: ConfidenceLabel
    flags: list[WarningFlag]
    reason: str = ""


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
        value = claim_confidence(raw, claim, settings, calibration)
        label = label_for(value, settings)
        scored.append(
            claim.model_copy(
                update={
                    "attribution_confidence": value,
                    "confidence_label": label,
                    "confidence_reason": claim_reason(claim, label),
                }
            )
        )
    if not scored:
        return ScoredAnswer([], 0.0, ConfidenceLabel.VERY_LOW, [], NO_ANSWER_REASON)
    cited = {i for c in scored for i in c.source_chunk_ids if i in by_id}
    chunk_mean = sum(by_id[i].composite_confidence for i in cited) / len(cited) if cited else 0.0
    overall = answer_confidence(
        [c.attribution_confidence for c in scored],
        chunk_mean,
        settings,
        all_supported=all(is_exact_and_supported(c) for c in scored),
    )
    flags = []
    if overall < settings.low_confidence_below:
        flags.append(flag("low_overall_confidence", confidence=overall))
    low = sum(1 for c in scored if c.attribution_confidence < settings.low_confidence_below)
    if low * 2 > len(scored):
        flags.append(flag("majority_claims_low_confidence", low=low, total=len(scored)))
    label = label_for(overall, settings)
    return ScoredAnswer(scored, overall, label, flags, answer_reason(scored, label))


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value))
