"""The layered support checker: hard checks, lexical alignment, embeddings, learned score.

>>> checker = LayeredSupportChecker(load_support_models()["semantic"], embedder=MiniLMEmbedder())
>>> result = checker.check("The warranty lasts 7 years.", ["The warranty lasts 3 years."])
>>> result.verdict, result.reasons[0]
(<SupportVerdict.CONTRADICTED: 'contradicted'>,
 'number 7 in the claim is not in the evidence (evidence says 3)')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

from ragcite.embed.base import Embedder
from ragcite.learn.model import LearnedModel
from ragcite.models import SupportVerdict
from ragcite.verify.markers import strip_citation_markers
from ragcite.verify.support.hard_checks import HardCheckResult, run_hard_checks
from ragcite.verify.support.lexical import LexicalResult, lexical_support
from ragcite.verify.support.semantic import SemanticScorer

# Below the supported threshold, a contradiction hint turns into CONTRADICTED when the
# aligned sentence is about the claim at all: this share of its content words is in it.
CONTRADICTION_MIN_ALIGNMENT = 0.34
# Above this alignment a conflict overrides even a high learned score (chosen on validation:
# it costs under 1 point of macro-F1 there and catches flips the learned model misses).
CONTRADICTION_OVERRIDE_ALIGNMENT = 0.7


@dataclass(frozen=True)
class SupportResult:
    """The support judgement for one claim against its evidence."""

    score: float  # calibrated P(supported) in [0, 1]; capped at the partial threshold
    # when a hard conflict overrides the learned score
    verdict: SupportVerdict
    reasons: tuple[str, ...]
    best_evidence: str  # the evidence sentence(s) that best align with the claim
    signals: dict[str, float] = field(default_factory=dict)  # each layer's raw signal


class SupportChecker(Protocol):
    """Judges whether evidence (one or more chunk texts, judged jointly) supports a claim."""

    def check(self, claim: str, evidence: list[str]) -> SupportResult: ...

    def check_many(self, pairs: list[tuple[str, list[str]]]) -> list[SupportResult]: ...


class LayeredSupportChecker:
    """Layers 1–3 compute signals; the learned model (layer 4) turns them into a score."""

    def __init__(self, model: LearnedModel, *, embedder: Embedder | None = None) -> None:
        if embedder is not None and not any(f.startswith("sem_") for f in model.features):
            raise ValueError("this support model has no semantic features: pass embedder=None")
        self.model = model
        self.supported_threshold = model.threshold("supported")
        self.partial_threshold = model.threshold("partial")
        self.semantic = SemanticScorer(embedder) if embedder is not None else None

    def check(self, claim: str, evidence: list[str]) -> SupportResult:
        """Judge one claim; see `check_many`."""
        return self.check_many([(claim, evidence)])[0]

    def check_many(self, pairs: list[tuple[str, list[str]]]) -> list[SupportResult]:
        """Judge many (claim, evidence) pairs; embeddings are batched across pairs."""
        signals, lexical, hard = self.signals_many(pairs)
        scores = self.model.predict(self.model.matrix(signals))
        return [
            self._result(float(score), sig, lex, chk)
            for score, sig, lex, chk in zip(scores, signals, lexical, hard, strict=True)
        ]

    def signals_many(
        self, pairs: list[tuple[str, list[str]]]
    ) -> tuple[list[dict[str, float]], list[LexicalResult], list[HardCheckResult]]:
        """Every layer's raw signals for each pair (what the learned model is trained on).
        Citation markers in a claim ("[2]", "[doc-4]") are not part of what it says."""
        pairs = [(strip_citation_markers(claim), evidence) for claim, evidence in pairs]
        lexical = [lexical_support(claim, evidence) for claim, evidence in pairs]
        hard = [
            run_hard_checks(
                claim,
                "\n".join(evidence),
                lex.ranked_sentences[0] if lex.ranked_sentences else "",
                window=lex.aligned,
            )
            for (claim, evidence), lex in zip(pairs, lexical, strict=True)
        ]
        signals = [{**lex.signals, **chk.signals} for lex, chk in zip(lexical, hard, strict=True)]
        if self.semantic is not None:
            semantic = self.semantic.signals_many(
                [claim for claim, _ in pairs], [lex.ranked_sentences for lex in lexical]
            )
            for sig, sem in zip(signals, semantic, strict=True):
                sig.update(sem)
        return signals, lexical, hard

    def _result(
        self, score: float, signals: dict[str, float], lex: LexicalResult, hard: HardCheckResult
    ) -> SupportResult:
        alignment = max(signals["lex_best_sentence"], hard.negation_alignment or 0.0)
        conflict = bool(hard.contradiction) or signals["hard_entity_conflict"] > 0
        reasons = list(hard.reasons)
        if conflict and alignment >= CONTRADICTION_OVERRIDE_ALIGNMENT:
            # The sentence says nearly what the claim says, but with another number, the
            # opposite polarity or another name: that is a contradiction, whatever the score.
            verdict = SupportVerdict.CONTRADICTED
            score = min(score, self.partial_threshold)
        elif score >= self.supported_threshold:
            verdict = SupportVerdict.SUPPORTED
        elif conflict and alignment >= CONTRADICTION_MIN_ALIGNMENT:
            verdict = SupportVerdict.CONTRADICTED
        elif score >= self.partial_threshold:
            verdict = SupportVerdict.PARTIAL
        else:
            verdict = SupportVerdict.UNSUPPORTED
        if verdict is not SupportVerdict.SUPPORTED and signals["lex_best_window"] < 0.5:
            share = round(100 * signals["lex_best_window"])
            reasons.append(f"the best-aligned evidence covers only {share}% of the claim's words")
        return SupportResult(
            score=score,
            verdict=verdict,
            reasons=tuple(reasons),
            best_evidence=lex.aligned,
            signals=signals,
        )


SemanticLayer = Literal["minilm", "static", "none"]
