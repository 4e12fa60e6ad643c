"""Layer 1: cheap checks that small models miss — numbers, negation, named entities.

A claim's numbers (digits, amounts, percentages, number words) must appear in the
evidence, durations and times of day in any units ("18 months" is "1.5 years", "5 pm" is
"17:00"); its negation must agree with the evidence sentence it aligns with; its
capitalised names must appear in the evidence, acronyms written out or not ("CFO",
"Chief Financial Officer"). When the aligned sentence says something
else in the same slot (another number, the opposite polarity, another name) the result
carries a contradiction hint.

    >>> evidence = "The warranty lasts 3 years."
    >>> result = run_hard_checks("The warranty lasts 7 years.", evidence, evidence)
    >>> result.contradiction
    'number 7 in the claim is not in the evidence (evidence says 3)'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ragcite.text.stems import stem
from ragcite.text.words import tokens
from ragcite.verify.support.names import entity_found
from ragcite.verify.support.polarity import coverage_beside_polarity, negated, opposite_polarity
from ragcite.verify.support.quantities import Quantity, quantities, spell_out_iso_dates
from ragcite.verify.support.text import named_entities

# A rounded number ("about 50", "nearly 2,000") is found in a more precise one near it;
# without a hedge word only a large value is read as rounded ("1.2 million").
_HEDGE = re.compile(
    r"(?:\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|circa|ca\.|"
    r"close\s+to|over|under|more\s+than|less\s+than|fewer\s+than)|~)\s*\S*$",
    re.IGNORECASE,
)
_ROUNDED_WITHOUT_HEDGE = 1000

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
    # On a polarity mismatch: how much of the claim, permission words aside, the clause
    # with the opposite polarity holds (the claim's own predicate cannot be there).
    negation_alignment: float | None = None


def _number_found(claimed: Quantity, evidence: list[Quantity], claim: str) -> bool:
    """The same value; the same duration in other units ("18 months", "1.5 years"); the
    same time of day ("5 pm", "17:00"); or the claim's rounded form of a more precise
    evidence value, when the claim says so ("about 50" for 48) or the value is large
    ("1.2 million" for 1,213,000). "68" is not "65", nor "within 50 hours" "48 hours"."""
    if claimed.time_of_day:
        # "5 pm" is found in "open 9 to 5" too: a bare hour, on either clock.
        hours = {claimed.value / 60, (claimed.value % 720) / 60}
        return any(
            q.value == claimed.value if q.time_of_day else q.value in hours for q in evidence
        )
    if any(q.value == claimed.value and not q.time_of_day for q in evidence):
        return True
    if claimed.duration and any(
        q.duration
        and q.duration[0] == claimed.duration[0]
        and math.isclose(q.duration[1], claimed.duration[1])
        for q in evidence
    ):
        return True
    significant = _significant_digits(claimed)
    if claimed.is_year or significant > 2:
        return False
    hedged = bool(_HEDGE.search(claim, 0, claimed.start))
    if not (hedged or claimed.value >= _ROUNDED_WITHOUT_HEDGE):
        return False
    return any(
        q.value
        and not q.time_of_day
        and _significant_digits(q) > significant
        and abs(claimed.value - q.value) / abs(q.value) <= 0.05
        for q in evidence
    )


def _significant_digits(quantity: Quantity) -> int:
    return len("".join(c for c in quantity.surface if c.isdigit()).strip("0")) or 1


def _is_rival(candidate: Quantity, claimed: Quantity) -> bool:
    """A number that could stand where the claim's does: a year for a year, a time for a
    time, and for a duration not one in units it cannot be converted to ("every year"
    stands for "6 months", "60 days" does not for "two months")."""
    if candidate.is_year != claimed.is_year or candidate.time_of_day != claimed.time_of_day:
        return False
    same_family = bool(
        claimed.duration and candidate.duration and candidate.duration[0] == claimed.duration[0]
    )
    if candidate.weak:
        return same_family
    return same_family or not (claimed.duration and candidate.duration)


def run_hard_checks(
    claim: str, evidence: str, aligned: str, window: str | None = None
) -> HardCheckResult:
    """Check `claim` against the whole `evidence` text and its best-aligned sentence.
    Rival numbers and names are also looked for in `window` (the best-aligned sentences
    around it, when given); negation is judged on the aligned sentence alone."""
    reasons: list[str] = []
    contradiction: str | None = None
    signals = dict.fromkeys(SIGNAL_NAMES, 0.0)

    claim, evidence, aligned = (spell_out_iso_dates(t) for t in (claim, evidence, aligned))
    window = spell_out_iso_dates(window) if window else None
    in_claim = quantities(claim)
    numbers = [q for q in in_claim if not q.weak]
    if numbers:
        signals["hard_has_numbers"] = 1.0
        # A rate the claim states itself ("7 days per week") is no evidence for its number:
        # "a week" is seven days, but the claim's own "per week" is what it matches.
        own_rates = {q.duration for q in in_claim if q.weak}
        evidence_numbers = [
            q for q in quantities(evidence) if not (q.weak and q.duration in own_rates)
        ]
        aligned_numbers = quantities(window or aligned)
        missing = [q for q in numbers if not _number_found(q, evidence_numbers, claim)]
        signals["hard_number_missing"] = len(missing) / len(numbers)
        for claimed in missing:
            # A different number of the same kind (year vs year, amount vs amount) in the
            # sentence the claim aligns with is a conflict, not just an absence.
            rivals = [q.surface for q in aligned_numbers if _is_rival(q, claimed)]
            if rivals:
                signals["hard_number_conflict"] = 1.0
                message = (
                    f"number {claimed.surface} in the claim is not in the evidence "
                    f"(evidence says {rivals[0]})"
                )
                contradiction = contradiction or message
            else:
                message = f"number {claimed.surface} in the claim is not in the evidence"
            reasons.append(message)

    negation_alignment = None
    opposite = opposite_polarity(claim, aligned)
    if opposite is not None:
        claim_clause, evidence_clause = opposite
        signals["hard_negation_mismatch"] = 1.0
        negation_alignment = coverage_beside_polarity(claim_clause, evidence_clause)
        message = (
            "the claim is negated but the evidence is not"
            if negated(claim_clause)
            else "the evidence is negated but the claim is not"
        )
        reasons.append(message)
        contradiction = contradiction or message

    _check_entities(claim, evidence, window or aligned, signals, reasons)
    return HardCheckResult(signals, tuple(reasons), contradiction, negation_alignment)


def _check_entities(
    claim: str, evidence: str, aligned: str, signals: dict[str, float], reasons: list[str]
) -> None:
    """Names in the claim must be in the evidence; another name in `aligned` (the
    best-aligned sentences) instead is a conflict. Updates `signals` and `reasons`."""
    entities = named_entities(claim)
    if not entities:
        return
    signals["hard_has_entities"] = 1.0
    evidence_stems = {stem(t) for t in tokens(evidence)}
    missing_entities = [e for e in entities if not entity_found(e, evidence, evidence_stems)]
    signals["hard_entity_missing"] = len(missing_entities) / len(entities)
    claim_lower = claim.lower()
    rivals = [e for e in named_entities(aligned) if e.lower() not in claim_lower]
    for entity in missing_entities:
        if rivals:
            signals["hard_entity_conflict"] = 1.0
            reasons.append(
                f"'{entity}' in the claim is not in the evidence (evidence names {rivals[0]})"
            )
        else:
            reasons.append(f"'{entity}' in the claim is not in the evidence")
