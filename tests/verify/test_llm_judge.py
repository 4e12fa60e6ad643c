"""The support checker's optional LLM tier: band, verdict and score rules, failures."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ragcite.errors import ConfigError, GenerationError
from ragcite.llm.complete import build_completion
from ragcite.models import SupportVerdict
from ragcite.verify.support import (
    JudgedSupportChecker,
    LayeredSupportChecker,
    SupportResult,
    default_support_checker,
)
from ragcite.verify.support.judge_prompt import JUDGE_PROMPT, judge_prompt, parse_judge_reply

SUPPORTED, PARTIAL = 0.5, 0.3  # the fake checker's thresholds: band [0.25, 0.65]


class FixedChecker:
    """A checker whose score is the claim's text ("0.45") and verdict follows it."""

    def check(self, claim: str, evidence: list[str]) -> SupportResult:
        return self.check_many([(claim, evidence)])[0]

    def check_many(self, pairs: list[tuple[str, list[str]]]) -> list[SupportResult]:
        return [self._result(claim) for claim, _ in pairs]

    @staticmethod
    def _result(claim: str) -> SupportResult:
        text, _, hard = claim.partition(" ")
        score = float(text)
        if hard == "contradicted":
            verdict = SupportVerdict.CONTRADICTED
        elif score >= SUPPORTED:
            verdict = SupportVerdict.SUPPORTED
        elif score >= PARTIAL:
            verdict = SupportVerdict.PARTIAL
        else:
            verdict = SupportVerdict.UNSUPPORTED
        return SupportResult(
            score=score,
            verdict=verdict,
            reasons=("inner reason",),
            best_evidence="The aligned sentence.",
            signals={"lex_best_sentence": 0.5},
        )


class ScriptedModel:
    """A `complete` function that replies with a script and records its prompts."""

    def __init__(self, reply: str | Exception) -> None:
        self.reply = reply
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if isinstance(self.reply, Exception):
            raise self.reply
        return self.reply


def judged(complete: Callable[[str], str], **band: float) -> JudgedSupportChecker:
    return JudgedSupportChecker(
        FixedChecker(),
        complete,
        model_id="scripted",
        supported_threshold=SUPPORTED,
        partial_threshold=PARTIAL,
        **band,
    )


def test_only_borderline_pairs_reach_the_judge() -> None:
    model = ScriptedModel("SUPPORTED")
    checker = judged(model)
    assert checker.band == pytest.approx((0.25, 0.65))
    claims = ["0.1", "0.24", "0.25", "0.4", "0.65", "0.66", "0.9"]
    results = checker.check_many([(c, ["evidence"]) for c in claims])
    assert checker.calls == len(model.prompts) == 3
    assert [p.split("Claim: ")[1].split("\n")[0] for p in model.prompts] == ["0.25", "0.4", "0.65"]
    inner = FixedChecker().check_many([(c, ["evidence"]) for c in claims])
    for i in (0, 1, 5, 6):  # outside the band: untouched
        assert results[i] == inner[i]


def test_band_margins_are_configurable() -> None:
    model = ScriptedModel("SUPPORTED")
    checker = judged(model, below=0.0, above=0.0)
    checker.check_many([(c, ["e"]) for c in ["0.29", "0.3", "0.5", "0.51"]])
    assert checker.calls == 2
    with pytest.raises(ValueError, match="margins"):
        judged(model, below=-0.1)


def test_a_supported_reply_makes_a_partial_claim_supported() -> None:
    result = judged(ScriptedModel("SUPPORTED")).check("0.4", ["e"])
    assert result.verdict is SupportVerdict.SUPPORTED
    assert result.score == SUPPORTED
    assert result.reasons == (
        "inner reason",
        "LLM judge (scripted) said supported (the support score alone said partial)",
    )
    assert result.signals["llm_judge"] == 1.0
    assert result.signals["llm_judge_prior_score"] == 0.4
    assert result.signals["lex_best_sentence"] == 0.5  # the inner signals stay


def test_a_not_supported_reply_makes_a_supported_claim_unsupported() -> None:
    result = judged(ScriptedModel("Answer: NOT_SUPPORTED.")).check("0.6", ["e"])
    assert result.verdict is SupportVerdict.UNSUPPORTED
    assert result.score == pytest.approx(PARTIAL - 0.01)
    assert result.reasons[-1].startswith("LLM judge (scripted) said not supported")
    assert result.signals["llm_judge"] == 0.0


def test_an_agreeing_judge_keeps_the_score_and_says_so() -> None:
    result = judged(ScriptedModel("supported")).check("0.6", ["e"])
    assert (result.verdict, result.score) == (SupportVerdict.SUPPORTED, 0.6)
    assert result.reasons[-1] == "LLM judge (scripted) said supported"


def test_a_contradicted_reply_is_a_contradiction() -> None:
    result = judged(ScriptedModel("CONTRADICTED")).check("0.45", ["e"])
    assert result.verdict is SupportVerdict.CONTRADICTED
    assert result.score < PARTIAL
    assert result.signals["llm_judge"] == -1.0


def test_hard_check_contradictions_are_never_put_to_the_judge() -> None:
    model = ScriptedModel("SUPPORTED")
    checker = judged(model)
    result = checker.check("0.3 contradicted", ["e"])
    assert checker.calls == 0
    assert result.verdict is SupportVerdict.CONTRADICTED


@pytest.mark.parametrize("reply", ["", "I think so.", "yes", "The claim is about backups."])
def test_a_reply_without_a_verdict_keeps_the_inner_result(reply: str) -> None:
    result = judged(ScriptedModel(reply)).check("0.4", ["e"])
    assert (result.verdict, result.score) == (SupportVerdict.PARTIAL, 0.4)
    assert result.reasons[-1].startswith("LLM judge unavailable: no verdict in its reply")
    assert "llm_judge" not in result.signals


@pytest.mark.parametrize(
    "error", [GenerationError("no answer within the timeout"), TimeoutError(), RuntimeError("x")]
)
def test_a_failing_model_keeps_the_inner_result_and_is_asked_again(error: Exception) -> None:
    model = ScriptedModel(error)
    checker = judged(model)
    first, second = checker.check_many([("0.4", ["e"]), ("0.6", ["e"])])
    assert (first.verdict, second.verdict) == (SupportVerdict.PARTIAL, SupportVerdict.SUPPORTED)
    assert first.reasons[-1].startswith("LLM judge unavailable: ")
    assert first.reasons[-1] != "LLM judge unavailable: "
    assert checker.calls == 2  # a passing failure: the next claim tries again


def test_a_configuration_error_switches_the_judge_off() -> None:
    model = ScriptedModel(ConfigError("no API key: set the OPENAI_API_KEY environment variable"))
    checker = judged(model)
    results = checker.check_many([("0.4", ["e"]), ("0.6", ["e"])])
    results.append(checker.check("0.5", ["e"]))
    assert checker.calls == 1
    assert all("OPENAI_API_KEY" in r.reasons[-1] for r in results)
    assert [r.verdict for r in results] == [
        SupportVerdict.PARTIAL,
        SupportVerdict.SUPPORTED,
        SupportVerdict.SUPPORTED,
    ]


def test_the_prompt_is_the_one_judge_prompt_with_evidence_cut_to_size() -> None:
    model = ScriptedModel("SUPPORTED")
    checker = JudgedSupportChecker(
        FixedChecker(),
        model,
        model_id="scripted",
        supported_threshold=SUPPORTED,
        partial_threshold=PARTIAL,
        max_evidence_chars=500,
    )
    long_text = "Filler words go here. " * 200
    checker.check("0.4", [long_text, long_text + "The aligned sentence."])
    (prompt,) = model.prompts
    assert prompt.startswith(JUDGE_PROMPT.split("{evidence}")[0])
    evidence = prompt.split("Evidence:\n")[1].split("\n\nClaim:")[0]
    assert len(evidence) <= 500
    assert evidence.endswith("The aligned sentence.")  # the best-aligned sentence is kept


def test_judge_prompt_keeps_short_evidence_whole() -> None:
    prompt = judge_prompt("Backups last 35 days.", ["Backups are kept 35 days.", "Other."])
    assert (
        "Evidence:\nBackups are kept 35 days.\n\nOther.\n\nClaim: Backups last 35 days." in prompt
    )


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("SUPPORTED", SupportVerdict.SUPPORTED),
        ("supported.", SupportVerdict.SUPPORTED),
        ("**Supported** - the evidence says so", SupportVerdict.SUPPORTED),
        ("NOT_SUPPORTED", SupportVerdict.UNSUPPORTED),
        ("not supported", SupportVerdict.UNSUPPORTED),
        ("Not fully supported.", SupportVerdict.UNSUPPORTED),
        ("UNSUPPORTED", SupportVerdict.UNSUPPORTED),
        ("The evidence does not support the claim.", SupportVerdict.UNSUPPORTED),
        ("CONTRADICTED", SupportVerdict.CONTRADICTED),
        ("The evidence contradicts it.", SupportVerdict.CONTRADICTED),
        ("Supported; nothing is contradicted.", SupportVerdict.SUPPORTED),
        ("I cannot tell.", None),
    ],
)
def test_replies_are_read_leniently(reply: str, verdict: SupportVerdict | None) -> None:
    assert parse_judge_reply(reply) is verdict


def test_thresholds_come_from_the_layered_checkers_model() -> None:
    inner = default_support_checker()  # lexical: no embedder needed
    assert isinstance(inner, LayeredSupportChecker)
    checker = JudgedSupportChecker(inner, ScriptedModel("SUPPORTED"), model_id="m")
    assert checker.supported_threshold == inner.supported_threshold
    assert checker.band[0] == pytest.approx(max(0.0, inner.partial_threshold - 0.05))
    with pytest.raises(ValueError, match="supported_threshold"):
        JudgedSupportChecker(FixedChecker(), ScriptedModel("x"), model_id="m")


def test_a_real_llama_cpp_judge_is_called_for_a_borderline_pair(llama_server_url: str) -> None:
    """The plumbing against SmolLM2 (135M): whatever it says, the result is a valid one."""
    complete = build_completion(f"openai-compatible:{llama_server_url}/v1#smollm2", max_tokens=24)
    checker = JudgedSupportChecker(
        default_support_checker(), complete, model_id="smollm2", below=1.0, above=1.0
    )
    result = checker.check(
        "Backups are kept for 35 days.", ["Full system backups are kept for 35 days."]
    )
    assert checker.calls == 1
    assert isinstance(result, SupportResult)
    assert 0.0 <= result.score <= 1.0
    assert result.verdict in SupportVerdict
    assert result.reasons[-1].startswith(("LLM judge (smollm2) said", "LLM judge unavailable"))
