"""Support-checker throughput on fresh text, run by hand (never in the test suite).

    python bench/support_throughput.py            # 1,000 real-world pairs, 3 runs each

Checks real-world claim-evidence pairs from ../shared/datasets (AttributionBench, WiCE,
Factcheck-GPT; the held-out test split first) with each semantic layer, every run on a
fresh checker (no cached vectors), and reports the median claims/s beside the named
peer "content-word overlap alone" (the plain baseline the checker is measured against:
the share of the claim's content words in the evidence, nothing else). The issue's
target is >= 500 claims/s for layers 1-3 on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.eval.datasets import LOADERS, split_of
from ragcite.verify.support import default_support_checker
from ragcite.verify.support.checker import SemanticLayer
from ragcite.verify.support.lexical import clear_caches
from ragcite.verify.support.text import content_words

REAL_WORLD = ("attributionbench", "wice", "factcheck_gpt")
Pairs = list[tuple[str, list[str]]]


def overlap_alone(pairs: Pairs) -> list[float]:
    """The peer: share of the claim's content words found in the evidence."""
    out = []
    for claim, evidence in pairs:
        words = set(content_words(claim))
        found = set(content_words(" ".join(evidence)))
        out.append(len(words & found) / len(words) if words else 0.0)
    return out


def rate(make: Callable[[], Callable[[Pairs], object]], pairs: Pairs, repeats: int) -> float:
    """Median claims/s over `repeats` runs, each of a freshly made (untimed) checker."""
    rates = []
    for _ in range(repeats):
        run = make()
        start = time.perf_counter()
        run(pairs)
        rates.append(len(pairs) / (time.perf_counter() - start))
    return statistics.median(rates)


def fresh_peer() -> Callable[[Pairs], object]:
    clear_caches()
    return overlap_alone


def fresh_checker(layer: SemanticLayer) -> Callable[[], Callable[[Pairs], object]]:
    """Makes a new checker (empty vector cache), models loaded and warmed up on other text."""

    def make() -> Callable[[Pairs], object]:
        checker = default_support_checker(MiniLMEmbedder(), semantic=layer)
        checker.check("Warm-up claim.", ["Warm-up evidence sentence."])
        clear_caches()
        return checker.check_many

    return make


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    every = [p for name in REAL_WORLD for p in LOADERS[name]()]
    every.sort(key=lambda p: split_of(p) != "test")
    pairs = [(p.claim, p.evidence) for p in every[: args.pairs]]
    peer = rate(fresh_peer, pairs, args.repeats)
    rows = {"content-word overlap alone (peer)": peer}
    layers: tuple[tuple[SemanticLayer, str], ...] = (
        ("minilm", "checker, MiniLM layer 3 (default)"),
        ("static", "checker, static layer 3"),
        ("none", "checker, no layer 3"),
    )
    for layer, label in layers:
        rows[label] = rate(fresh_checker(layer), pairs, args.repeats)
    print(f"{len(pairs)} real-world pairs, median of {args.repeats} runs, fresh caches")
    print("| measure | claims/s | ratio to peer | >= 500 claims/s |")
    print("|---|---:|---:|---|")
    for label, value in rows.items():
        target = "" if "peer" in label else ("met" if value >= 500 else "not met")
        print(f"| {label} | {value:,.0f} | {value / peer:.3f} | {target} |")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
