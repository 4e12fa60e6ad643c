"""The shipped support checker end to end: real embedder, shipped model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.models import SupportVerdict
from ragcite.verify.support import SupportChecker, SupportResult, default_support_checker

PAIRS = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "data" / "support_pairs.jsonl")
    .read_text()
    .splitlines()
    if line.strip()
]


@pytest.fixture(scope="module", params=["minilm", "static"])
def checker(request: pytest.FixtureRequest) -> SupportChecker:
    """The default checker (MiniLM semantic layer) and the fast static variant."""
    if request.param == "minilm":
        return default_support_checker(MiniLMEmbedder())
    return default_support_checker(semantic="static")


@pytest.fixture(scope="module")
def results(checker: SupportChecker) -> list[SupportResult]:
    return checker.check_many([(p["claim"], p["evidence"]) for p in PAIRS])


@pytest.mark.parametrize("index", range(len(PAIRS)), ids=[p["kind"] for p in PAIRS])
def test_hand_written_pairs(results: list[SupportResult], index: int) -> None:
    pair, result = PAIRS[index], results[index]
    assert result.verdict.value in pair["expected"], (pair["claim"], result)


def test_paraphrases_accepted_at_least_90_percent(results: list[SupportResult]) -> None:
    verdicts = [r.verdict for p, r in zip(PAIRS, results, strict=True) if p["kind"] == "paraphrase"]
    assert sum(v is SupportVerdict.SUPPORTED for v in verdicts) >= 0.9 * len(verdicts)


def test_scores_are_probabilities(results: list[SupportResult]) -> None:
    assert all(0.0 <= r.score <= 1.0 for r in results)
    assert all(r.signals for r in results)


def test_check_many_equals_check(checker: SupportChecker, results: list[SupportResult]) -> None:
    for pair, batched in list(zip(PAIRS, results, strict=True))[::4]:
        single = checker.check(pair["claim"], pair["evidence"])
        assert single.verdict == batched.verdict
        assert single.score == pytest.approx(batched.score, abs=1e-5)
        assert single.best_evidence == batched.best_evidence


def test_wrong_number_names_both_numbers(checker: SupportChecker) -> None:
    result = checker.check("The warranty lasts 7 years.", ["Warranty. The warranty lasts 3 years."])
    assert result.verdict is SupportVerdict.CONTRADICTED
    assert "number 7 in the claim is not in the evidence (evidence says 3)" in result.reasons
    assert result.best_evidence == "The warranty lasts 3 years."


def test_without_embedder_lexical_and_hard_checks_only() -> None:
    lexical = default_support_checker()
    supported = lexical.check(
        "Employees receive 25 days of paid annual leave.",
        ["Every employee is entitled to 25 days of paid annual leave per year."],
    )
    unrelated = lexical.check("The cafeteria serves vegan lunches.", ["Leave is 25 days."])
    assert "sem_max" not in supported.signals
    assert supported.score > unrelated.score
    assert unrelated.verdict is SupportVerdict.UNSUPPORTED


def test_semantic_layer_choice() -> None:
    static = default_support_checker(semantic="static")
    result = static.check("Returns are free.", ["Returning an item costs nothing."])
    assert {"sem_max", "sem_top"} <= set(result.signals)
    with pytest.raises(ValueError, match="needs an embedder"):
        default_support_checker(semantic="minilm")


@pytest.mark.parametrize("marker", [" [2]", " [2][3]", " [doc-4]", "^1", " (source 12)"])
def test_citation_markers_do_not_count_as_numbers(checker: SupportChecker, marker: str) -> None:
    evidence = ["Backup policy. Backups are kept for 35 days in a second region."]
    plain = checker.check("Backups are kept for 35 days.", evidence)
    body, end = "Backups are kept for 35 days", "."
    marked = checker.check(
        body + marker + end if marker.startswith(" ") else body + end + marker, evidence
    )
    assert marked.verdict is plain.verdict is SupportVerdict.SUPPORTED
    assert marked.score == pytest.approx(plain.score)
    assert not any("number" in reason for reason in marked.reasons)


def test_a_rival_name_in_the_next_sentence_is_a_conflict(checker: SupportChecker) -> None:
    result = checker.check(
        "Tadej Pogacar won the 2021 Tour de France.",
        ["The 2021 Tour de France is over. It was won by Egan Bernal of Colombia."],
    )
    assert result.verdict is not SupportVerdict.SUPPORTED
    assert result.signals["hard_entity_conflict"] == 1.0
    assert any("evidence names Egan Bernal" in reason for reason in result.reasons)
