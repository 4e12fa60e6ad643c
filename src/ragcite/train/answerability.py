"""Fit the answerability model and write the packaged asset.

    .venv/bin/python bench/answerability_records.py          # the records (slow, cached)
    .venv/bin/python -m ragcite.train.answerability [records.jsonl] [out.json]

Splits by group (paragraph, HaluEval item, RGB query): 30% held out for measurement
(never seen here), 15% validation for the threshold, the rest to fit. The threshold is
the one with the best abstention F1 on validation among those that keep answering at least
`MIN_ANSWERED` of the answerable questions the generator answered. Records that predate
a change of the features are refreshed first (`answerability_run.refresh_records`).
Needs scikit-learn.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.config import GenerateSettings
from ragcite.embed.cached import CachedEmbedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.generate.answer_decision import Decision, learned_decision
from ragcite.learn.fit import fit_logistic, fit_trees, rounded, with_calibration
from ragcite.learn.model import LearnedModel, models_to_json
from ragcite.train.answerability_data import bucket
from ragcite.train.answerability_run import record_quotes, refresh_records
from ragcite.verify.answerability import FEATURES, MODEL_FILE
from ragcite.verify.reading import reading_conflict

ROOT = Path(__file__).resolve().parents[3]
RECORDS = ROOT / "bench" / "out" / "answerability_records.jsonl"
ASSET = ROOT / "src" / "ragcite" / "verify" / MODEL_FILE
TEST_BELOW, VAL_BELOW = 30, 45  # buckets of 100: [0, 30) held out, [30, 45) validation
MIN_ANSWERED = 0.93
FLOOR = GenerateSettings().min_sentence_relevance


def split_of(record: dict[str, Any]) -> str:
    b = bucket(record["group"])
    return "test" if b < TEST_BELOW else "val" if b < VAL_BELOW else "fit"


def load_records(path: Path = RECORDS) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def xy(
    records: list[dict[str, Any]], features: tuple[str, ...] = FEATURES
) -> tuple[np.ndarray, np.ndarray]:
    """The records' feature matrix (columns: `features`) and answerable labels."""
    rows = [r["features"] for r in records]
    x = np.array([[row[f] for f in features] for row in rows], dtype=np.float64)
    return x, np.array([r["answerable"] for r in records], dtype=int)


def abstention_scores(answered: list[bool], answerable: list[bool]) -> dict[str, float]:
    """Abstention as the positive class: precision, recall, F1; and the answered share."""
    declined = [not a for a in answered]
    tp = sum(d and not y for d, y in zip(declined, answerable, strict=True))
    fp = sum(d and y for d, y in zip(declined, answerable, strict=True))
    fn = sum(not d and not y for d, y in zip(declined, answerable, strict=True))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    positives = sum(answerable)
    kept = sum(a and y for a, y in zip(answered, answerable, strict=True))
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "answered_answerable": kept / positives if positives else float("nan"),
        "n": float(len(answered)),
    }


def decisions(
    records: list[dict[str, Any]],
    model: LearnedModel | None,
    threshold: float,
    *,
    floor: float | None = None,
    subject: dict[str, list[str]] | None = None,
    answer: Decision | None = None,
) -> list[bool]:
    """Answered or not: the generator's decision (as recorded; by `answer` over the
    record's decision inputs, or at sentence relevance `floor`, when given), then the
    subject check (`subject`: record id → the topic words missing from its quotes), then
    the model below `threshold`."""
    out = []
    for r in records:
        answered = r["generator_answered"]
        if answer is not None and r.get("decision") is not None:
            answered = bool(r.get("quotes")) and answer(r["decision"])
        elif floor is not None and r.get("relevance") is not None:
            answered = bool(r.get("quotes")) and r["relevance"] >= floor
        if answered and subject is not None and subject.get(r["id"]):
            answered = False
        out.append(answered)
    if model is None:
        return out
    p = probabilities(records, model)
    return [a and bool(q >= threshold) for a, q in zip(out, p, strict=True)]


def probabilities(records: list[dict[str, Any]], model: LearnedModel) -> np.ndarray:
    """The model's P(answered) for each record (0 for a record with nothing quoted)."""
    out = np.zeros(len(records))
    rows = [i for i, r in enumerate(records) if r.get("features") is not None]
    if rows:
        out[rows] = model.predict(model.matrix([records[i]["features"] for i in rows]))
    return out


def subject_of(records: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Record id → the topic words the subject check finds missing (as recorded)."""
    return {r["id"]: r.get("subject_missing") or [] for r in records}


_CONFLICTS: dict[tuple[str, str], str | None] = {}


def checks_of(records: list[dict[str, Any]], *, reading: bool = True) -> dict[str, list[str]]:
    """Record id → why the deterministic checks decline it: the subject check's missing
    words, else (with `reading`) the reading check's conflict; empty when neither does."""
    out = {}
    for r in records:
        reasons = list(r.get("subject_missing") or [])
        if reading and not reasons and r.get("quotes"):
            key = (r["id"], r["question"])
            if key not in _CONFLICTS:
                _CONFLICTS[key] = reading_conflict(r["question"], record_quotes(r)[0])
            conflict = _CONFLICTS[key]
            reasons += [conflict] if conflict else []
        out[r["id"]] = reasons
    return out


def default_decisions(
    records: list[dict[str, Any]], model: LearnedModel | None, threshold: float
) -> list[bool]:
    """Answered or not by the default: the generator's decision (`default_answer`), the
    subject and reading checks, then (when given) the model below `threshold`."""
    return decisions(
        records,
        model,
        threshold,
        floor=FLOOR,
        subject=checks_of(records),
        answer=default_answer(),
    )


def default_answer() -> Decision | None:
    """The default settings' learned answer decision (None when the default is the floor)."""
    return learned_decision() if GenerateSettings().answer_decision == "learned" else None


def choose_threshold(records: list[dict[str, Any]], model: LearnedModel) -> float:
    answerable = [r["answerable"] for r in records]
    best, best_f1 = 0.0, -1.0
    for t in np.linspace(0.05, 0.95, 91):
        scores = abstention_scores(decisions(records, model, float(t)), answerable)
        kept_of_answered = _kept_of_generated(records, model, float(t))
        if kept_of_answered >= MIN_ANSWERED and scores["f1"] > best_f1:
            best, best_f1 = float(t), scores["f1"]
    return best


def _kept_of_generated(records: list[dict[str, Any]], model: LearnedModel, t: float) -> float:
    rows = [r for r in records if r["answerable"] and r["generator_answered"]]
    if not rows:
        return 1.0
    return float(np.mean(probabilities(rows, model) >= t))


def fit_model(
    records: list[dict[str, Any]], features: tuple[str, ...] = FEATURES
) -> tuple[LearnedModel, dict[str, Any]]:
    """The model (trees or logistic, whichever has the better validation F1) and its report."""
    fit = [r for r in records if split_of(r) == "fit" and r["generator_answered"]]
    val = [r for r in records if split_of(r) == "val"]
    x, y = xy(fit, features)
    candidates = {
        "logistic": fit_logistic(x, y, features=features, c=1.0),
        "trees": fit_trees(x, y, features=features, n_trees=120, depth=3, seed=7),
    }
    report: dict[str, Any] = {}
    best_name, best_f1 = "", -1.0
    for name, model in candidates.items():
        threshold = choose_threshold(val, model)
        scores = abstention_scores(decisions(val, model, threshold), [r["answerable"] for r in val])
        report[name] = {"threshold": threshold, **scores}
        if scores["f1"] > best_f1:
            best_name, best_f1 = name, scores["f1"]
    model = with_calibration(
        candidates[best_name],
        thresholds={"answer": report[best_name]["threshold"]},
        trained_on={
            "data": "shared datasets: SQuAD 2.0 subset, HaluEval (gold removed for half), RGB",
            "split": "by paragraph / item / query; 30% held out, 15% validation",
            "fit_rows": len(fit),
            "validation": report[best_name],
            "license": "SQuAD CC BY-SA 4.0, HaluEval MIT, RGB CC BY-NC-SA 4.0 (non-commercial)",
        },
    )
    return rounded(model), {"chosen": best_name, **report}


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else RECORDS
    records = refresh_records(path, CachedEmbedder(MiniLMEmbedder()))
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else ASSET
    model, report = fit_model(records)
    out.parent.mkdir(parents=True, exist_ok=True)
    about = "ragcite answerability model: P(the quoted passages answer the question)"
    out.write_text(models_to_json({"answerability": model}, about=about), encoding="utf-8")
    print(json.dumps(report, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
