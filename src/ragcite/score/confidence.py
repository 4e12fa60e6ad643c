"""Claim and answer confidence, labels and the confidence warning flags.

A claim's raw blend combines what we measured about it: whether its quote was found (and
how strictly), whether the cited text supports it, how good its cited chunks are, and
(when a model reported one) the model's own attribution confidence. The calibration map
(the packaged one unless `score.calibration_path` names another, see
`ragcite.score.calibration`) turns the blend into the claim's confidence: the observed
probability that such a claim is correct. The number is never bent; the label is its band
(`score.high_from` / `medium_from` / `low_from`), except that an exact (or normalised)
quote its source supports is labelled at least MEDIUM, its words being the source's and the
source saying them, and its `confidence_reason` then says how often such quotes answer the
question.

An answer's confidence is its weakest claim's (no surer than its least sure part; a
one-claim answer reads as its claim), or, when the map has answer maps (`CalibrationMaps`),
the observed probability that an answer like it (its weakest claim's value, one claim or
several) is correct. Its label is the band of that number, never above its weakest claim's
label (and at least MEDIUM when every claim is an exact, supported quote); `answer_reason`
says when the label is held below or lifted above the number's band. Separately,
the answer's evidence (`answer_evidence`: `claim_weight` · mean claim blend +
`chunk_weight` · mean cited-chunk confidence) is what the pipeline's
`gate.min_overall_confidence` reads to regenerate or degrade a weakly sourced answer.
The low-confidence warning flags follow the labels (below MEDIUM), and every claim and
answer carries `confidence_reason`, the label in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

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


@runtime_checkable
class AnswerCalibration(Protocol):
    """A calibration that also maps an answer (see `ragcite.score.calibration`)."""

    def __call__(self, raw: float) -> float: ...

    def answer(self, weakest: float, claims: int) -> float: ...


_DEFAULT_SCORE = ScoreSettings()
_RANK = {
    ConfidenceLabel.VERY_LOW: 0,
    ConfidenceLabel.LOW: 1,
    ConfidenceLabel.MEDIUM: 2,
    ConfidenceLabel.HIGH: 3,
}
# In the answer's evidence (the pipeline's floor), an exact, supported quote counts at least
# this much: the earlier MEDIUM floor, so which answers stand is as it was before the map.
EVIDENCE_FLOOR = 0.65


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


def claim_confidence(raw: float, calibration: Calibration | None) -> float:
    """The claim's confidence: the calibration map's probability for the raw blend (the raw
    blend itself without a map). Never floored: the number stays the probability."""
    return _unit(calibration(raw)) if calibration else raw


def claim_label(value: float, claim: CitedClaim, settings: ScoreSettings) -> ConfidenceLabel:
    """The label band of `value`; an exact, supported quote is at least MEDIUM (the label
    only: its words are the source's and the source says them, whatever the number).

    >>> claim_label(0.5, CitedClaim(claim_text="x"), ScoreSettings())
    <ConfidenceLabel.LOW: 'LOW'>
    """
    return lifted_label(value, is_exact_and_supported(claim), settings)


def lifted_label(value: float, exact_supported: bool, settings: ScoreSettings) -> ConfidenceLabel:
    """The label band of `value`, at least MEDIUM when `exact_supported` (every quote
    exact or normalised and supported by its source): the rule of claim and answer labels.

    >>> lifted_label(0.5, True, ScoreSettings())
    <ConfidenceLabel.MEDIUM: 'MEDIUM'>
    """
    label = label_for(value, settings)
    return max(label, ConfidenceLabel.MEDIUM, key=_RANK.__getitem__) if exact_supported else label


def weakest_label(labels: Iterable[ConfidenceLabel]) -> ConfidenceLabel:
    """The lowest of `labels` (VERY_LOW when there are none)."""
    return min(labels, key=_RANK.__getitem__, default=ConfidenceLabel.VERY_LOW)


def answer_evidence(
    claim_values: list[float], chunk_mean: float, settings: ScoreSettings, *, quoted: bool = False
) -> float:
    """How strongly the answer is sourced, uncalibrated: `claim_weight` · mean claim value
    + `chunk_weight` · mean cited-chunk confidence, where a claim's value is its raw blend
    (an exact, supported quote counting at least `EVIDENCE_FLOOR`). Below
    `gate.min_overall_confidence` the pipeline regenerates, then degrades the answer. When
    every claim is an exact, supported quote (`quoted`), the answer is as well sourced as its
    claims: the passages' retrieval rank (their composite confidence, relative to the other
    passages retrieved) does not pull it below them.

    >>> answer_evidence([0.65], 0.2, ScoreSettings())
    0.47
    >>> answer_evidence([0.65], 0.05, ScoreSettings(), quoted=True)
    0.65
    """
    if not claim_values:
        return 0.0
    total = settings.claim_weight + settings.chunk_weight or 1.0
    mean = sum(claim_values) / len(claim_values)
    blend = (settings.claim_weight * mean + settings.chunk_weight * chunk_mean) / total
    return round(_unit(max(blend, mean) if quoted else blend), 6)


def answer_confidence(claim_values: list[float], calibration: Calibration | None = None) -> float:
    """The answer's confidence: its weakest claim's (an answer is no surer than its least
    sure part; a one-claim answer reads as its claim), mapped by the calibration's answer
    maps when it has them (P(an answer like it is correct)).

    >>> answer_confidence([0.9, 0.7])
    0.7
    """
    weakest = min(claim_values, default=0.0)
    if not claim_values or not isinstance(calibration, AnswerCalibration):
        return weakest
    return _unit(calibration.answer(weakest, len(claim_values)))


def answer_label(
    value: float, claims: list[CitedClaim], settings: ScoreSettings
) -> ConfidenceLabel:
    """The band of the answer's confidence, lifted to MEDIUM when every claim is an exact,
    supported quote, and never above its weakest claim's label.

    >>> answer_label(0.9, [], ScoreSettings())
    <ConfidenceLabel.VERY_LOW: 'VERY_LOW'>
    """
    if not claims:
        return ConfidenceLabel.VERY_LOW
    exact = all(is_exact_and_supported(c) for c in claims)
    return weakest_label([lifted_label(value, exact, settings), *(_label_of(c) for c in claims)])


@dataclass(frozen=True)
class ScoredAnswer:
    claims: list[CitedClaim]
    overall_confidence: float
    label: ConfidenceLabel
    flags: list[WarningFlag]
    reason: str = ""
    evidence: float = 0.0  # `answer_evidence`, what the pipeline's confidence floor reads


def score_answer(
    claims: list[CitedClaim],
    chunks: list[SourceChunk],
    settings: ScoreSettings,
    *,
    self_reported: list[float | None] | None = None,
    calibration: Calibration | None = None,
    relevance_checked: bool = False,
) -> ScoredAnswer:
    """Claims with their confidence set, the overall confidence, its label and flags.
    `relevance_checked`: the generator quoted only sentences it scored relevant to the
    question (the extractive generator), so exact, supported quotes from low-ranked
    passages are not weak evidence (`answer_evidence`'s `quoted`); an LLM's verbatim copy
    of an unrelated sentence is, and its passages' rank is what says so.

    >>> scored = score_answer(claims, chunks, settings, calibration=map_)  # doctest: +SKIP
    >>> scored.overall_confidence, scored.label  # one exact, supported quote  # doctest: +SKIP
    (0.975, <ConfidenceLabel.HIGH: 'HIGH'>)
    """
    by_id = {c.chunk_id: c for c in chunks}
    reported = self_reported or [None] * len(claims)
    scored, evidence_values = [], []
    for claim, own in zip(claims, reported, strict=True):
        raw = blend_claim_confidence(claim_signals(claim, by_id, self_reported=own))
        value = claim_confidence(raw, calibration)
        label = claim_label(value, claim, settings)
        solid = is_exact_and_supported(claim)
        evidence_values.append(max(raw, EVIDENCE_FLOOR) if solid else raw)
        lifted = value if label is not label_for(value, settings) else None
        scored.append(
            claim.model_copy(
                update={
                    "attribution_confidence": value,
                    "confidence_label": label,
                    "confidence_reason": claim_reason(claim, label, lifted),
                }
            )
        )
    if not scored:
        return ScoredAnswer([], 0.0, ConfidenceLabel.VERY_LOW, [], NO_ANSWER_REASON)
    cited = {i for c in scored for i in c.source_chunk_ids if i in by_id}
    chunk_mean = sum(by_id[i].composite_confidence for i in cited) / len(cited) if cited else 0.0
    overall = answer_confidence([c.attribution_confidence for c in scored], calibration)
    label = answer_label(overall, scored, settings)
    return ScoredAnswer(
        scored,
        overall,
        label,
        _confidence_flags(scored, label, overall),
        answer_reason(scored, label, overall, label_for(overall, settings)),
        answer_evidence(
            evidence_values,
            chunk_mean,
            settings,
            quoted=relevance_checked and all(is_exact_and_supported(c) for c in scored),
        ),
    )


def _confidence_flags(
    claims: list[CitedClaim], label: ConfidenceLabel, overall: float
) -> list[WarningFlag]:
    """The low-confidence warnings, which follow the labels: below MEDIUM is low."""
    flags = []
    if _RANK[label] < _RANK[ConfidenceLabel.MEDIUM]:
        flags.append(flag("low_overall_confidence", confidence=overall))
    low = sum(1 for c in claims if _RANK[_label_of(c)] < _RANK[ConfidenceLabel.MEDIUM])
    if low * 2 > len(claims):
        flags.append(flag("majority_claims_low_confidence", low=low, total=len(claims)))
    return flags


def _label_of(claim: CitedClaim) -> ConfidenceLabel:
    return claim.confidence_label or ConfidenceLabel.VERY_LOW


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value))
