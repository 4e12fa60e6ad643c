"""An optional LLM tier over any support checker: a model judges the borderline claims.

The inner checker scores every pair. A pair whose score falls in the borderline band
`[partial_threshold - below, supported_threshold + above]` (default margins 0.05 and
0.15; with the shipped semantic model about 0.28-0.51) is shown to the LLM, one prompt
per pair, in order; every other pair keeps its result and costs no call. For a judged
pair the judge's verdict decides, and the score moves just far enough to agree with it,
so it stays a probability:

* SUPPORTED      -> verdict supported,    score max(score, supported_threshold)
* NOT SUPPORTED  -> verdict unsupported,  score min(score, partial_threshold - 0.01)
* CONTRADICTED   -> verdict contradicted, score min(score, partial_threshold - 0.01)

A CONTRADICTED verdict from the inner checker is never sent to the judge: it comes from
the hard checks (a number, date, negation or name that disagrees with the sentence that
says nearly what the claim says), rule evidence that a model may not overrule.

The judge never breaks the gate: when the model fails, times out or replies with no
verdict word, the inner result stands with a reason "LLM judge unavailable: ...". A
configuration error (no API key, no model file) switches the judge off for the rest of
the checker's life instead of being retried on every claim.

>>> checker = JudgedSupportChecker(default_support_checker(embedder), complete,
...                                model_id="openai:gpt-4o-mini")
>>> checker.check("Backups are kept for a month.", ["Backups are kept 35 days."]).reasons[-1]
'LLM judge (openai:gpt-4o-mini) said not supported'
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

from ragcite.config import GateSettings
from ragcite.errors import ConfigError, ModelError
from ragcite.models import SupportVerdict
from ragcite.verify.support.checker import LayeredSupportChecker, SupportChecker, SupportResult
from ragcite.verify.support.judge_prompt import judge_prompt, parse_judge_reply

_GATE = GateSettings()  # the band margins' defaults: gate.support_judge_below / _above
# A reply needs one word; a little room for models that explain themselves first.
JUDGE_MAX_TOKENS = 24
MAX_EVIDENCE_CHARS = 4000
_BELOW_PARTIAL = 0.01
_SAID = {
    SupportVerdict.SUPPORTED: "supported",
    SupportVerdict.UNSUPPORTED: "not supported",
    SupportVerdict.CONTRADICTED: "contradicted",
}
# signals["llm_judge"]: what the judge said, as a number.
JUDGE_SIGNAL = {
    SupportVerdict.SUPPORTED: 1.0,
    SupportVerdict.UNSUPPORTED: 0.0,
    SupportVerdict.CONTRADICTED: -1.0,
}


class JudgedSupportChecker:
    """`inner`, with borderline pairs decided by `complete(prompt) -> reply` (an LLM)."""

    def __init__(
        self,
        inner: SupportChecker,
        complete: Callable[[str], str],
        *,
        model_id: str,
        supported_threshold: float | None = None,
        partial_threshold: float | None = None,
        below: float = _GATE.support_judge_below,
        above: float = _GATE.support_judge_above,
        max_evidence_chars: int = MAX_EVIDENCE_CHARS,
    ) -> None:
        if supported_threshold is None or partial_threshold is None:
            if not isinstance(inner, LayeredSupportChecker):
                raise ValueError(
                    "pass supported_threshold and partial_threshold for a support "
                    "checker without a support model"
                )
            supported_threshold = inner.supported_threshold
            partial_threshold = inner.partial_threshold
        if not 0.0 <= partial_threshold <= supported_threshold <= 1.0:
            raise ValueError(
                f"thresholds must satisfy 0 <= partial <= supported <= 1, but got "
                f"partial={partial_threshold}, supported={supported_threshold}"
            )
        if below < 0 or above < 0:
            raise ValueError(f"band margins must be >= 0, but got below={below}, above={above}")
        if max_evidence_chars < 100:
            raise ValueError(f"max_evidence_chars must be >= 100, but got {max_evidence_chars}")
        self.inner = inner
        self.complete = complete
        self.model_id = model_id
        self.supported_threshold = supported_threshold
        self.partial_threshold = partial_threshold
        self.band = (max(0.0, partial_threshold - below), min(1.0, supported_threshold + above))
        self.max_evidence_chars = max_evidence_chars
        self.calls = 0  # LLM calls made, for tests and timings
        self._switched_off: str | None = None
        self._lock = threading.Lock()

    def check(self, claim: str, evidence: list[str]) -> SupportResult:
        """Judge one claim; see `check_many`."""
        return self.check_many([(claim, evidence)])[0]

    def check_many(self, pairs: list[tuple[str, list[str]]]) -> list[SupportResult]:
        """The inner results, with each borderline pair put to the LLM (sequentially)."""
        results = self.inner.check_many(pairs)
        return [
            self._judge(claim, evidence, result) if self.is_borderline(result) else result
            for (claim, evidence), result in zip(pairs, results, strict=True)
        ]

    def is_borderline(self, result: SupportResult) -> bool:
        """In the band, and not a hard-check contradiction."""
        low, high = self.band
        return low <= result.score <= high and result.verdict is not SupportVerdict.CONTRADICTED

    def _judge(self, claim: str, evidence: list[str], result: SupportResult) -> SupportResult:
        if self._switched_off is not None:
            return _with_reason(result, f"LLM judge unavailable: {self._switched_off}")
        prompt = judge_prompt(
            claim, evidence, max_chars=self.max_evidence_chars, keep=result.best_evidence
        )
        with self._lock:
            self.calls += 1
        try:
            reply = self.complete(prompt)
        except (ConfigError, ModelError) as exc:
            self._switched_off = str(exc)  # it will not get better by asking again
            return _with_reason(result, f"LLM judge unavailable: {exc}")
        except Exception as exc:  # the judge is advisory: any failure keeps the inner result
            return _with_reason(result, f"LLM judge unavailable: {_describe(exc)}")
        said = parse_judge_reply(reply)
        if said is None:
            return _with_reason(
                result, f"LLM judge unavailable: no verdict in its reply {_shorten(reply)!r}"
            )
        return self._apply(result, said)

    def _apply(self, result: SupportResult, said: SupportVerdict) -> SupportResult:
        if said is SupportVerdict.SUPPORTED:
            score = max(result.score, self.supported_threshold)
        else:
            score = max(0.0, min(result.score, self.partial_threshold - _BELOW_PARTIAL))
        reason = f"LLM judge ({self.model_id}) said {_SAID[said]}"
        if said is not result.verdict:
            reason += f" (the support score alone said {result.verdict.value})"
        signals = {
            **result.signals,
            "llm_judge": JUDGE_SIGNAL[said],
            "llm_judge_prior_score": result.score,
        }
        return replace(
            result,
            score=score,
            verdict=said,
            reasons=(*result.reasons, reason),
            signals=signals,
        )


def _with_reason(result: SupportResult, reason: str) -> SupportResult:
    return replace(result, reasons=(*result.reasons, reason))


def _describe(exc: Exception) -> str:
    return str(exc) or type(exc).__name__


def _shorten(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
