"""Experiment: more lexical signals for the support checker, judged by cross-validation.

    python scripts/experiment_support_lexical.py     # about 1 minute with cached signals

Nine candidate signals join the shipped ones (same pairs, splits, weighting, Platt
scaling and per-data-set validation thresholds as `scripts/train_support.py`):
rarity-weighted coverage (IDF over the train split's evidence chunks), the rarest
missing word, the count of missing words and of rare missing words, coverage of the
words the question does not already hold (AttributionBench carries its question),
5-letter-prefix coverage, the least-covered claim sentence, the longest common token
subsequence with the best sentences, and all-token trigram coverage. Citation markers
such as "[5]" are dropped first. Because one 251-pair test split is noisy, every
variant is also scored by 5-fold group cross-validation over train + validation.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from experiment_support_pairs import GROUPS, combine, held_out
from train_support import (
    REAL_WORLD,
    SEED,
    Splits,
    cv_summary,
    extract,
    group_folds,
    load_splits,
    out_of_fold,
    source_weights,
)

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.eval.datasets import DEFAULT_ROOT, SupportPair
from ragcite.verify.support.text import content_words, split_sentences, stem, words

MARKER = re.compile(r"\[\d+(?:[,\s]+\d+)*\]")
SIGNALS = (
    "idf_coverage",
    "rarest_missing",
    "missing_words",
    "rare_missing_words",
    "answer_word_coverage",
    "prefix_coverage",
    "weakest_sentence_coverage",
    "common_subsequence",
    "trigram_coverage",
)
VARIANTS = {
    "shipped signals": (),
    "+ idf_coverage (validation forward selection's pick)": ("idf_coverage",),
    "+ weakest_sentence_coverage": ("weakest_sentence_coverage",),
    "+ answer_word_coverage": ("answer_word_coverage",),
    "+ all nine": SIGNALS,
}


def _tokens(text: str) -> list[str]:
    return [stem(w.lower()) for w in words(text)]


def _trigrams(tokens: list[str]) -> set[tuple[str, str, str]]:
    return set(zip(tokens, tokens[1:], tokens[2:], strict=False))


def _common_subsequence(a: list[str], b: list[str]) -> int:
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


class CandidateSignals:
    """The nine signals; IDF from the training pairs' evidence chunks."""

    def __init__(self, training: list[SupportPair], questions: dict[str, str]) -> None:
        self.questions = questions
        self.df: Counter[str] = Counter()
        self.chunks = 0
        for pair in training:
            for chunk in pair.evidence:
                self.chunks += 1
                self.df.update(set(content_words(chunk)))

    def idf(self, word: str) -> float:
        return math.log((self.chunks + 1) / (self.df.get(word, 0) + 1))

    def __call__(self, pair: SupportPair) -> list[float]:
        claim = MARKER.sub("", pair.claim)
        claim_words = set(content_words(claim))
        evidence_words = set(content_words(" ".join(pair.evidence)))
        sentences = [s for c in pair.evidence for s in split_sentences(MARKER.sub("", c))][:200]
        out = dict.fromkeys(SIGNALS, 0.0)
        if claim_words:
            missing = [self.idf(w) for w in claim_words - evidence_words]
            total = sum(self.idf(w) for w in claim_words)
            out["idf_coverage"] = 1 - sum(missing) / total if total else 0.0
            out["rarest_missing"] = max(missing, default=0.0) / 10
            out["missing_words"] = math.log1p(len(missing))
            out["rare_missing_words"] = math.log1p(sum(m > 5 for m in missing))
            answer = claim_words - set(content_words(self.questions.get(pair.claim, "")))
            out["answer_word_coverage"] = (
                len(answer & evidence_words) / len(answer) if answer else 1.0
            )
            prefixes = {w[:5] for w in evidence_words}
            out["prefix_coverage"] = sum(
                w in evidence_words or w[:5] in prefixes for w in claim_words
            ) / len(claim_words)
        claim_sentences = [s for s in map(set, map(content_words, split_sentences(claim))) if s]
        out["weakest_sentence_coverage"] = min(
            (len(s & evidence_words) / len(s) for s in claim_sentences), default=0.0
        )
        tokens = _tokens(claim)
        if tokens:
            best = sorted(sentences, key=lambda s: -len(claim_words & set(content_words(s))))[:3]
            out["common_subsequence"] = max(
                (_common_subsequence(tokens, _tokens(s)) / len(tokens) for s in best), default=0.0
            )
            trigrams = _trigrams(tokens)
            seen = set().union(*(_trigrams(_tokens(s)) for s in sentences))
            out["trigram_coverage"] = len(trigrams & seen) / len(trigrams) if trigrams else 0.0
        return [out[name] for name in SIGNALS]


def cross_validated(x: np.ndarray, data: Splits, folds: np.ndarray) -> dict[str, float]:
    """Out-of-fold AUCs (real-world, AttributionBench) and AttributionBench best macro-F1."""
    margins = out_of_fold(x, data, folds)
    real = np.isin(data.sources, REAL_WORLD) & ~np.isnan(margins)
    bench = (data.sources == "attributionbench") & ~np.isnan(margins)
    summary = cv_summary(data.y[bench], margins[bench])
    return {
        "real-world AUC": cv_summary(data.y[real], margins[real])["auc"],
        "AttributionBench AUC": summary["auc"],
        "AttributionBench best macro-F1": summary["best_f1"],
    }


def main() -> None:
    np.random.seed(SEED)
    data = load_splits()
    pairs = data.pairs
    x_base = extract(pairs, MiniLMEmbedder(), Path("/tmp/ragcite_support_features.npz"))["x"]
    bench = DEFAULT_ROOT / "attributionbench" / "dev.jsonl"
    rows = [json.loads(line) for line in bench.read_text().splitlines() if line.strip()]
    signals = CandidateSignals(
        [p for p, train in zip(pairs, data.tr, strict=True) if train],
        {row["claim"]: row["question"] for row in rows},
    )
    x_new = np.array([signals(p) for p in pairs])
    folds = group_folds(pairs)
    weights = source_weights(data.sources[data.tr])
    print(
        "variant | CV real-world AUC | CV AB AUC | CV AB best F1 | val AUC | test F1/AUC: "
        + " | ".join(GROUPS)
    )
    for name, extra in VARIANTS.items():
        x = np.hstack([x_base, x_new[:, [SIGNALS.index(s) for s in extra]]])
        cv = cross_validated(x, data, folds)
        p, kind, auc = combine(x, data, weights)
        test = held_out(p, data.y, data.va, data.te, data.sources)
        print(
            f"{name} ({kind}) | "
            + " | ".join(f"{v:.3f}" for v in cv.values())
            + f" | {auc:.3f} | "
            + " | ".join(f"{test[g]['f1']:.3f}/{test[g]['auc']:.3f}" for g in GROUPS),
            flush=True,
        )


if __name__ == "__main__":
    main()
