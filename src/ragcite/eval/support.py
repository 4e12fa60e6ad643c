"""Support-checker metrics on labelled claim–evidence pairs.

Input: a JSONL file of `{"premise": str | "references": [str], "claim": str, "label": ...}`
(label: true/false, 1/0, or "supported"/"attributable"/"entailment" vs anything else),
or one of the shared data sets by name (`halueval`, `attributionbench`, `rgb`, and the
other loaders of `eval.datasets`), restricted to a group-wise split (`test` by default:
the part the support model was not trained or tuned on).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ragcite.errors import InputError
from ragcite.eval.datasets import LOADERS, Split, SupportPair, split_of
from ragcite.eval.metrics import (
    binary_counts,
    brier_score,
    expected_calibration_error,
    macro_f1,
    roc_auc,
)
from ragcite.models import SupportVerdict
from ragcite.verify.support import SupportChecker

POSITIVE_LABELS = {
    "true",
    "1",
    "yes",
    "supported",
    "support",
    "supports",
    "attributable",
    "entailment",
    "e",
    "completely-support",
}


def _label(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in POSITIVE_LABELS


def load_support_jsonl(path: Path) -> list[SupportPair]:
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            evidence = row["references"] if "references" in row else [row["premise"]]
            pairs.append(
                SupportPair(
                    evidence=[str(e) for e in evidence],
                    claim=str(row["claim"]),
                    supported=_label(row["label"]),
                    group=str(row.get("group", row.get("id", number))),
                    source=path.stem,
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise InputError(
                f"{path}:{number}: need premise or references, claim and label ({exc})"
            ) from None
    if not pairs:
        raise InputError(f"{path}: no labelled pairs in the file")
    return pairs


def load_support_pairs(
    dataset: str, *, split: Split | None = "test", limit: int | None = None
) -> list[SupportPair]:
    """Pairs from a JSONL path or a shared data set name, in `split` (None: all rows)."""
    if dataset in LOADERS:
        rows: Iterable[SupportPair] = LOADERS[dataset]()
        rows = (p for p in rows if split is None or split_of(p) == split)
    else:
        path = Path(dataset)
        if not path.is_file():
            raise InputError(
                f"{dataset}: neither a JSONL file nor a data set name (one of {', '.join(LOADERS)})"
            )
        rows = load_support_jsonl(path)
    out = []
    for pair in rows:
        out.append(pair)
        if limit is not None and len(out) >= limit:
            break
    return out


def support_metrics(
    checker: SupportChecker,
    pairs: list[SupportPair],
    *,
    batch: int = 64,
    on_batch: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Accuracy, macro-F1, ROC-AUC and ECE of the checker's score, and the confusion matrix
    (predicted supported = verdict `supported`)."""
    scores: list[float] = []
    predicted: list[bool] = []
    verdicts: dict[str, dict[str, int]] = {"supported": {}, "not_supported": {}}
    for start in range(0, len(pairs), batch):
        part = pairs[start : start + batch]
        results = checker.check_many([(p.claim, p.evidence) for p in part])
        for pair, result in zip(part, results, strict=True):
            scores.append(result.score)
            predicted.append(result.verdict is SupportVerdict.SUPPORTED)
            row = verdicts["supported" if pair.supported else "not_supported"]
            row[result.verdict.value] = row.get(result.verdict.value, 0) + 1
        if on_batch is not None:
            on_batch(len(part))
    actual = [p.supported for p in pairs]
    counts = binary_counts(predicted, actual)
    return {
        "pairs": len(pairs),
        "positive_share": sum(actual) / len(actual) if actual else float("nan"),
        "accuracy": counts.accuracy,
        "macro_f1": macro_f1(predicted, actual),
        "roc_auc": roc_auc(scores, actual),
        "ece": expected_calibration_error(scores, actual),
        "brier": brier_score(scores, actual),
        "confusion": {"tp": counts.tp, "fp": counts.fp, "fn": counts.fn, "tn": counts.tn},
        "verdicts_by_label": verdicts,
    }
