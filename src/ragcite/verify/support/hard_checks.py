"""Layer 1: cheap checks that small models miss — numbers, negation, named entities.

A claim's numbers (digits, amounts, percentages, number words) must appear in the
evidence; its negation must agree with the evidence sentence it aligns with; its
capitalised names must appear in the evidence. When the aligned sentence says something
else in the same slot (another number, the opposite polarity, another name) the result
carries a contradiction hint.

    >>> evidence = "The warranty lasts 3 years."
    >>> result = run_hard_checks("The warranty lasts 7 years.", evidence, evidence)
    >>> result.contradiction
    'number 7 in the claim is not in the evidence (evidence says 3)'
"""

from __future__ import annotations

from dataclasses import dataclass

from ragcite.verify.support.text import (
    claim_numbers,
    has_negation,
    named_entities,
    number_values,
    stem,
    words,
)

SIGNAL_NAMES = (
    "hard_has_numbers",
    "hard_number_missing",
    "hard_number_conflict",
    "hard_negation_mismatch",
    "hard_has_entities",
    "hard_entity_missing",
    "hard_entity_conflict",
)


@dataclass(frozen=True)
class HardCheckResult:
    """Signals in [0, 1], human-readable reasons, and a contradiction hint (or None)."""

    signals: dict[str, float]
    reasons: tuple[str, ...]
    contradiction: str | None


def _is_year(value: float) -> bool:
    return value == int(value) and 1000 <= value <= 2100


def _number_found(value: float, surface: str, evidence_values: list[float]) -> bool:
    """Exact value, or the claim's rounded form of an evidence value ("about 1.2 million")."""
    if any(value == v for v in evidence_values):
        return True
    digits = [c for c in surface if c.isdigit()]
    significant = len("".join(digits).strip("0")) or 1
    if _is_year(value) or significant > 2:
        return False
    return any(v and abs(value - v) / abs(v) <= 0.05 for v in evidence_values)


def _entity_found(entity: str, evidence_stems: set[str], evidence_lower: str) -> bool:
    if entity.lower() in evidence_lower:
        return True
    tokens = [stem(t) for t in words(entity)]
    return bool(tokens) and all(t in evidence_stems for t in tokens)


def run_hard_checks(
    claim: str, evidence: str, aligned: str, window: str | None = None
) -> HardCheckResult:
    """Check `claim` against the whole `evidence` text and its best-aligned sentence.
    Rival numbers and names are also looked for in `window` (the best-aligned sentences
    around it, when given); negation is judged on the aligned sentence alone."""
    reasons: list[str] = []
    contradiction: str | None = None
    signals = dict.fromkeys(SIGNAL_NAMES, 0.0)

    numbers = claim_numbers(claim)
    if numbers:
        signals["hard_has_numbers"] = 1.0
        evidence_values = number_values(evidence)
        aligned_numbers = claim_numbers(window or aligned)
        missing = [(s, v) for s, v in numbers if not _number_found(v, s, evidence_values)]
        signals["hard_number_missing"] = len(missing) / len(numbers)
        for surface, value in missing:
            # A different number of the same kind (year vs year, amount vs amount) in the
            # sentence the claim aligns with is a conflict, not just an absence.
            rivals = [s for s, v in aligned_numbers if _is_year(v) == _is_year(value)]
            if rivals:
                signals["hard_number_conflict"] = 1.0
                message = (
                    f"number {surface} in the claim is not in the evidence "
                    f"(evidence says {rivals[0]})"
                )
                contradiction = contradiction or message
            else:
                message = f"number {surface} in the claim is not in the evidence"
            reasons.append(message)

    claim_negated, aligned_negated = has_negation(claim), has_negation(aligned)
    if claim_negated != aligned_negated:
        signals["hard_negation_mismatch"] = 1.0
        message = (
            "the claim is negated but the evidence is not"
            if claim_negated
            else "the evidence is negated but the claim is not"
        )
        reasons.append(message)
        contradiction = contradiction or message

    entities = named_entities(claim)
    if entities:
        signals["hard_has_entities"] = 1.0
        evidence_lower = evidence.lower()
        evidence_stems = {stem(t) for t in words(evidence)}
        missing_entities = [
            e for e in entities if not _entity_found(e, evidence_stems, evidence_lower)
        ]
        signals["hard_entity_missing"] = len(missing_entities) / len(entities)
        claim_lower = claim.lower()
        rivals = [e for e in named_entities(window or aligned) if e.lower() not in claim_lower]
        for entity in missing_entities:
            if rivals:
                signals["hard_entity_conflict"] = 1.0
                reasons.append(
                    f"'{entity}' in the claim is not in the evidence (evidence names {rivals[0]})"
                )
            else:
                reasons.append(f"'{entity}' in the claim is not in the evidence")
    return HardCheckResult(signals, tuple(reasons), contradiction)
