"""`ragcite train support`: rebuild the support checker's learned model and its model card.

Reads the shared data sets, splits them by group (train 60 / validation 20 / test 20),
computes every layer's signals with the real embedder, fits the learned layer on train,
calibrates it and picks verdict thresholds on validation, and reports everything on the
held-out test split.

    >>> report = train_support(SupportOptions(model=Path("support_model.json")))
    >>> report["targets"]["rgb_positive_wrong_test"]["rejected"]          # doctest: +SKIP
    0.93
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.learn.fit import require_sklearn
from ragcite.learn.model import models_to_json
from ragcite.train.support_card import render_card
from ragcite.train.support_data import SEED, load_splits, signals
from ragcite.train.support_fit import (
    CONSTRAINED_FORMS,
    FORMS,
    add_previous,
    cross_validation,
    evaluation_groups,
    fit_layer_sets,
    heldout_table,
    shipped_models,
)
from ragcite.train.support_heldout import with_heldout
from ragcite.train.support_overlap import keep_overlap
from ragcite.train.support_targets import checkers, targets
from ragcite.verify.support.learned import load_support_models


@dataclass(frozen=True)
class SupportOptions:
    """Where `train_support` writes, what it caches and how it samples."""

    model: Path  # the model file to write (the packaged one by default in the CLI)
    card: Path | None = None  # the model card to write (Markdown); None: no card
    report: Path | None = None  # the full report as JSON; None: not written
    cache: Path = Path("/tmp/ragcite_support_features.npz")  # MiniLM signals, reused
    hand_pairs: Path = Path("tests/data/support_pairs.jsonl")
    # a previous model file, measured side by side on the same pairs; None: not measured
    before_model: Path | None = None
    # also try the direction-constrained forms, and stack each shipped variant with
    # overlap (`ragcite.train.support_overlap`); off: logistic or trees, as shipped
    keep_overlap: bool = False
    max_per_source: int = 2000
    seed: int = SEED


def train_support(options: SupportOptions) -> dict[str, Any]:
    """Fit, write the model file (and card), and return the training report."""
    require_sklearn()
    np.random.seed(options.seed)
    started = time.perf_counter()
    data = load_splits(options.max_per_source, seed=options.seed)
    print(f"{len(data.pairs)} pairs", flush=True)
    embedder = MiniLMEmbedder()
    data, sig = with_heldout(
        data, signals(data, embedder, options.cache), embedder, options.cache, seed=options.seed
    )
    forms = FORMS + CONSTRAINED_FORMS if options.keep_overlap else FORMS
    fitted = fit_layer_sets(sig, data, options.seed, forms)
    stack_weights = keep_overlap(sig, data, fitted, options.seed) if options.keep_overlap else {}
    if options.before_model is not None:
        add_previous(fitted, sig, load_support_models(options.before_model))
    models = shipped_models(fitted, data)
    about = f"ragcite support checker, built by `ragcite train support` (seed {options.seed})"
    options.model.parent.mkdir(parents=True, exist_ok=True)
    options.model.write_text(models_to_json(models, about=about), encoding="utf-8")
    print(f"wrote {options.model}", flush=True)
    groups = evaluation_groups(data)
    report: dict[str, Any] = {
        "table": heldout_table(fitted, data),
        "counts": {g: int((data.te & m).sum()) for g, m in groups.items()},
        "train_counts": {g: int((data.tr & m).sum()) for g, m in groups.items()},
        "kinds": dict(fitted.forms),
        "overlap_stack_weights": stack_weights,
        "thresholds": {name: dict(m.thresholds) for name, m in models.items()},
        "signal_seconds": sig.seconds,
        "static_signal_seconds": sig.static_seconds,
        "fit_seconds": fitted.fit_seconds,
        "total_seconds": time.perf_counter() - started,
        "n_pairs": len(data.pairs),
    }
    report["targets"] = targets(data, checkers(models, embedder), options.hand_pairs)
    report.update(cross_validation(sig, data, fitted, options.seed))
    if options.report is not None:
        options.report.write_text(json.dumps(report, indent=1, default=float), encoding="utf-8")
    if options.card is not None:
        options.card.parent.mkdir(parents=True, exist_ok=True)
        options.card.write_text(render_card(report), encoding="utf-8")
    return report
