"""What each reading feature buys the answerability model, measured on validation.

    .venv/bin/python bench/answerability_records.py      # once: the records (slow, cached)
    .venv/bin/python bench/answerability_features.py [records.jsonl]

For each feature of `ragcite.train.reading_features.READING_FEATURES` (computed here from each
record's question and quotes where the record lacks it): its own AUC (answerable vs not,
direction-free) on the validation answers the default lets through (relevance floor,
subject and reading checks), and the validation abstention of the model fitted as the
trainer does on the model's features plus that one, behind the default; then the model on
its features alone and on all of them. Validation only: the held-out split is left to
bench/answerability.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sklearn.metrics import roc_auc_score

from ragcite.embed.cached import CachedEmbedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.train.answerability import (
    RECORDS,
    abstention_scores,
    default_decisions,
    fit_model,
    split_of,
    xy,
)
from ragcite.train.answerability_run import record_quotes
from ragcite.train.reading_features import READING_FEATURES, reading_features
from ragcite.verify.answerability import FEATURES


def _auc(records: list[dict[str, Any]], feature: str) -> float:
    x, y = xy(records, (feature,))
    auc = float(roc_auc_score(y, x[:, 0]))
    return max(auc, 1.0 - auc)


def _model_row(records: list[dict[str, Any]], features: tuple[str, ...]) -> dict[str, Any]:
    model, report = fit_model(records, features)
    threshold = report[report["chosen"]]["threshold"]
    val = [r for r in records if split_of(r) == "val"]
    scores = abstention_scores(
        default_decisions(val, model, threshold), [r["answerable"] for r in val]
    )
    keys = ("precision", "recall", "f1", "answered_answerable")
    return {"model": report["chosen"], **{k: round(scores[k], 3) for k in keys}}


def _with_reading(records: list[dict[str, Any]]) -> None:
    embedder = CachedEmbedder(MiniLMEmbedder(), max_items=200_000)
    for r in records:
        if r.get("quotes") and not set(READING_FEATURES) <= set(r["features"]):
            quotes, _ = record_quotes(r)
            r["features"].update(reading_features(r["question"], quotes, embedder))


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else RECORDS
    records = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    _with_reading(records)
    val = [r for r in records if split_of(r) == "val"]
    judged = [r for r, a in zip(val, default_decisions(val, None, 0.0), strict=True) if a]
    out: dict[str, Any] = {
        "validation": len(val),
        "validation_judged": len(judged),
        "default": abstention_scores(
            default_decisions(val, None, 0.0), [r["answerable"] for r in val]
        ),
        "model": _model_row(records, FEATURES),
        "model_and_all_reading": _model_row(records, (*FEATURES, *READING_FEATURES)),
        "features": {},
    }
    for feature in READING_FEATURES:
        out["features"][feature] = {
            "auc": round(_auc(judged, feature), 3),
            "model_plus": _model_row(records, (*FEATURES, feature)),
        }
    out["model_feature_auc"] = {f: round(_auc(judged, f), 3) for f in FEATURES}
    print(json.dumps(out, indent=1, default=float))


if __name__ == "__main__":
    main()
