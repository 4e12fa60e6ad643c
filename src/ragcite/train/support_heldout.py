"""Held-out sets the support checker is measured on but never fitted on.

The extractive-style set (`ragcite.eval.extractive`): its pairs in the validation and test
splits (by group, as every set), appended to the training data's `Splits` and `Signals`
with signals cached in a file of their own, so the training pairs' cache stays valid.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.eval.datasets import split_of
from ragcite.eval.extractive import load_extractive
from ragcite.train.support_data import SEED, Signals, Splits, signals


def load_heldout(*, seed: int = SEED) -> Splits:
    """The extractive-style pairs outside the train split."""
    pairs = [p for p in load_extractive(seed=seed) if split_of(p, seed=seed) != "train"]
    return Splits(
        pairs=pairs,
        y=np.array([p.supported for p in pairs], dtype=int),
        sources=np.array([p.source for p in pairs]),
        split=np.array([split_of(p, seed=seed) for p in pairs]),
    )


def heldout_cache(cache: Path) -> Path:
    """Where the held-out pairs' signals are cached, beside the training pairs' `cache`."""
    return cache.with_name(cache.stem + "_heldout.npz")


def with_heldout(
    data: Splits, sig: Signals, embedder: MiniLMEmbedder, cache: Path, *, seed: int = SEED
) -> tuple[Splits, Signals]:
    """`data` and `sig` with the held-out pairs and their signals appended."""
    extra = load_heldout(seed=seed)
    more = signals(extra, embedder, heldout_cache(cache))
    joined = Splits(
        pairs=[*data.pairs, *extra.pairs],
        y=np.concatenate([data.y, extra.y]),
        sources=np.concatenate([data.sources, extra.sources]),
        split=np.concatenate([data.split, extra.split]),
    )
    return joined, Signals(
        x=np.vstack([sig.x, more.x]),
        x_static=np.vstack([sig.x_static, more.x_static]),
        cosine=np.concatenate([sig.cosine, more.cosine]),
        seconds=sig.seconds + more.seconds,
        static_seconds=sig.static_seconds + more.static_seconds,
    )
