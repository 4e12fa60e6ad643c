"""The support checker's training data: pairs, group-wise splits, weights and signals.

Every shared data set's (claim, evidence, supported) pairs (`ragcite.eval.datasets`), about
2,000 per data set (whole groups), split by group 60 / 20 / 20 with `split_of`; then every
layer's signals from the real checker, cached on disk because MiniLM takes minutes.
"""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

import ragcite.embed
import ragcite.text
import ragcite.verify.support
from ragcite.embed.base import Embedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.embed.static import StaticEmbedder
from ragcite.errors import InputError
from ragcite.eval.datasets import DEFAULT_ROOT, LOADERS, SupportPair, split_of
from ragcite.learn.model import LearnedModel
from ragcite.verify.support.checker import LayeredSupportChecker
from ragcite.verify.support.hard_checks import SIGNAL_NAMES as HARD
from ragcite.verify.support.lexical import SIGNAL_NAMES as LEXICAL
from ragcite.verify.support.semantic import SIGNAL_NAMES as SEMANTIC

SEED = 13
REAL_WORLD = ("attributionbench", "wice", "wice_gold", "factcheck_gpt")
# Evaluated on (validation for the table's cut, test for its figures), never fitted on, not
# even for calibration or the shipped thresholds.
EVAL_ONLY = ("extractive",)
FEATURES = {"semantic": (*HARD, *LEXICAL, *SEMANTIC), "lexical": (*HARD, *LEXICAL)}
Array = npt.NDArray[np.float64]
Labels = npt.NDArray[np.int_]  # 1 = supported


@dataclass(frozen=True)
class Splits:
    """The pairs with their labels, data sets and group-wise splits, as arrays."""

    pairs: list[SupportPair]
    y: Labels
    sources: npt.NDArray[np.str_]
    split: npt.NDArray[np.str_]

    @property
    def tr(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.split == "train")

    @property
    def va(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.split == "validation")

    @property
    def te(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.split == "test")

    @property
    def va_fit(self) -> npt.NDArray[np.bool_]:
        """The validation pairs that calibration and the shipped thresholds may use."""
        return np.asarray(self.va & ~np.isin(self.sources, EVAL_ONLY))


def require_datasets() -> None:
    """Raise InputError unless the shared data sets are where the loaders read them."""
    if not DEFAULT_ROOT.is_dir():
        raise InputError(
            f"the training data sets are not at {DEFAULT_ROOT}: train from a source checkout "
            "with the shared data sets beside it (../shared/datasets)"
        )


def load_splits(cap: int = 2000, *, seed: int = SEED) -> Splits:
    """Every shared data set's pairs, about `cap` per data set, as `Splits`."""
    require_datasets()
    pairs = cap_per_source([p for name in LOADERS for p in LOADERS[name]()], cap, seed=seed)
    return Splits(
        pairs=pairs,
        y=np.array([p.supported for p in pairs], dtype=int),
        sources=np.array([p.source for p in pairs]),
        split=np.array([split_of(p, seed=seed) for p in pairs]),
    )


def cap_per_source(pairs: list[SupportPair], cap: int, *, seed: int = SEED) -> list[SupportPair]:
    """A deterministic, group-wise sample of about `cap` pairs per data set."""
    counts: dict[str, int] = defaultdict(int)
    for p in pairs:
        counts[p.source] += 1
    kept = []
    for p in pairs:
        share = min(1.0, cap / counts[p.source])
        digest = hashlib.sha256(f"cap:{seed}:{p.group}".encode()).digest()
        if int.from_bytes(digest[:8], "big") / 2**64 < share:
            kept.append(p)
    return kept


def source_weights(sources: npt.NDArray[np.str_]) -> Array:
    """Each data set weighs the same in total, real-world attribution sets double."""
    weights = np.ones(len(sources))
    for source in np.unique(sources):
        mask = sources == source
        weights[mask] = (2.0 if source in REAL_WORLD else 1.0) * 1000 / mask.sum()
    return weights


def signal_checker(embedder: Embedder) -> LayeredSupportChecker:
    """A checker used only for its signals (its placeholder model is never scored)."""
    features = FEATURES["semantic"]
    placeholder = LearnedModel(
        features=features,
        kind="logistic",
        weights=np.zeros(len(features)),
        thresholds={"supported": 0.5, "partial": 0.3},
    )
    return LayeredSupportChecker(placeholder, embedder=embedder)


@dataclass(frozen=True)
class Signals:
    """Every pair's signals (columns: FEATURES["semantic"]) and the cosine baseline."""

    x: Array
    x_static: Array  # the same, with the semantic signals from the static embedder
    cosine: Array  # MiniLM cosine of the claim with its best whole chunk (not for train)
    seconds: float
    static_seconds: float


def signals(data: Splits, embedder: MiniLMEmbedder, cache: Path) -> Signals:
    """The signals of every pair, MiniLM's cached in `cache` (an .npz file). The cache
    is used only for the same pairs and the same signal code (text and support layers)."""
    key = signals_cache_key(data.pairs)
    loaded = np.load(cache) if cache.exists() else None
    if loaded is not None and "key" in loaded.files and str(loaded["key"]) == key:
        x, cosine, seconds = loaded["x"], loaded["cosine"], float(loaded["signal_seconds"])
    else:
        x, cosine, seconds = _extract(data, embedder, cache, key)
    x_static, static_seconds = _static_semantic(data.pairs, x)
    return Signals(x, x_static, cosine, seconds, static_seconds)


def signals_cache_key(pairs: list[SupportPair]) -> str:
    """A digest of the pairs and of the source of every module the signals come from."""
    digest = hashlib.sha256()
    for p in pairs:
        digest.update(f"{p.claim}\x00{p.evidence}\x00{p.group}\x01".encode())
    for package in (ragcite.text, ragcite.verify.support, ragcite.embed):
        for path in sorted(Path(next(iter(package.__path__))).glob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _extract(
    data: Splits, embedder: MiniLMEmbedder, cache: Path, key: str
) -> tuple[Array, Array, float]:
    pairs = data.pairs
    checker = signal_checker(embedder)
    rows: list[dict[str, float]] = []
    start = time.perf_counter()
    batch = 256
    for i in range(0, len(pairs), batch):
        part = pairs[i : i + batch]
        found, _, _ = checker.signals_many([(p.claim, p.evidence) for p in part])
        rows.extend(found)
        if i % (batch * 20) == 0:
            print(f"  signals {i}/{len(pairs)} {time.perf_counter() - start:.0f}s", flush=True)
    seconds = time.perf_counter() - start
    x = np.array([[r[f] for f in FEATURES["semantic"]] for r in rows])
    cosine = _cosine_baseline(pairs, ~data.tr)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, x=x, cosine=cosine, key=np.array(key), signal_seconds=seconds)
    return x, cosine, seconds


def _cosine_baseline(pairs: list[SupportPair], needed: npt.NDArray[np.bool_]) -> Array:
    """Cosine of the claim with each whole chunk (truncated by the embedder), max; only for
    pairs outside train (the baseline is never fitted)."""
    cosine = np.zeros(len(pairs))
    need = [int(i) for i in np.nonzero(needed)[0]]
    texts = list(dict.fromkeys(t for i in need for t in (pairs[i].claim, *pairs[i].evidence)))
    print(f"  baseline cosine over {len(texts)} texts", flush=True)
    vectors = MiniLMEmbedder(max_tokens=128).embed(texts)
    index = {t: j for j, t in enumerate(texts)}
    for i in need:
        claim = vectors[index[pairs[i].claim]]
        cosine[i] = max(float(vectors[index[e]] @ claim) for e in pairs[i].evidence)
    return cosine


def _static_semantic(pairs: list[SupportPair], x: Array) -> tuple[Array, float]:
    """`x` with its semantic signals recomputed by the static (lookup-table) embedder."""
    checker = signal_checker(StaticEmbedder())
    start = time.perf_counter()
    found, _, _ = checker.signals_many([(p.claim, p.evidence) for p in pairs])
    seconds = time.perf_counter() - start
    out = x.copy()
    for j, name in enumerate(FEATURES["semantic"]):
        if name in SEMANTIC:
            out[:, j] = [s[name] for s in found]
    return out, seconds
