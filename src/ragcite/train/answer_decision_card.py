"""The answer decision's report, packaged model file and model card
(`ragcite train answer-decision`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragcite.generate.answer_decision import RESCUE_FLOOR, RETRAIN
from ragcite.learn.fit import rounded, with_calibration
from ragcite.learn.model import models_to_json
from ragcite.train.answer_decision import (
    FOLDS,
    Row,
    abstention,
    floor_answers,
    learned_answers,
    totals,
)


def report(result: dict[str, Any]) -> dict[str, Any]:
    """Right and wrong answers per group of rounds and decline figures per shared split,
    for the plain floor and the learned decision at its threshold (cross-validated)."""
    rows: list[Row] = result["rows"]
    floor, threshold = result["floor"], result["threshold"]
    learned = learned_answers(rows, result["probabilities"], threshold)
    plain = floor_answers(rows, floor)
    groups = [f"{a}-{b}" for a, b in FOLDS]
    out: dict[str, Any] = {"threshold": threshold, "floor": floor, "rounds": {}, "shared": {}}
    for name, members in [*((g, (g,)) for g in groups), ("all", tuple(groups))]:
        inside = [i for i, r in enumerate(rows) if r.fold in members]
        part = [rows[i] for i in inside]
        out["rounds"][name] = {
            "questions": len(part),
            "floor": totals(part, [bool(plain[i]) for i in inside]),
            "learned": totals(part, [bool(learned[i]) for i in inside]),
        }
    for split in ("val", "test"):
        inside = [i for i, r in enumerate(rows) if r.fold == f"shared-{split}"]
        part = [rows[i] for i in inside]
        out["shared"][split] = {
            "questions": len(part),
            "floor": abstention(part, [bool(plain[i]) for i in inside]),
            "learned": abstention(part, [bool(learned[i]) for i in inside]),
        }
    return out


def _decline(figures: dict[str, float]) -> str:
    return (
        f"F1 {figures['f1']:.3f} (P {figures['precision']:.3f}, R {figures['recall']:.3f}), "
        f"answered {figures['answered_answerable']:.3f}"
    )


def write_decision(path: Path, card: Path, result: dict[str, Any]) -> dict[str, Any]:
    """The model, with its threshold, as the packaged JSON, and the model card; the report."""
    r = report(result)
    questions = sum(1 for row in result["rows"] if row.fold not in ("shared-val", "shared-test"))
    model = with_calibration(
        result["model"],
        thresholds={"answer": r["threshold"]},
        trained_on={"rounds": "eval/rounds", "shared": "fit split", "questions": questions},
    )
    about = f"whether the extractive generator answers; rebuild with `{RETRAIN}`"
    path.write_text(models_to_json({"answer": rounded(model)}, about=about), encoding="utf-8")
    lines = [
        "# Answer decision (extractive generator)",
        "",
        f"Built by `{RETRAIN}` (`ragcite.train.answer_decision`): whether the extractive "
        "generator answers, from what it computed for the question (`ragcite.generate."
        "answer_decision.FEATURES`). Boosted trees that only rise with the relevance scores, "
        f"fitted on {questions} questions (the blind rounds and the shared data's fit split); "
        f"below relevance {RESCUE_FLOOR} nothing is answered. Threshold **{r['threshold']}** "
        "(`choose_threshold`).",
        "",
        "Blind rounds, each group decided by a model fitted on the other groups; right and "
        f"wrong answers against the plain floor ({r['floor']}); a declined unanswerable "
        "question counts as right:",
        "",
        "| rounds | questions | floor: right / wrong | learned: right / wrong |",
        "|---|---|---|---|",
        *(
            f"| {name} | {f['questions']} | {f['floor'][0]} / {f['floor'][1]} | "
            f"{f['learned'][0]} / {f['learned'][1]} |"
            for name, f in r["rounds"].items()
        ),
        "",
        "Shared data (SQuAD 2.0, HaluEval, RGB), splits never fitted on; declining is the "
        "positive class:",
        "",
        "| split | questions | floor | learned |",
        "|---|---|---|---|",
        *(
            f"| {split} | {f['questions']} | {_decline(f['floor'])} | {_decline(f['learned'])} |"
            for split, f in r["shared"].items()
        ),
        "",
    ]
    card.parent.mkdir(parents=True, exist_ok=True)
    card.write_text("\n".join(lines), encoding="utf-8")
    return r
