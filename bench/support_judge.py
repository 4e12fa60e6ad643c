"""What the optional LLM judge tier buys on held-out real-world claims; run by hand.

    python bench/support_judge.py                                  # band and simulated judges
    python bench/support_judge.py --judge local:smollm2 --limit 40   # plus a real judge

On the held-out test split (never trained on) of the real-world attribution sets
(AttributionBench, WiCE, Factcheck-GPT), with the shipped checker (MiniLM layer 3):

* the judge band `[partial - below, supported + above]`: the share of claims inside it
  (each costs one model call) and how often the checker alone is right inside and
  outside it;
* for a sweep of band margins, the macro-F1 that a judge right a share `a` of the time
  would give: a SIMULATION (each judged claim gets the true label with probability `a`,
  mean of 200 draws), not a model, to show where a judge pays off and at what cost in
  calls; the peer is the checker alone;
* with `--judge SPEC`, the real tier (`JudgedSupportChecker` with that model) on the
  first `--limit` claims in the band: the judge's accuracy where it gave a verdict, its
  replies without one, seconds per call, and macro-F1 with and without it there.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from sklearn.metrics import f1_score

from ragcite.config import GateSettings, GenerateSettings
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.eval.datasets import LOADERS, SupportPair, split_of
from ragcite.llm.complete import build_completion
from ragcite.models import SupportVerdict
from ragcite.verify.support import default_support_checker
from ragcite.verify.support.checker import LayeredSupportChecker
from ragcite.verify.support.llm_judge import JUDGE_MAX_TOKENS, JudgedSupportChecker

REAL_WORLD = ("attributionbench", "wice", "factcheck_gpt")
MARGINS = ((0.0, 0.0), (0.05, 0.05), (0.05, 0.15), (0.10, 0.20), (0.15, 0.30))
ACCURACIES = (0.6, 0.7, 0.8, 0.9)


def macro_f1(truth: np.ndarray, predicted: np.ndarray) -> float:
    return float(f1_score(truth, predicted, average="macro"))


def simulated(
    truth: np.ndarray, alone: np.ndarray, band: np.ndarray, accuracy: float, draws: int = 200
) -> float:
    """Mean macro-F1 when each claim in `band` gets the true label with p = `accuracy`."""
    rng = np.random.default_rng(13)
    scores = []
    for _ in range(draws):
        right = rng.random(len(truth)) < accuracy
        judged = np.where(right, truth, ~truth)
        scores.append(macro_f1(truth, np.where(band, judged, alone)))
    return statistics.fmean(scores)


def real_judge(
    spec: str, checker: LayeredSupportChecker, pairs: list[SupportPair], timeout_s: float
) -> None:
    settings = GenerateSettings().model_copy(update={"llm_timeout_s": timeout_s})
    complete = build_completion(spec, settings, max_tokens=JUDGE_MAX_TOKENS)
    judged_checker = JudgedSupportChecker(checker, complete, model_id=spec)
    inner = checker.check_many([(p.claim, p.evidence) for p in pairs])
    start = time.perf_counter()
    judged = judged_checker.check_many([(p.claim, p.evidence) for p in pairs])
    seconds = time.perf_counter() - start
    truth = np.array([p.supported for p in pairs])
    said = [r for r in judged if "llm_judge" in r.signals]
    right = sum(
        (r.verdict is SupportVerdict.SUPPORTED) == p.supported
        for p, r in zip(pairs, judged, strict=True)
        if "llm_judge" in r.signals
    )
    before = np.array([r.verdict is SupportVerdict.SUPPORTED for r in inner])
    after = np.array([r.verdict is SupportVerdict.SUPPORTED for r in judged])
    calls = max(judged_checker.calls, 1)
    print(f"\nreal judge {spec} on {len(pairs)} band claims ({judged_checker.calls} calls):")
    print(f"- replies with a verdict: {len(said)} ({len(said) / calls:.0%})")
    if said:
        print(f"- judge accuracy where it gave one: {right / len(said):.3f}")
    print(f"- checker alone accuracy on these claims: {(before == truth).mean():.3f}")
    print(
        f"- macro-F1 on these claims: checker {macro_f1(truth, before):.3f}, "
        f"with the judge {macro_f1(truth, after):.3f}"
    )
    print(f"- {seconds / calls:.2f} s per call on this machine")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", help="an LLM spec, e.g. local:smollm2 or openai:gpt-4o-mini")
    parser.add_argument("--limit", type=int, default=40, help="band claims put to --judge")
    args = parser.parse_args()
    pairs = [p for name in REAL_WORLD for p in LOADERS[name]() if split_of(p) == "test"]
    checker = default_support_checker(MiniLMEmbedder())
    assert isinstance(checker, LayeredSupportChecker)
    results = checker.check_many([(p.claim, p.evidence) for p in pairs])
    truth = np.array([p.supported for p in pairs])
    scores = np.array([r.score for r in results])
    alone = np.array([r.verdict is SupportVerdict.SUPPORTED for r in results])
    contradicted = np.array([r.verdict is SupportVerdict.CONTRADICTED for r in results])
    partial, supported = checker.partial_threshold, checker.supported_threshold
    gate = GateSettings()
    print(
        f"{len(pairs)} held-out real-world claims; checker alone macro-F1 "
        f"{macro_f1(truth, alone):.3f}, accuracy {(alone == truth).mean():.3f}"
    )
    header = "| band margins (below, above) | band | claims in band | checker right in / out |"
    print("\n" + header + "".join(f" judge right {a:.0%} |" for a in ACCURACIES))
    print("|---|---|---:|---|" + "---:|" * len(ACCURACIES))
    for below, above in MARGINS:
        low, high = max(0.0, partial - below), min(1.0, supported + above)
        band = (scores >= low) & (scores <= high) & ~contradicted
        marker = (
            " (default)"
            if (below, above) == (gate.support_judge_below, gate.support_judge_above)
            else ""
        )
        cells = "".join(f" {simulated(truth, alone, band, a):.3f} |" for a in ACCURACIES)
        print(
            f"| {below:.2f}, {above:.2f}{marker} | {low:.2f}-{high:.2f} | {band.mean():.0%} "
            f"| {(alone == truth)[band].mean():.2f} / {(alone == truth)[~band].mean():.2f} |"
            + cells
        )
    low = max(0.0, partial - gate.support_judge_below)
    high = min(1.0, supported + gate.support_judge_above)
    band = (scores >= low) & (scores <= high) & ~contradicted
    print("\nper data set, default band:")
    for name in REAL_WORLD:
        mine = np.array([p.source == name for p in pairs])
        cells = ", ".join(
            f"judge right {a:.0%} {simulated(truth[mine], alone[mine], band[mine], a):.3f}"
            for a in ACCURACIES
        )
        print(
            f"- {name} ({mine.sum()}): {band[mine].mean():.0%} in band; checker alone "
            f"{macro_f1(truth[mine], alone[mine]):.3f}; {cells}"
        )
    if args.judge:
        in_band = [
            p
            for p, s, c in zip(pairs, scores, contradicted, strict=True)
            if low <= s <= high and not c
        ][: args.limit]
        real_judge(args.judge, checker, in_band, gate.support_judge_timeout_s)


if __name__ == "__main__":
    main()
