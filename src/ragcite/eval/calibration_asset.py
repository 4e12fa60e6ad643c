"""Fit the packaged calibration map on end-to-end records and measure it held out.

    .venv/bin/python bench/calibration_records.py   # shared-data questions (slow, cached)
    .venv/bin/python bench/calibration_demo.py      # the demo set's questions
    .venv/bin/python -m ragcite.eval.calibration_asset [--write]

The records (JSON lines, see the two bench scripts) hold, per question, each claim's raw
blend, whether it is an exact, supported quote and whether it is correct (it quotes a gold
passage and holds the gold answer). Only answers the pipeline shows count: the generator
answered and the answer's evidence reaches `gate.min_overall_confidence`. Groups (SQuAD
paragraph, HaluEval item, RGB query, demo document) are split by a hash: 30% held out for
measurement (less the cases a shipped model was trained or tuned on, the record's `seen_by`,
which are set aside), the rest to fit the maps (isotonic, Platt or none, chosen by
cross-validated ECE): the claim map on the claims, then the answer maps on the answers
(their weakest claim's calibrated value → answer correct), one for answers of one claim and
one for answers of several. The report gives claim and answer ECE with 95% bootstrap
intervals (resampling groups) on the held-out part, raw, calibrated, and (answers) as the
weakest claim alone, with each level's AUC (right vs wrong), per source and pooled, and the
answer labels' distribution; `--write` stores the maps fitted on the fit part as the
packaged asset.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

from ragcite.config import ScoreSettings
from ragcite.eval.calibration import Points, ece_interval, fit_calibration
from ragcite.eval.metrics import roc_auc
from ragcite.score.calibration import CalibrationMaps, calibration_to_dict
from ragcite.score.confidence import (
    EVIDENCE_FLOOR,
    Calibration,
    answer_confidence,
    answer_evidence,
    lifted_label,
    weakest_label,
)

ROOT = Path(__file__).resolve().parents[3]
RECORDS = (
    ROOT / "bench" / "out" / "calibration_records.jsonl",
    ROOT / "bench" / "out" / "calibration_demo.jsonl",
)
ASSET = ROOT / "src" / "ragcite" / "score" / "assets" / "calibration.json"
HELD_OUT_BELOW = 30  # hash buckets of 100: [0, 30) held out
MIN_ANSWERS = 30  # fewer answers of a kind in the fit part: no answer map for that kind


def split_of(record: dict[str, Any]) -> str:
    """The split of a record by a stable hash of its group: "fit", or "test" for the
    held-out buckets, "aside" there when a shipped model saw the case (`seen_by`)."""
    bucket = int(hashlib.sha256(record["group"].encode()).hexdigest()[:8], 16) % 100
    if bucket >= HELD_OUT_BELOW:
        return "fit"
    return "aside" if record.get("seen_by") else "test"


def shown(record: dict[str, Any], settings: ScoreSettings) -> bool:
    """The pipeline shows this answer: the generator answered, and its evidence stands."""
    claims = record["claims"]
    if not record["generator_answered"] or not claims:
        return False
    values = [max(c["raw"], EVIDENCE_FLOOR) if c["exact_supported"] else c["raw"] for c in claims]
    return answer_evidence(values, record["chunk_mean"], settings) >= settings.low_from


def load_records(paths: tuple[Path, ...] = RECORDS) -> list[dict[str, Any]]:
    out = []
    for path in paths:
        out += [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    return out


def claim_points(records: list[dict[str, Any]], mapping: Calibration | None = None) -> Points:
    conf, ok, group = [], [], []
    for r in records:
        for c in r["claims"]:
            conf.append(mapping(c["raw"]) if mapping is not None else c["raw"])
            ok.append(bool(c["correct"]))
            group.append(r["group"])
    return Points(conf, ok, group)


def answer_points(records: list[dict[str, Any]], mapping: Calibration | None = None) -> Points:
    """(answer confidence, answer correct), as `score_answer` computes it: the weakest
    claim's confidence, through the answer maps when `mapping` has them."""
    return Points(
        [answer_confidence(claim_points([r], mapping).confidence, mapping) for r in records],
        [bool(r["answer_correct"]) for r in records],
        [r["group"] for r in records],
    )


def answer_label(record: dict[str, Any], mapping: Calibration, settings: ScoreSettings) -> str:
    """The answer's label as `score.confidence.answer_label` gives it, from a record."""
    claims = [
        lifted_label(mapping(c["raw"]), c["exact_supported"], settings) for c in record["claims"]
    ]
    value = answer_points([record], mapping).confidence[0]
    exact = all(c["exact_supported"] for c in record["claims"])
    return str(weakest_label([lifted_label(value, exact, settings), *claims]))


def label_counts(
    records: list[dict[str, Any]], mapping: Calibration, settings: ScoreSettings
) -> dict[str, dict[str, int]]:
    """Answer labels on correct and on wrong answers."""
    out: dict[str, dict[str, int]] = {"correct": {}, "wrong": {}}
    for r in records:
        label = answer_label(r, mapping, settings)
        side = out["correct" if r["answer_correct"] else "wrong"]
        side[label] = side.get(label, 0) + 1
    return out


def split_counts(records: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Records per source and split ("fit", "test", "aside": held-out buckets a shipped
    model saw)."""
    out: dict[str, dict[str, int]] = {}
    for r in records:
        side = out.setdefault(r["source"], {"fit": 0, "test": 0, "aside": 0})
        side[split_of(r)] += 1
    return out


def _auc(points: Points) -> float:
    return roc_auc(points.confidence, points.correct)


def _measure(records: list[dict[str, Any]], maps: CalibrationMaps) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for level, points in (("claim", claim_points), ("answer", answer_points)):
        calibrated = points(records, maps)
        out[level] = {
            "raw": ece_interval(points(records)),
            "calibrated": ece_interval(calibrated),
            "auc_raw": _auc(points(records)),
            "auc_calibrated": _auc(calibrated),
        }
    out["answer"]["weakest_claim"] = ece_interval(answer_points(records, maps.claim))
    return out


def fit_maps(fit: list[dict[str, Any]]) -> tuple[CalibrationMaps, dict[str, str]]:
    """The claim map, then the answer maps (one claim, several), each with its method; an
    answer map whose method is "identity", or fitted on fewer than `MIN_ANSWERS` answers, is
    left out (the weakest claim's value stands)."""
    claim, method = fit_calibration(claim_points(fit))
    methods = {"claim": method}
    answer = {}
    for name, part in (
        ("one_claim", [r for r in fit if len(r["claims"]) == 1]),
        ("several_claims", [r for r in fit if len(r["claims"]) > 1]),
    ):
        if len(part) < MIN_ANSWERS:
            methods[name] = f"none ({len(part)} answers)"
            continue
        mapping, methods[name] = fit_calibration(answer_points(part, claim))
        if methods[name] != "identity":
            answer[name] = mapping
    return CalibrationMaps(claim, **answer), methods


def report(
    records: list[dict[str, Any]], settings: ScoreSettings
) -> tuple[CalibrationMaps, dict[str, Any]]:
    """The maps fitted on the fit part, and their held-out report (see the module doc)."""
    kept = [r for r in records if shown(r, settings)]
    fit = [r for r in kept if split_of(r) == "fit"]
    test = [r for r in kept if split_of(r) == "test"]
    maps, methods = fit_maps(fit)
    out: dict[str, Any] = {
        "methods": methods,
        "fit": {"answers": len(fit), "claims": len(claim_points(fit).confidence)},
        "answers_by_split": split_counts(kept),
        "held_out": {"pooled": _measure(test, maps)},
    }
    out["held_out"]["pooled"]["labels"] = label_counts(test, maps, settings)
    for source in sorted({r["source"] for r in test}):
        part = [r for r in test if r["source"] == source]
        out["held_out"][source] = _measure(part, maps)
        out["held_out"][source]["labels"] = label_counts(part, maps, settings)
    return maps, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="*", type=Path, default=list(RECORDS))
    parser.add_argument("--write", action="store_true", help=f"write the maps to {ASSET}")
    args = parser.parse_args()
    settings = ScoreSettings()
    mapping, result = report(load_records(tuple(args.records)), settings)
    print(json.dumps(result, indent=1, default=float))
    if args.write:
        payload = {
            **calibration_to_dict(mapping),
            "fitted_on": "end-to-end shared-data and demo questions, fit split "
            "(python -m ragcite.eval.calibration_asset)",
            "held_out_claim_ece": result["held_out"]["pooled"]["claim"]["calibrated"]["ece"],
            "held_out_answer_ece": result["held_out"]["pooled"]["answer"]["calibrated"]["ece"],
        }
        ASSET.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {ASSET}")


if __name__ == "__main__":
    main()
