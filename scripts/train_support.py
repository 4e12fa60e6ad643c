"""Rebuild the support checker's learned model and its model card, reproducibly.

    python scripts/train_support.py            # features cached under /tmp, seed 13

Reads the shared data sets (../shared/datasets), splits them by group (train 60 /
validation 20 / test 20), computes every layer's signals with the real embedder, fits
the learned layer on train, calibrates it and picks verdict thresholds on validation,
and reports everything on the held-out test split. Writes
src/ragcite/verify/support/assets/support_model.json and docs/models/support-checker.md.
Training-time dependency: scikit-learn (inference needs NumPy only).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.embed.static import StaticEmbedder
from ragcite.eval.datasets import LOADERS, SupportPair, split_of
from ragcite.learn.trees import tree_to_dict
from ragcite.models import SupportVerdict
from ragcite.verify.support.checker import LayeredSupportChecker, SemanticLayer
from ragcite.verify.support.hard_checks import SIGNAL_NAMES as HARD
from ragcite.verify.support.learned import SupportModel
from ragcite.verify.support.lexical import SIGNAL_NAMES as LEXICAL
from ragcite.verify.support.lexical import clear_caches
from ragcite.verify.support.semantic import SIGNAL_NAMES as SEMANTIC

ROOT = Path(__file__).resolve().parents[1]
MODEL_PATH = ROOT / "src/ragcite/verify/support/assets/support_model.json"
CARD_PATH = ROOT / "docs/models/support-checker.md"
HAND_PAIRS = ROOT / "tests/data/support_pairs.jsonl"
SMOOTHING = 7  # neighbouring cuts averaged when the shipped SUPPORTED threshold is chosen
PARTIAL_PROBABILITY = 1 / 3  # the lowest calibrated P(supported) still called PARTIAL
SEED = 13
REAL_WORLD = ("attributionbench", "wice", "wice_gold", "factcheck_gpt")
FEATURES = {"semantic": (*HARD, *LEXICAL, *SEMANTIC), "lexical": (*HARD, *LEXICAL)}


def _dummy_model(features: tuple[str, ...]) -> SupportModel:
    """A placeholder model: only used to drive signal extraction."""
    return SupportModel.from_dict(
        {
            "features": list(features),
            "kind": "logistic",
            "params": {"mean": [0.0], "scale": [1.0], "coef": [0.0], "intercept": 0.0},
            "platt": [1.0, 0.0],
            "thresholds": {"supported": 0.5, "partial": 0.3},
        }
    )


def extract(pairs: list[SupportPair], embedder: MiniLMEmbedder, cache: Path) -> dict[str, Any]:
    """Signals for every pair, plus the whole-chunk cosine baseline; cached on disk."""
    if cache.exists():
        loaded = np.load(cache)
        if int(loaded["n"]) == len(pairs):
            return {k: loaded[k] for k in loaded.files}
    checker = LayeredSupportChecker(_dummy_model(FEATURES["semantic"]), embedder=embedder)
    rows: list[dict[str, float]] = []
    start = time.perf_counter()
    batch = 256
    for i in range(0, len(pairs), batch):
        chunk = pairs[i : i + batch]
        signals, _, _ = checker.signals_many([(p.claim, p.evidence) for p in chunk])
        rows.extend(signals)
        if i % (batch * 20) == 0:
            print(f"  signals {i}/{len(pairs)} {time.perf_counter() - start:.0f}s", flush=True)
    signal_seconds = time.perf_counter() - start
    # Baseline: cosine of the claim with each whole chunk (truncated by the embedder), max.
    cosine = np.zeros(len(pairs))
    need = [i for i, p in enumerate(pairs) if split_of(p) != "train"]
    texts = list(dict.fromkeys(t for i in need for t in (pairs[i].claim, *pairs[i].evidence)))
    print(f"  baseline cosine over {len(texts)} texts", flush=True)
    short = MiniLMEmbedder(max_tokens=128)
    vectors = short.embed(texts)
    index = {t: j for j, t in enumerate(texts)}
    for i in need:
        claim = vectors[index[pairs[i].claim]]
        cosine[i] = max(float(vectors[index[e]] @ claim) for e in pairs[i].evidence)
    names = FEATURES["semantic"]
    data = {
        "x": np.array([[r[f] for f in names] for r in rows]),
        "cosine": cosine,
        "n": np.array(len(pairs)),
        "signal_seconds": np.array(signal_seconds),
    }
    np.savez(cache, **data)  # type: ignore[arg-type]
    return data


def static_semantic(pairs: list[SupportPair], x: np.ndarray) -> tuple[np.ndarray, float]:
    """`x` with its semantic signals recomputed by the static (lookup-table) embedder."""
    checker = LayeredSupportChecker(_dummy_model(FEATURES["semantic"]), embedder=StaticEmbedder())
    start = time.perf_counter()
    signals, _, _ = checker.signals_many([(p.claim, p.evidence) for p in pairs])
    seconds = time.perf_counter() - start
    out = x.copy()
    for j, name in enumerate(FEATURES["semantic"]):
        if name in SEMANTIC:
            out[:, j] = [s[name] for s in signals]
    return out, seconds


@dataclass(frozen=True)
class Splits:
    """The pairs with their labels, data sets and group-wise splits, as arrays."""

    pairs: list[SupportPair]
    y: np.ndarray
    sources: np.ndarray
    split: np.ndarray

    @property
    def tr(self) -> np.ndarray:
        return np.asarray(self.split == "train")

    @property
    def va(self) -> np.ndarray:
        return np.asarray(self.split == "validation")

    @property
    def te(self) -> np.ndarray:
        return np.asarray(self.split == "test")


def load_splits(cap: int = 2000, pairs: list[SupportPair] | None = None) -> Splits:
    """Every shared data set's pairs (or `pairs`), about `cap` per data set, as `Splits`."""
    if pairs is None:
        pairs = [p for name in LOADERS for p in LOADERS[name]()]
    pairs = cap_per_source(pairs, cap)
    return Splits(
        pairs=pairs,
        y=np.array([p.supported for p in pairs], dtype=int),
        sources=np.array([p.source for p in pairs]),
        split=np.array([split_of(p) for p in pairs]),
    )


def cap_per_source(pairs: list[SupportPair], cap: int) -> list[SupportPair]:
    """A deterministic, group-wise sample of about `cap` pairs per data set."""
    counts: dict[str, int] = defaultdict(int)
    for p in pairs:
        counts[p.source] += 1
    kept = []
    for p in pairs:
        share = min(1.0, cap / counts[p.source])
        digest = hashlib.sha256(f"cap:{SEED}:{p.group}".encode()).digest()
        if int.from_bytes(digest[:8], "big") / 2**64 < share:
            kept.append(p)
    return kept


def ece(y: np.ndarray, p: np.ndarray, bins: int = 10) -> float:
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in itertools.pairwise(edges):
        mask = (p >= lo) & (p < hi) if hi < 1 else (p >= lo) & (p <= hi)
        if mask.any():
            total += mask.mean() * abs(y[mask].mean() - p[mask].mean())
    return total


def platt(margin: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    lr = LogisticRegression(C=1e4).fit(margin.reshape(-1, 1), y)
    return float(lr.coef_[0, 0]), float(lr.intercept_[0])


def best_threshold(y: np.ndarray, p: np.ndarray, *, smooth: int = 1) -> float:
    """The score cut with the best macro-F1 among 97 quantiles of `p`; with `smooth` > 1,
    the best of the F1 curve averaged over that many neighbouring cuts (the curve is flat
    near its top, and its raw peak moves between retrains on noise)."""
    candidates = np.unique(np.quantile(p, np.linspace(0.02, 0.98, 97)))
    scores = np.array([f1_score(y, p >= t, average="macro") for t in candidates])
    if smooth > 1 and len(scores) > smooth:
        half = smooth // 2
        averaged = np.convolve(scores, np.ones(smooth) / smooth, mode="same")
        return float(candidates[half + int(np.argmax(averaged[half:-half]))])
    return float(candidates[int(np.argmax(scores))])


def group_folds(pairs: list[SupportPair], folds: int = 5) -> np.ndarray:
    """A fold number per pair, by group (a claim or document never spans two folds)."""
    return np.array(
        [int(hashlib.sha256(f"cv:{p.group}".encode()).hexdigest(), 16) % folds for p in pairs]
    )


def out_of_fold(x: np.ndarray, data: Splits, folds: np.ndarray) -> np.ndarray:
    """Logistic margins over train + validation (the test split is left out), each pair
    scored by a model fitted on the other folds, with the shipped weighting."""
    dev = data.tr | data.va
    margins = np.full(len(x), np.nan)
    for fold in np.unique(folds):
        fit, held = dev & (folds != fold), dev & (folds == fold)
        mean, scale = x[fit].mean(axis=0), x[fit].std(axis=0) + 1e-9
        model = LogisticRegression(C=1.0, max_iter=2000)
        model.fit(
            (x[fit] - mean) / scale, data.y[fit], sample_weight=source_weights(data.sources[fit])
        )
        margins[held] = model.decision_function((x[held] - mean) / scale)
    return margins


def cv_summary(y: np.ndarray, score: np.ndarray) -> dict[str, float]:
    """ROC-AUC and the best macro-F1 over thresholds (flattering every method alike)."""
    return {"auc": float(roc_auc_score(y, score)), "best_f1": best_threshold_f1(y, score)}


def best_threshold_f1(y: np.ndarray, p: np.ndarray) -> float:
    return float(f1_score(y, p >= best_threshold(y, p), average="macro"))


def source_weights(sources: np.ndarray) -> np.ndarray:
    """Each data set weighs the same in total, real-world attribution sets double."""
    weights = np.ones(len(sources))
    for source in np.unique(sources):
        mask = sources == source
        weights[mask] = (2.0 if source in REAL_WORLD else 1.0) * 1000 / mask.sum()
    return weights


def fit(kind: str, x: np.ndarray, y: np.ndarray, w: np.ndarray) -> dict[str, Any]:
    """Fit a logistic regression or small gradient-boosted trees; return the JSON form."""
    if kind == "logistic":
        mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
        lr = LogisticRegression(C=1.0, max_iter=2000).fit((x - mean) / scale, y, sample_weight=w)
        return {
            "kind": "logistic",
            "params": {
                "mean": mean.tolist(),
                "scale": scale.tolist(),
                "coef": lr.coef_[0].tolist(),
                "intercept": float(lr.intercept_[0]),
            },
        }
    gbt = GradientBoostingClassifier(
        n_estimators=150, max_depth=3, learning_rate=0.1, subsample=0.8, random_state=SEED
    ).fit(x, y, sample_weight=w)
    init = gbt.init_.predict_proba(x[:1])[0, 1]
    trees = [tree_to_dict(estimator) for estimator in gbt.estimators_[:, 0]]
    return {
        "kind": "gbt",
        "params": {"init": float(np.log(init / (1 - init))), "learning_rate": gbt.learning_rate},
        "trees": trees,
    }


def fit_calibrated(
    kind: str, x: np.ndarray, data: Splits, w: np.ndarray, features: tuple[str, ...] | list[str]
) -> tuple[dict[str, Any], np.ndarray, float]:
    """Fit `kind` on train, Platt-scale on validation: the model's JSON form, P(supported)
    for every pair, and the validation AUC on the real-world sets (the selection score)."""
    spec = fit(kind, x[data.tr], data.y[data.tr], w)
    model = SupportModel.from_dict(
        {
            **spec,
            "features": list(features),
            "platt": [1.0, 0.0],
            "thresholds": {"supported": 0.5, "partial": 0.3},
        }
    )
    margin = model.margin(x)
    a, b = platt(margin[data.va], data.y[data.va])
    p = 1 / (1 + np.exp(-(a * margin + b)))
    real = data.va & np.isin(data.sources, REAL_WORLD)
    score = float(roc_auc_score(data.y[real], p[real]))
    return {**spec, "features": list(features), "platt": [a, b]}, p, score


def metrics(y: np.ndarray, p: np.ndarray, threshold: float) -> dict[str, float]:
    auc = roc_auc_score(y, p) if 0 < y.mean() < 1 else float("nan")
    return {
        "acc": accuracy_score(y, p >= threshold),
        "f1": f1_score(y, p >= threshold, average="macro"),
        "auc": auc,
        "ece": ece(y, p),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/ragcite_support_features.npz"))
    parser.add_argument(
        "--max-per-source",
        type=int,
        default=2000,
        help="keep about this many pairs of each data set (whole groups), to bound CPU time",
    )
    args = parser.parse_args()
    np.random.seed(SEED)
    started = time.perf_counter()

    data_set = load_splits(args.max_per_source)
    pairs, y, sources = data_set.pairs, data_set.y, data_set.sources
    print(f"{len(pairs)} pairs", flush=True)
    embedder = MiniLMEmbedder()
    data = extract(pairs, embedder, args.cache)
    x_all, cosine = data["x"], data["cosine"]
    x_static, static_seconds = static_semantic(pairs, x_all)
    names = FEATURES["semantic"]
    col = {f: i for i, f in enumerate(names)}
    tr, va, te = data_set.tr, data_set.va, data_set.te
    w = source_weights(sources[tr])

    # Each method: a score in [0, 1] per pair (Platt-calibrated on validation).
    methods: dict[str, np.ndarray] = {}
    shipped: dict[str, dict[str, Any]] = {}
    fit_seconds = {}
    layer_sets = {
        "hard checks": (x_all, HARD),
        "lexical": (x_all, LEXICAL),
        "semantic": (x_all, SEMANTIC),
        "semantic (static)": (x_static, SEMANTIC),
        "combined (lexical-only variant)": (x_all, FEATURES["lexical"]),
        "combined (static variant)": (x_static, FEATURES["semantic"]),
        "combined": (x_all, FEATURES["semantic"]),
    }
    for label, (matrix, features) in layer_sets.items():
        x = matrix[:, [col[f] for f in features]]
        best: tuple[float, dict[str, Any], np.ndarray] | None = None
        for kind in ("logistic", "gbt"):
            t0 = time.perf_counter()
            spec, p, score = fit_calibrated(kind, x, data_set, w, features)
            fit_seconds[(label, kind)] = time.perf_counter() - t0
            print(f"  {label:34s} {kind:8s} validation real-world AUC {score:.3f}", flush=True)
            if best is None or score > best[0]:
                best = (score, spec, p)
        assert best is not None
        methods[label] = best[2]
        shipped[label] = best[1]
    for label, raw in (
        ("baseline: overlap", x_all[:, col["lex_overlap"]]),
        ("baseline: cosine", cosine),
    ):
        a, b = platt(raw[va], y[va])
        methods[label] = 1 / (1 + np.exp(-(a * raw + b)))

    # Verdict thresholds for the shipped models, on pooled validation data.
    thresholds: dict[str, dict[str, float]] = {}
    for variant, label in (
        ("semantic", "combined"),
        ("static", "combined (static variant)"),
        ("lexical", "combined (lexical-only variant)"),
    ):
        p = methods[label]
        t_hi = best_threshold(y[va], p[va], smooth=SMOOTHING)
        # PARTIAL: below t_hi, but still a calibrated 1-in-3 chance of being supported. (A
        # band chosen where 1 in 3 validation pairs are supported flipped on noise: its
        # share hovers at 0.31-0.33 over the whole range.)
        thresholds[variant] = {"supported": t_hi, "partial": min(PARTIAL_PROBABILITY, t_hi)}
        shipped[label]["thresholds"] = thresholds[variant]
    MODEL_PATH.write_text(
        json.dumps(
            {
                "about": "ragcite support checker, built by scripts/train_support.py (seed 13)",
                "models": {
                    "semantic": shipped["combined"],
                    "static": shipped["combined (static variant)"],
                    "lexical": shipped["combined (lexical-only variant)"],
                },
            },
            separators=(",", ":"),
        ),
        encoding="utf-8",
    )

    # Held-out table: per data set, threshold tuned on that set's validation split.
    table: dict[str, dict[str, dict[str, float]]] = defaultdict(dict)
    groups = {s: sources == s for s in np.unique(sources)}
    groups["real-world pooled (AttributionBench, WiCE, Factcheck-GPT)"] = np.isin(
        sources, REAL_WORLD
    )
    groups["all pooled"] = np.ones(len(pairs), dtype=bool)
    for group, mask in groups.items():
        for label, p in methods.items():
            t = best_threshold(y[va & mask], p[va & mask])
            table[group][label] = metrics(y[te & mask], p[te & mask], t)
    report = {
        "table": table,
        "counts": {g: int((te & m).sum()) for g, m in groups.items()},
        "train_counts": {g: int((tr & m).sum()) for g, m in groups.items()},
        "kinds": {label: shipped[label]["kind"] for label in layer_sets},
        "thresholds": thresholds,
        "signal_seconds": float(data["signal_seconds"]),
        "static_signal_seconds": static_seconds,
        "fit_seconds": {f"{k[0]} / {k[1]}": v for k, v in fit_seconds.items()},
        "total_seconds": time.perf_counter() - started,
        "n_pairs": len(pairs),
    }
    report["targets"] = targets(pairs, te, embedder)
    folds = group_folds(pairs)
    semantic_cols = [col[f] for f in FEATURES["semantic"]]
    cv_scores = {
        "combined": out_of_fold(x_all[:, semantic_cols], data_set, folds),
        "combined (static variant)": out_of_fold(x_static[:, semantic_cols], data_set, folds),
        "combined (lexical-only variant)": out_of_fold(
            x_all[:, [col[f] for f in FEATURES["lexical"]]], data_set, folds
        ),
        "baseline: overlap": x_all[:, col["lex_overlap"]],  # unfitted: its raw score
    }
    dev = tr | va
    cv_groups = {
        "AttributionBench": dev & (sources == "attributionbench"),
        "real-world pooled": dev & np.isin(sources, REAL_WORLD),
    }
    report["cross_validation"] = {
        label: {g: cv_summary(y[m], score[m]) for g, m in cv_groups.items()}
        for label, score in cv_scores.items()
    }
    report["cv_counts"] = {g: int(m.sum()) for g, m in cv_groups.items()}
    Path("/tmp/ragcite_support_report.json").write_text(json.dumps(report, indent=1, default=float))
    write_card(report)
    print(json.dumps(report["targets"], indent=1))


def targets(pairs: list[SupportPair], test: np.ndarray, embedder: MiniLMEmbedder) -> dict[str, Any]:
    """The issue's targets with the shipped checker and its own thresholds."""
    from ragcite.verify.support import default_support_checker

    checker = default_support_checker(embedder)
    out: dict[str, Any] = {}
    rgb_wrong = [
        p for p, t in zip(pairs, test, strict=True) if t and p.source == "rgb" and p.contradicted
    ]
    rgb_all_wrong = [p for p in pairs if p.source == "rgb" and p.contradicted]
    for label, subset in (
        ("rgb_positive_wrong_test", rgb_wrong),
        ("rgb_positive_wrong_all", rgb_all_wrong),
    ):
        results = checker.check_many([(p.claim, p.evidence) for p in subset])
        rejected = sum(r.verdict is not SupportVerdict.SUPPORTED for r in results)
        contradicted = sum(r.verdict is SupportVerdict.CONTRADICTED for r in results)
        out[label] = {
            "n": len(subset),
            "rejected": rejected / len(subset),
            "contradicted": contradicted / len(subset),
        }
    rgb_pos = [
        p for p, t in zip(pairs, test, strict=True) if t and p.source == "rgb" and p.supported
    ]
    results = checker.check_many([(p.claim, p.evidence) for p in rgb_pos])
    out["rgb_positive_test_accepted"] = sum(
        r.verdict is SupportVerdict.SUPPORTED for r in results
    ) / len(rgb_pos)
    static = default_support_checker(semantic="static")
    for source in ("attributionbench", "factcheck_gpt", "wice"):
        subset = [p for p, t in zip(pairs, test, strict=True) if t and p.source == source]
        y = [p.supported for p in subset]
        for suffix, variant in (("", checker), ("_static", static)):
            results = variant.check_many([(p.claim, p.evidence) for p in subset])
            pred = [r.verdict is SupportVerdict.SUPPORTED for r in results]
            out[f"shipped{suffix}_f1_{source}"] = f1_score(y, pred, average="macro")
    hand = [json.loads(line) for line in HAND_PAIRS.read_text().splitlines() if line.strip()]
    results = checker.check_many([(h["claim"], h["evidence"]) for h in hand])
    by_kind: dict[str, list[bool]] = defaultdict(list)
    for h, r in zip(hand, results, strict=True):
        by_kind[h["kind"]].append(r.verdict.value in h["expected"])
    out["hand_written"] = {k: f"{sum(v)}/{len(v)}" for k, v in by_kind.items()}
    # Throughput of layers 1-3 (signals only) and of the whole checker, on fresh text.
    sample = [(p.claim, p.evidence) for p in pairs if p.source in REAL_WORLD][:1000]
    layers: tuple[tuple[str, SemanticLayer], ...] = (
        ("with embedder", "minilm"),
        ("static embedder", "static"),
        ("without embedder", "none"),
    )
    for label, layer in layers:
        fresh = default_support_checker(MiniLMEmbedder(), semantic=layer)
        fresh.check_many(sample[:8])
        clear_caches()  # fresh text: no sentence analyses left from the runs above
        t0 = time.perf_counter()
        fresh.check_many(sample)
        out[f"claims_per_s_{label}"] = len(sample) / (time.perf_counter() - t0)
    return out


SOURCE_NOTES = {
    "attributionbench": "AttributionBench dev (research use, no upstream license file)",
    "wice": "WiCE oracle chunks (ODC-BY 1.0 annotations; Wikipedia CC BY-SA; Common Crawl)",
    "wice_gold": "WiCE claims vs their gold supporting sentences (as above)",
    "factcheck_gpt": "Factcheck-GPT subtask 3 (Apache-2.0)",
    "summedits": "SummEdits, 8 domains (Apache-2.0)",
    "healthver": "HealthVer dev + test (no license stated: research use)",
    "anli": "ANLI R1-R3 dev (CC BY-NC 4.0, non-commercial)",
    "climate_fever": "Climate-FEVER (no license stated; Wikipedia CC BY-SA)",
    "rgb": "RGB en_fact (CC BY-NC-SA 4.0, non-commercial)",
    "halueval": "HaluEval QA, first 3,000 items (MIT)",
    "halueval_swap": "entity / number swaps built from HaluEval passages (MIT)",
}


def render_card(report: dict[str, Any]) -> str:
    """The model card, from the training report."""
    t = report["targets"]
    lines = [
        "# Support checker (`ragcite.verify.support`)",
        "",
        "Decides whether cited evidence supports a claim: a calibrated P(supported) and a",
        "verdict (supported / partial / unsupported / contradicted) with reasons.",
        "Rebuilt by `python scripts/train_support.py` (seed 13; training needs scikit-learn,",
        "inference needs NumPy only, plus onnxruntime for the embedder).",
        "",
        "## Recipe",
        "",
        'Citation markers ("[2]", "[doc-4]", "(source 2)", "^1") are removed from the claim',
        "first (`ragcite.verify.markers`): they are not part of what it says.",
        "",
        "1. **Hard checks** — numbers (digits, separators, scales, %, number words) in the",
        "   claim must be in the evidence; a different number of the same kind in the aligned",
        "   sentence is a conflict; negation polarity of claim vs aligned sentence; capitalised",
        "   names of the claim must be in the evidence (another name in the aligned sentence is",
        "   a conflict).",
        "2. **Lexical** — share of the claim's content words (stopwords out, light stemming,",
        "   irregular forms mapped) in the whole evidence (the *overlap* baseline), in the best",
        "   single sentence, in the best greedy set of up to 3 sentences across all chunks;",
        "   content-bigram coverage.",
        "3. **Semantic** — cosine of the claim with its 2 lexically best sentences: MiniLM",
        "   (int8) by default; or the *static* embedder (`ragcite.embed.static`: MiniLM's",
        "   word pieces each embedded alone, PCA 256, SIF-weighted, averaged; built by",
        "   `scripts/build_static_embedder.py`), which needs no transformer at check time.",
        "4. **Learned** — logistic regression or gradient-boosted trees (chosen per variant by",
        "   validation AUC on real-world sets) over those signals, Platt-scaled on validation;",
        "   SUPPORTED at or above the threshold maximising pooled validation macro-F1 (averaged",
        "   over 7 neighbouring cuts: the curve is flat near its top, its peak moves on noise);",
        "   PARTIAL below it down to a calibrated P(supported) of 1/3; UNSUPPORTED under that.",
        "   CONTRADICTED when below SUPPORTED and the hard checks find a conflicting number,",
        "   negation or name in a sentence holding at least half of the claim's content words.",
        "",
        f"Shipped: `semantic` variant (MiniLM, the default) = {report['kinds']['combined']}, "
        f"thresholds {_fmt_thresholds(report['thresholds']['semantic'])}; `static` variant = "
        f"{report['kinds']['combined (static variant)']}, thresholds "
        f"{_fmt_thresholds(report['thresholds']['static'])}; `lexical` variant (no embedder) = "
        f"{report['kinds']['combined (lexical-only variant)']}, thresholds "
        f"{_fmt_thresholds(report['thresholds']['lexical'])}.",
        "",
        "No cross-encoder is part of it: one fine-tuned on these pairs for 43 minutes on the CPU",
        "(`scripts/train_support_crossencoder.py`) lowered held-out AttributionBench macro-F1",
        "when stacked; see `support-checker-experiments.md`.",
        "",
        "## Data",
        "",
        f"{report['n_pairs']} claim-evidence pairs from `../shared/datasets/` (each data set",
        "sampled to about 2,000 pairs, whole groups, to bound CPU time), split by group (claim,",
        "document or id; never by row) 60 / 20 / 20 into train / validation / test.",
        "Training weights each data set equally in total, real-world attribution sets double.",
        "",
        "| source | license | train | test |",
        "|---|---|---|---|",
    ]
    for source, note in SOURCE_NOTES.items():
        lines.append(
            f"| {source} | {note} | {report['train_counts'].get(source, 0)} "
            f"| {report['counts'].get(source, 0)} |"
        )
    lines += [
        "",
        "The embedder is all-MiniLM-L6-v2 (Apache-2.0). Because ANLI and RGB are CC BY-NC and",
        "several sets are research-use only, **the shipped model is trained partly on",
        "non-commercial / research-use data**; check this lineage before commercial use.",
        "",
        "## Held-out results (test split)",
        "",
        "Each cell: accuracy / macro-F1 / ROC-AUC / ECE. Every method's score is Platt-scaled",
        "on validation; its decision threshold is tuned on the *same data set's* validation",
        "split (so the baselines are measured exactly like the checker). Baselines: *overlap* =",
        "content-word overlap of claim and whole evidence; *cosine* = MiniLM cosine of claim",
        "and whole chunk. `halueval_swap` holds only negatives (accuracy = share rejected;",
        "AUC undefined). Per-data-set thresholds flatter every method alike; the shipped",
        "single-threshold figures are under Targets.",
        "",
    ]
    methods = list(next(iter(report["table"].values())))
    lines.append("| data set (test n) | " + " | ".join(methods) + " |")
    lines.append("|---" * (len(methods) + 1) + "|")
    for group, row in report["table"].items():
        cells = [
            f"{m['acc']:.2f} / **{m['f1']:.2f}** / {m['auc']:.2f} / {m['ece']:.2f}"
            for m in row.values()
        ]
        lines.append(f"| {group} ({report['counts'][group]}) | " + " | ".join(cells) + " |")
    ab = report["table"]["attributionbench"]
    paraphrases = _ratio(t["hand_written"]["paraphrase"])
    rgb_test, rgb_all = t["rgb_positive_wrong_test"], t["rgb_positive_wrong_all"]
    lines += [
        "",
        "## Targets (issue 6)",
        "",
        f"- AttributionBench held-out macro-F1 >= 0.75: **{ab['combined']['f1']:.3f}** "
        f"({_met(ab['combined']['f1'] >= 0.75)}); overlap baseline "
        f"{ab['baseline: overlap']['f1']:.3f}, margin "
        f"{100 * (ab['combined']['f1'] - ab['baseline: overlap']['f1']):+.1f} points "
        f"({_met(ab['combined']['f1'] - ab['baseline: overlap']['f1'] >= 0.05)} for >= 5).",
        "- The test split holds 251 AttributionBench pairs, so its macro-F1 moves by a few"
        " points on noise. Cross-validated instead (5 group folds over train + validation,"
        f" {report['cv_counts']['AttributionBench']:,} AttributionBench and"
        f" {report['cv_counts']['real-world pooled']:,} real-world pairs; logistic as shipped;"
        " ROC-AUC / best-threshold macro-F1, which flatters every method alike): "
        + "; ".join(
            f"{label} "
            + ", ".join(f"{g} {v['auc']:.3f} / {v['best_f1']:.3f}" for g, v in per_group.items())
            for label, per_group in report["cross_validation"].items()
        )
        + ".",
        f"- RGB `positive_wrong` rejected >= 90% (shipped verdicts): test split "
        f"**{rgb_test['rejected']:.0%}** of {rgb_test['n']} ({_met(rgb_test['rejected'] >= 0.9)}),"
        f" all 100 items {rgb_all['rejected']:.0%} of {rgb_all['n']} (of which "
        f"{rgb_all['contradicted']:.0%} CONTRADICTED); RGB `positive` accepted on test "
        f"{t['rgb_positive_test_accepted']:.0%}.",
        "- With the shipped verdicts (one pooled threshold, hard-check overrides) instead of a"
        " per-data-set threshold, held-out macro-F1 is "
        + ", ".join(
            f"{k.removeprefix('shipped_f1_')} {v:.3f}"
            for k, v in t.items()
            if k.startswith("shipped_f1_")
        )
        + " (static variant: "
        + ", ".join(
            f"{k.removeprefix('shipped_static_f1_')} {v:.3f}"
            for k, v in t.items()
            if k.startswith("shipped_static_f1_")
        )
        + ").",
        "- Hand-written pairs (`tests/data/support_pairs.jsonl`), right verdict per kind: "
        + ", ".join(f"{k} {v}" for k, v in t["hand_written"].items())
        + f" (paraphrases accepted >= 90%: {_met(paraphrases >= 0.9)}).",
        "",
        "## Cost",
        "",
        f"- Throughput on this 2-core machine, 1,000 real-world pairs, fresh caches: "
        f"{t['claims_per_s_with embedder']:.0f} claims/s with MiniLM (layers 1-4), "
        f"{t['claims_per_s_static embedder']:.0f} claims/s with the static embedder as layer 3, "
        f"{t['claims_per_s_without embedder']:.0f} claims/s without layer 3.",
        f"- Signal extraction for all pairs: {report['signal_seconds'] / 60:.1f} min with MiniLM,"
        f" {report['static_signal_seconds']:.0f} s with the static embedder; fitting:"
        f" {sum(report['fit_seconds'].values()):.0f} s (all layer models, both kinds); data loading"
        f" to held-out table {report['total_seconds'] / 60:.1f} min (the machine was shared).",
        "- MiniLM dominates: it embeds roughly 150-370 short texts/s on these 2 cores, and each"
        " fresh claim needs its own vector plus up to 2 sentence vectors, so with MiniLM the"
        " 500 claims/s target is not met on fresh text (inside `ask` too: the reranker's"
        " vectors carry section headings, so the gate embeds its own; about 100 claims/s,"
        " `bench/ingest_ask.py`). The static variant meets it: choose it with"
        ' `gate.support_semantic = "static"` where many fresh claims are checked.',
        "",
    ]
    return "\n".join(lines)


def _fmt_thresholds(t: dict[str, float]) -> str:
    return f"supported >= {t['supported']:.3f}, partial >= {t['partial']:.3f}"


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _ratio(text: str) -> float:
    a, b = text.split("/")
    return int(a) / int(b)


def write_card(report: dict[str, Any]) -> None:
    CARD_PATH.parent.mkdir(parents=True, exist_ok=True)
    CARD_PATH.write_text(render_card(report), encoding="utf-8")


if __name__ == "__main__":
    main()
