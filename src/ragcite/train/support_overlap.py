"""Keeping what word overlap knows in the shipped support models.

A learned combination can rank some data sets worse than content-word overlap alone (the
signals it weighs were fitted on other sets). Each shipped variant is therefore stacked
with overlap: its calibrated log-odds plus `weight` times overlap's calibrated log-odds,
Platt-scaled again on validation. For a logistic model that is again a logistic model (the
overlap weight folds into its coefficient), so the file format and the NumPy-only scoring
are unchanged. The stacking weight, and the form (free or sign-bounded logistic, or the
trees form kept by `fit_layer_sets`), are chosen on validation: the candidates that are
below overlap on no validation data set (macro-F1 at the set's best cut, and ROC-AUC),
best real-world AUC among them; when none is, the one whose worst shortfall is smallest.
Held-out-only sets (the extractive one) take no part.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ragcite.eval.metrics import macro_f1, roc_auc
from ragcite.learn.model import LearnedModel
from ragcite.train.support_data import REAL_WORLD, Array, Labels, Signals, Splits
from ragcite.train.support_fit import (
    LAYER_SETS,
    VARIANTS,
    Fitted,
    Form,
    best_threshold,
    columns,
    fit_calibrated,
    platt,
    sigmoid,
)

STACK_WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
LINEAR_FORMS: tuple[Form, ...] = ("logistic", "signed logistic")


@dataclass(frozen=True)
class Candidate:
    """One way to build a variant, its validation scores and what it is."""

    form: Form
    weight: float  # overlap's stacking weight
    model: LearnedModel
    p: Array  # calibrated P(supported) for every pair
    worst: float  # its smallest margin over overlap across validation sets and metrics
    real_world_auc: float


def _f1_auc(y: Labels, p: Array) -> tuple[float, float]:
    actual = [bool(v) for v in y]
    cut = best_threshold(y, p)
    return macro_f1((p >= cut).tolist(), actual), roc_auc(p.tolist(), actual)


def shortfall(p: Array, p_overlap: Array, data: Splits) -> float:
    """The smallest (most negative) margin of `p` over overlap across the validation data
    sets, in macro-F1 at each score's best cut and in ROC-AUC."""
    worst = np.inf
    for source in np.unique(data.sources[data.va_fit]):
        mask = data.va_fit & (data.sources == source)
        y = data.y[mask]
        if y.min() == y.max():
            continue
        ours, base = _f1_auc(y, p[mask]), _f1_auc(y, p_overlap[mask])
        worst = min(worst, ours[0] - base[0], ours[1] - base[1])
    return float(worst)


def stacked(
    model: LearnedModel, x: Array, data: Splits, weight: float
) -> tuple[LearnedModel, Array]:
    """`model` (a calibrated logistic one over features that include `lex_overlap`) plus
    `weight` times overlap's calibrated log-odds, re-calibrated on validation; folded into
    one logistic model."""
    assert model.kind == "logistic" and model.weights is not None and model.platt is not None
    assert model.mean is not None and model.scale is not None
    j = model.features.index("lex_overlap")
    overlap = x[:, j]
    a_o, b_o = platt(overlap[data.va_fit], data.y[data.va_fit])
    a_o = max(a_o, 0.0)  # overlap's log-odds never fall as it grows
    a, b = model.platt
    score = a * model.margin(x) + b + weight * (a_o * overlap + b_o)
    a2, b2 = platt(score[data.va_fit], data.y[data.va_fit])
    weights = a2 * a * model.weights
    weights[j] += a2 * weight * a_o * model.scale[j]
    bias = a2 * (a * model.bias + b + weight * (a_o * model.mean[j] + b_o)) + b2
    folded = replace(model, weights=weights, bias=float(bias), platt=(1.0, 0.0))
    return folded, sigmoid(a2 * score + b2)


def candidates(
    label: str, sig: Signals, data: Splits, fitted: Fitted, seed: int
) -> list[Candidate]:
    """Every stacking weight on both linear forms, and the form `fit_layer_sets` kept."""
    static, features = LAYER_SETS[label]
    x = columns(sig.x_static if static else sig.x, features)
    p_overlap = fitted.methods["baseline: overlap"]
    real = data.va_fit & np.isin(data.sources, REAL_WORLD)

    def scored(form: Form, weight: float, model: LearnedModel, p: Array) -> Candidate:
        auc = roc_auc(p[real].tolist(), (data.y[real] > 0).tolist())
        return Candidate(form, weight, model, p, shortfall(p, p_overlap, data), auc)

    out = [scored(fitted.forms[label], 0.0, fitted.models[label], fitted.methods[label])]
    for form in LINEAR_FORMS:
        model, _, _ = fit_calibrated(form, x, data, features, seed)
        for weight in STACK_WEIGHTS:
            out.append(scored(form, weight, *stacked(model, x, data, weight)))
    return out


def choose(found: list[Candidate]) -> Candidate:
    """Best real-world AUC among those never below overlap on validation; else the one
    with the smallest shortfall."""
    keeping = [c for c in found if c.worst >= 0]
    if keeping:
        return max(keeping, key=lambda c: c.real_world_auc)
    return max(found, key=lambda c: c.worst)


def keep_overlap(sig: Signals, data: Splits, fitted: Fitted, seed: int) -> dict[str, float]:
    """Replace each shipped variant's model by the chosen candidate; its stacking weight
    by layer set (for the report)."""
    weights = {}
    for label in VARIANTS.values():
        best = choose(candidates(label, sig, data, fitted, seed))
        print(
            f"  {label:34s} kept {best.form} + {best.weight} x overlap: validation worst margin "
            f"over overlap {best.worst:+.3f}, real-world AUC {best.real_world_auc:.3f}",
            flush=True,
        )
        fitted.models[label], fitted.methods[label] = best.model, best.p
        fitted.forms[label] = best.form
        weights[label] = best.weight
    return weights
