"""Experiment: embedding-pair features for the support checker (not shipped code).

    python scripts/experiment_support_pairs.py            # embeds once, cached in /tmp

Adds ONE learned signal to the support checker's logistic / GBT combination: a small
model (logistic regression or MLP, scikit-learn) over InferSent-style features of frozen
MiniLM vectors, [u, v, |u - v|, u * v] (4 x 384 dims), where u is the claim and v its
lexically best-aligned evidence sentence (or the mean of the best 2). The pair model's
train-split signal is out-of-fold (5 group folds), so the combination is not fitted on
memorised scores; on validation and test it is the model fitted on all of train.

Same pairs, splits, sampling, weighting, Platt scaling and per-data-set threshold tuning
on validation as `scripts/train_support.py`; reports held-out macro-F1 before / after.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_support import (
    FEATURES,
    REAL_WORLD,
    SEED,
    Splits,
    best_threshold,
    extract,
    fit_calibrated,
    load_splits,
    metrics,
    source_weights,
)

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.verify.support.lexical import lexical_support
from ragcite.verify.support.semantic import MAX_CHARS

CACHE = Path("/tmp/ragcite-support-exp")
SHARD = 2000
GROUPS = {
    "attributionbench": ("attributionbench",),
    "factcheck_gpt": ("factcheck_gpt",),
    "wice": ("wice",),
    "rgb": ("rgb",),
    "real-world pooled": REAL_WORLD,
}


def _key(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def embed_cached(texts: list[str]) -> dict[str, np.ndarray]:
    """Vectors by text; embedded once, in shards of 2,000 saved under /tmp."""
    CACHE.mkdir(parents=True, exist_ok=True)
    have: dict[str, np.ndarray] = {}
    for shard in sorted(CACHE.glob("vec-*.npz")):
        loaded = np.load(shard)
        have.update(zip(loaded["keys"].tolist(), loaded["vectors"], strict=True))
    missing = [t for t in dict.fromkeys(texts) if _key(t) not in have]
    print(f"  {len(texts)} texts, {len(missing)} to embed", flush=True)
    embedder = MiniLMEmbedder()
    start = time.perf_counter()
    for i in range(0, len(missing), SHARD):
        chunk = missing[i : i + SHARD]
        vectors = embedder.embed(chunk)
        keys = np.array([_key(t) for t in chunk])
        np.savez(CACHE / f"vec-{time.time_ns()}.npz", keys=keys, vectors=vectors)
        have.update(zip(keys.tolist(), vectors, strict=True))
        rate = (i + len(chunk)) / (time.perf_counter() - start)
        print(f"  embedded {i + len(chunk)}/{len(missing)} ({rate:.0f}/s)", flush=True)
    return {t: have[_key(t)] for t in dict.fromkeys(texts)}


def pair_features(claims: np.ndarray, sents: np.ndarray) -> np.ndarray:
    return np.hstack([claims, sents, np.abs(claims - sents), claims * sents])


def group_folds(groups: list[str], k: int = 5) -> np.ndarray:
    return np.array(
        [
            int.from_bytes(hashlib.sha256(f"fold:{SEED}:{g}".encode()).digest()[:8]) % k
            for g in groups
        ]
    )


def make_pair_model(kind: str) -> Any:
    if kind.startswith("lr"):
        return make_pipeline(
            StandardScaler(), LogisticRegression(C=float(kind.split("-")[1]), max_iter=3000)
        )
    return make_pipeline(
        StandardScaler(),
        MLPClassifier(
            hidden_layer_sizes=(int(kind.split("-")[1]),),
            alpha=1e-3,
            early_stopping=True,
            validation_fraction=0.15,
            max_iter=200,
            random_state=SEED,
        ),
    )


def fit_pair(kind: str, x: np.ndarray, y: np.ndarray, w: np.ndarray) -> Any:
    model = make_pair_model(kind)
    if kind.startswith("lr"):
        return model.fit(x, y, logisticregression__sample_weight=w)
    # MLP: no sample weights with early stopping; resample by weight instead.
    rng = np.random.default_rng(SEED)
    idx = rng.choice(len(x), size=len(x), p=w / w.sum())
    return model.fit(x[idx], y[idx])


def pair_signal(
    kind: str, x: np.ndarray, y: np.ndarray, w: np.ndarray, tr: np.ndarray, folds: np.ndarray
) -> np.ndarray:
    """Logit of the pair model: out-of-fold on the rows it is fitted on (`tr`), and the
    model fitted on all of them elsewhere."""
    out = np.zeros(len(x))
    tr_idx = np.nonzero(tr)[0]
    for f in range(5):
        fit_idx, hold_idx = tr_idx[folds[tr_idx] != f], tr_idx[folds[tr_idx] == f]
        model = fit_pair(kind, x[fit_idx], y[fit_idx], w[fit_idx])
        out[hold_idx] = model.predict_proba(x[hold_idx])[:, 1]
    model = fit_pair(kind, x[tr], y[tr], w[tr])
    out[~tr] = model.predict_proba(x[~tr])[:, 1]
    out = np.clip(out, 1e-4, 1 - 1e-4)
    return np.log(out / (1 - out))


def combine(x: np.ndarray, data: Splits, w: np.ndarray) -> tuple[np.ndarray, str, float]:
    """The shipped recipe: logistic or GBT (by validation real-world AUC), Platt on validation."""
    best: tuple[float, str, np.ndarray] | None = None
    features = [f"f{i}" for i in range(x.shape[1])]
    for kind in ("logistic", "gbt"):
        _, p, score = fit_calibrated(kind, x, data, w, features)
        if best is None or score > best[0]:
            best = (score, kind, p)
    assert best is not None
    return best[2], best[1], best[0]


def held_out(
    p: np.ndarray, y: np.ndarray, va: np.ndarray, te: np.ndarray, sources: np.ndarray
) -> dict[str, dict[str, float]]:
    out = {}
    for group, members in GROUPS.items():
        mask = np.isin(sources, members)
        t = best_threshold(y[va & mask], p[va & mask])
        out[group] = metrics(y[te & mask], p[te & mask], t)
        vt = best_threshold(y[va & mask], p[va & mask])
        out[group]["val_f1"] = metrics(y[va & mask], p[va & mask], vt)["f1"]
    return out


def main() -> None:
    started = time.perf_counter()
    np.random.seed(SEED)
    data_set = load_splits()
    pairs, y, sources = data_set.pairs, data_set.y, data_set.sources
    tr, va, te = data_set.tr, data_set.va, data_set.te
    print(f"{len(pairs)} pairs", flush=True)
    data = extract(pairs, MiniLMEmbedder(), Path("/tmp/ragcite_support_features.npz"))
    x_base = data["x"]
    assert x_base.shape[1] == len(FEATURES["semantic"])

    ranked = [lexical_support(p.claim, p.evidence).ranked_sentences[:2] for p in pairs]
    ranked = [tuple(s[:MAX_CHARS] for s in r) for r in ranked]
    texts = [p.claim for p in pairs] + [s for r in ranked for s in r]
    vec = embed_cached(texts)
    zero = np.zeros(384, dtype=np.float32)
    u = np.stack([vec[p.claim] for p in pairs])
    v1 = np.stack([vec[r[0]] if r else zero for r in ranked])
    v2 = np.stack([np.mean([vec[s] for s in r], axis=0) if r else zero for r in ranked])
    v2 /= np.linalg.norm(v2, axis=1, keepdims=True) + 1e-9
    print(f"  embeddings ready {time.perf_counter() - started:.0f}s", flush=True)

    w_all = np.zeros(len(pairs))
    w_all[tr] = source_weights(sources[tr])
    w = w_all[tr]
    folds = group_folds([p.group for p in pairs])

    results: dict[str, Any] = {}
    p_base, kind_base, auc_base = combine(x_base, data_set, w)
    results["before"] = {"combiner": kind_base, "val_auc": auc_base}
    results["before"].update(held_out(p_base, y, va, te, sources))
    print("before", kind_base, f"val real AUC {auc_base:.3f}", flush=True)

    real_tr = tr & np.isin(sources, REAL_WORLD)
    variants = [
        (side, v, kind, "all")
        for side, v in (("top1", v1), ("mean2", v2))
        for kind in ("lr-0.01", "lr-0.1", "mlp-64")
    ]
    # Second regime: the pair model sees only the real-world attribution sets' train pairs.
    variants += [(side, v2, kind, "real") for side in ("mean2",) for kind in ("lr-0.01", "mlp-32")]
    for side, v, kind, regime in variants:
        feats = pair_features(u, v)
        t0 = time.perf_counter()
        signal = pair_signal(kind, feats, y, w_all, tr if regime == "all" else real_tr, folds)
        real = va & np.isin(sources, REAL_WORLD)
        alone = roc_auc_score(y[real], signal[real])
        x = np.hstack([x_base, signal[:, None]])
        p, kind_c, auc = combine(x, data_set, w)
        name = f"{side}/{kind}/{regime}"
        results[name] = {"combiner": kind_c, "val_auc": auc, "alone_val_auc": alone}
        results[name].update(held_out(p, y, va, te, sources))
        print(
            f"{name:14s} alone AUC {alone:.3f} combined {kind_c} val AUC {auc:.3f} "
            f"val F1 real {results[name]['real-world pooled']['val_f1']:.3f} "
            f"({time.perf_counter() - t0:.0f}s)",
            flush=True,
        )
    results["seconds"] = time.perf_counter() - started
    (CACHE / "results.json").write_text(json.dumps(results, indent=1, default=float))
    print(f"\nheld-out macro-F1 (test), val-chosen per variant; {results['seconds']:.0f}s")
    header = ["variant", "val AUC", "val F1 rw", *GROUPS]
    print(" | ".join(header))
    for name, r in results.items():
        if name == "seconds":
            continue
        cells = [f"{r[g]['f1']:.3f}" for g in GROUPS]
        print(
            f"{name} ({r['combiner']}) | {r['val_auc']:.3f} | "
            f"{r['real-world pooled']['val_f1']:.3f} | " + " | ".join(cells)
        )


if __name__ == "__main__":
    main()
