"""A user-supplied NLI or reranking cross-encoder as the support checker's reader.

`gate.support_semantic = "cross-encoder:DIR"` (or `ragcite verify --support-semantic
cross-encoder:DIR`) reads each (evidence, claim) pair with the model in DIR: a
sentence-transformers cross-encoder exported to ONNX (`onnx/model.onnx` or `model.onnx`,
with `tokenizer.json`), as `ragcite.rerank.cross_encoder` loads it. An NLI model's
"entailment" column (from `config.json`'s `id2label`) or a reranker's single logit is
P(supported). The hard checks still run: a claim whose number, polarity or name
conflicts with the sentence it aligns with is CONTRADICTED whatever the model says, and
content-word overlap stays a floor: a claim whose words are all in one evidence sentence
is never judged less supported than the lexical checker would judge it.

    >>> checker = CrossEncoderSupportChecker(CrossEncoderReranker(Path("nli-deberta")))
    >>> checker.check("Leave is 16 weeks.", ["Primary caregivers get 16 weeks."]).verdict
    <SupportVerdict.SUPPORTED: 'supported'>                              # doctest: +SKIP
"""

from __future__ import annotations

from ragcite.learn.model import LearnedModel
from ragcite.models import SupportVerdict
from ragcite.rerank.cross_encoder import CrossEncoderReranker
from ragcite.verify.support.checker import (
    CONTRADICTION_MIN_ALIGNMENT,
    LayeredSupportChecker,
    SupportResult,
)

SUPPORTED_FROM = 0.5
PARTIAL_FROM = 1 / 3


class CrossEncoderSupportChecker:
    """Support read by a cross-encoder, with the hard checks and a lexical floor."""

    def __init__(
        self,
        reader: CrossEncoderReranker,
        lexical: LayeredSupportChecker | None = None,
        *,
        supported_from: float = SUPPORTED_FROM,
        partial_from: float = PARTIAL_FROM,
    ) -> None:
        self.reader = reader
        self.lexical = lexical
        self.supported_threshold = supported_from
        self.partial_threshold = partial_from

    @classmethod
    def with_lexical_floor(
        cls, reader: CrossEncoderReranker, lexical_model: LearnedModel
    ) -> CrossEncoderSupportChecker:
        return cls(reader, LayeredSupportChecker(lexical_model))

    def check(self, claim: str, evidence: list[str]) -> SupportResult:
        return self.check_many([(claim, evidence)])[0]

    def check_many(self, pairs: list[tuple[str, list[str]]]) -> list[SupportResult]:
        """Judge each (claim, evidence) pair: the model reads (evidence, claim)."""
        floors = self.lexical.check_many(pairs) if self.lexical is not None else []
        out = []
        for index, (claim, evidence) in enumerate(pairs):
            [read] = self.reader.score_pairs("\n".join(evidence), [claim])
            floor = floors[index] if floors else None
            out.append(self._result(read, floor))
        return out

    def _result(self, read: float, floor: SupportResult | None) -> SupportResult:
        signals = {"cross_encoder": read}
        if floor is None:
            verdict = self._verdict(read)
            return SupportResult(read, verdict, (), "", signals)
        signals.update(floor.signals)
        if floor.verdict is SupportVerdict.CONTRADICTED:
            return SupportResult(
                min(read, floor.score), floor.verdict, floor.reasons, floor.best_evidence, signals
            )
        # The lexical checker's verdict is a floor: the reader can only raise it.
        lexical_floor = floor.score if floor.verdict is SupportVerdict.SUPPORTED else 0.0
        score = max(read, lexical_floor)
        verdict = self._verdict(score)
        alignment = signals.get("lex_best_sentence", 0.0)
        reasons = floor.reasons if verdict is not SupportVerdict.SUPPORTED else ()
        if verdict is SupportVerdict.UNSUPPORTED and alignment < CONTRADICTION_MIN_ALIGNMENT:
            reasons = (*reasons, "the model finds no evidence sentence that says this")
        return SupportResult(score, verdict, reasons, floor.best_evidence, signals)

    def _verdict(self, score: float) -> SupportVerdict:
        if score >= self.supported_threshold:
            return SupportVerdict.SUPPORTED
        if score >= self.partial_threshold:
            return SupportVerdict.PARTIAL
        return SupportVerdict.UNSUPPORTED
