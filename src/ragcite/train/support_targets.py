"""The support checker's targets, measured with the shipped verdicts (not per-set cuts).

RGB `positive_wrong` rejection, held-out macro-F1 on the real-world sets with one pooled
threshold and the hard-check overrides, the hand-written pairs, and throughput.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.embed.static import StaticEmbedder
from ragcite.eval.datasets import SupportPair
from ragcite.eval.metrics import macro_f1
from ragcite.learn.model import LearnedModel
from ragcite.models import SupportVerdict
from ragcite.train.support_data import REAL_WORLD, Splits
from ragcite.verify.support.checker import LayeredSupportChecker
from ragcite.verify.support.lexical import clear_caches

Checkers = dict[str, LayeredSupportChecker]


def checkers(models: dict[str, LearnedModel], embedder: MiniLMEmbedder) -> Checkers:
    """The three shipped variants as the gate builds them."""
    return {
        "semantic": LayeredSupportChecker(models["semantic"], embedder=embedder),
        "static": LayeredSupportChecker(models["static"], embedder=StaticEmbedder()),
        "lexical": LayeredSupportChecker(models["lexical"]),
    }


def targets(data: Splits, built: Checkers, hand_pairs: Path) -> dict[str, Any]:
    """Every target figure, by name (the model card's Targets and Cost sections)."""
    out: dict[str, Any] = {}
    out.update(_rgb(data, built["semantic"]))
    out.update(_shipped_f1(data, built))
    out["hand_written"] = _hand_written(built["semantic"], hand_pairs)
    out.update(_throughput(data, built))
    return out


def _test_pairs(data: Splits, source: str) -> list[SupportPair]:
    return [p for p, t in zip(data.pairs, data.te, strict=True) if t and p.source == source]


def _verdicts(checker: LayeredSupportChecker, pairs: list[SupportPair]) -> list[SupportVerdict]:
    return [r.verdict for r in checker.check_many([(p.claim, p.evidence) for p in pairs])]


def _rgb(data: Splits, checker: LayeredSupportChecker) -> dict[str, Any]:
    """RGB claims with a wrong answer must not be SUPPORTED; with the right one, should be."""
    out: dict[str, Any] = {}
    subsets = {
        "rgb_positive_wrong_test": [p for p in _test_pairs(data, "rgb") if p.contradicted],
        "rgb_positive_wrong_all": [p for p in data.pairs if p.source == "rgb" and p.contradicted],
    }
    for label, subset in subsets.items():
        verdicts = _verdicts(checker, subset)
        out[label] = {
            "n": len(subset),
            "rejected": sum(v is not SupportVerdict.SUPPORTED for v in verdicts) / len(subset),
            "contradicted": sum(v is SupportVerdict.CONTRADICTED for v in verdicts) / len(subset),
        }
    positives = [p for p in _test_pairs(data, "rgb") if p.supported]
    verdicts = _verdicts(checker, positives)
    out["rgb_positive_test_accepted"] = sum(v is SupportVerdict.SUPPORTED for v in verdicts) / len(
        positives
    )
    return out


def _shipped_f1(data: Splits, built: Checkers) -> dict[str, float]:
    out = {}
    for source in ("attributionbench", "factcheck_gpt", "wice", "extractive"):
        subset = _test_pairs(data, source)
        actual = [p.supported for p in subset]
        for suffix, variant in (("", "semantic"), ("_static", "static")):
            predicted = [v is SupportVerdict.SUPPORTED for v in _verdicts(built[variant], subset)]
            out[f"shipped{suffix}_f1_{source}"] = macro_f1(predicted, actual)
    return out


def _hand_written(checker: LayeredSupportChecker, path: Path) -> dict[str, str]:
    """Right verdicts per kind on the hand-written pairs (tests/data/support_pairs.jsonl)."""
    hand = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    results = checker.check_many([(h["claim"], h["evidence"]) for h in hand])
    by_kind: dict[str, list[bool]] = defaultdict(list)
    for h, r in zip(hand, results, strict=True):
        by_kind[h["kind"]].append(r.verdict.value in h["expected"])
    return {k: f"{sum(v)}/{len(v)}" for k, v in by_kind.items()}


def _throughput(data: Splits, built: Checkers) -> dict[str, float]:
    """Claims per second of each variant on 1,000 fresh real-world pairs."""
    sample = [(p.claim, p.evidence) for p in data.pairs if p.source in REAL_WORLD][:1000]
    out = {}
    for label, variant in (
        ("with embedder", "semantic"),
        ("static embedder", "static"),
        ("without embedder", "lexical"),
    ):
        checker = built[variant]
        if variant == "semantic":  # a fresh embedder: no vectors left from the runs above
            checker = LayeredSupportChecker(checker.model, embedder=MiniLMEmbedder())
        checker.check_many(sample[:8])
        clear_caches()  # fresh text: no sentence analyses left from the runs above
        t0 = time.perf_counter()
        checker.check_many(sample)
        out[f"claims_per_s_{label}"] = len(sample) / (time.perf_counter() - t0)
    return out
