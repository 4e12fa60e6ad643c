"""Abstention and calibration on the held-out shared-data questions, before and after.

    .venv/bin/python bench/answerability_records.py      # once: the records (slow, cached)
    .venv/bin/python bench/answerability.py [records.jsonl] [--model answerability_model.json]

Held out = the 30% of groups (SQuAD paragraph, HaluEval item, RGB query) that the
answerability model never saw (`ragcite.train.answerability.split_of`). Abstention counts
declining as the positive class (precision: declined questions that were unanswerable;
recall: unanswerable questions declined). "Before" is the generator's own decision, "after"
adds the answerability check. Calibration: claim and answer ECE (10 bins) of the raw
confidence, and after a map (isotonic or Platt, chosen on the calibration split) fitted on
the other 70%, with a 95% bootstrap interval over questions.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ragcite.config import GenerateSettings
from ragcite.embed.cached import CachedEmbedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.eval.calibration import Points, ece_interval, fit_calibration
from ragcite.score.confidence import answer_confidence
from ragcite.train.answerability import (
    RECORDS,
    abstention_scores,
    checks_of,
    decisions,
    default_answer,
    split_of,
    subject_of,
)
from ragcite.train.answerability_run import refresh_records
from ragcite.verify.answerability import load_answerability_model


def _abstention(records: list[dict[str, Any]], model: Any, threshold: float) -> dict[str, Any]:
    """Before (the generator's decision as recorded), the floor then the subject check, the
    floor then the subject and reading checks (the default before the learned answer
    decision), the default now (the learned answer decision, then both checks), and the
    opt-in model: alone at the recorded decision, and behind the default."""
    answerable = [r["answerable"] for r in records]
    floor = GenerateSettings().min_sentence_relevance
    subject, checks = subject_of(records), checks_of(records)
    answer = default_answer()  # the learned answer decision over each record's inputs
    return {
        "before": abstention_scores(decisions(records, None, 0.0), answerable),
        "model_alone": abstention_scores(decisions(records, model, threshold), answerable),
        "subject_only": abstention_scores(
            decisions(records, None, 0.0, floor=floor, subject=subject), answerable
        ),
        "floor_and_checks": abstention_scores(
            decisions(records, None, 0.0, floor=floor, subject=checks), answerable
        ),
        "default": abstention_scores(
            decisions(records, None, 0.0, floor=floor, subject=checks, answer=answer), answerable
        ),
        "default_and_model": abstention_scores(
            decisions(records, model, threshold, floor=floor, subject=checks, answer=answer),
            answerable,
        ),
    }


def _ece_interval(conf: list[float], ok: list[bool], group: list[str]) -> dict[str, Any]:
    """ECE with a 95% bootstrap interval, resampling questions (groups of points)."""
    return ece_interval(Points(conf, ok, group))


def _claim_points(records: list[dict[str, Any]], mapping: Any = None) -> Points:
    """Claim (confidence, correct) as the pipeline computes it: the map on the raw blend
    (never floored: the exact-and-supported floor is on the label only)."""
    conf, ok, group = [], [], []
    for r in records:
        for c in r["claims"]:
            conf.append(mapping(c["raw"]) if mapping is not None else c["raw"])
            ok.append(c["correct"])
            group.append(r["id"])
    return Points(conf, ok, group)


def _answer_points(records: list[dict[str, Any]], claim_map: Any = None) -> Points:
    """Answer (confidence, correct) by `answer_confidence`: the weakest claim's value."""
    conf, ok, group = [], [], []
    for r in records:
        if not r["claims"]:
            continue
        conf.append(answer_confidence(_claim_points([r], claim_map).confidence))
        ok.append(r["answer_correct"])
        group.append(r["id"])
    return Points(conf, ok, group)


def _calibration(calibrate: list[dict[str, Any]], held_out: list[dict[str, Any]]) -> dict[str, Any]:
    raw_fit = _claim_points(calibrate)
    raw_points = Points(
        [c["raw"] for r in calibrate for c in r["claims"]], raw_fit.correct, raw_fit.group
    )
    mapping, method = fit_calibration(raw_points)
    out: dict[str, Any] = {"method": method}
    for level, points in (("claim", _claim_points), ("answer", _answer_points)):
        before, after = points(held_out), points(held_out, mapping)
        out[level] = {
            "raw": _ece_interval(before.confidence, before.correct, before.group),
            "calibrated": _ece_interval(after.confidence, after.correct, after.group),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("records", nargs="?", type=Path, default=RECORDS)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--demo", type=Path, default=None, help="bench/answerability_demo.py's")
    args = parser.parse_args()
    embedder = CachedEmbedder(MiniLMEmbedder())
    records = refresh_records(args.records, embedder)  # features and subject check current
    model = load_answerability_model(args.model)
    threshold = model.threshold("answer")
    held_out = [r for r in records if split_of(r) == "test"]
    report: dict[str, Any] = {"threshold": threshold, "abstention": {}}
    for source in sorted({r["source"] for r in held_out}):
        part = [r for r in held_out if r["source"] == source]
        report["abstention"][source] = _abstention(part, model, threshold)
    report["abstention"]["pooled"] = _abstention(held_out, model, threshold)
    if args.demo is not None:
        demo = refresh_records(args.demo, embedder)
        report["abstention"]["demo"] = _abstention(demo, model, threshold)
    kept = decisions(held_out, model, threshold)
    answered = [r for r, a in zip(held_out, kept, strict=True) if a]
    calibrate = [r for r in records if split_of(r) != "test"]
    kept_cal = decisions(calibrate, model, threshold)
    answered_cal = [r for r, a in zip(calibrate, kept_cal, strict=True) if a]
    report["calibration"] = _calibration(answered_cal, answered)
    labels: dict[str, int] = {}
    for r in answered:
        if r["answer_correct"]:
            labels[r["label"]] = labels.get(r["label"], 0) + 1
    report["labels_on_correct_answers"] = labels
    print(json.dumps(report, indent=1, default=float))


if __name__ == "__main__":
    main()
