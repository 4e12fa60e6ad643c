"""`ragcite train answer-decision`: fit whether the extractive generator answers.

Two sources of questions, each with what the decision reads (`decision_features`) and how
the answer came out when the generator answers from `RESCUE_FLOOR`: right, wrong, a
question the documents do not answer that was answered, or declined by the checks after the
generator (then the decision changes nothing). A question is a positive when its answer is
right.
- The blind rounds (`eval/rounds/rNN`: policy documents and users' questions), asked through
  the real pipeline with a decision that records; right = an expected string is quoted.
- The shared data's answerability records (SQuAD 2.0, HaluEval, RGB, `bench/
  answerability_records.py`), split by paragraph; right = a gold passage holding a gold
  answer is quoted. Their validation and test splits are never fitted on.

Boosted trees monotone in the relevance scores (`learn.constrained.fit_monotone_trees`) are
cross-validated: each group of rounds predicted by a model fitted on the other groups and
the shared fit split, the shared validation and test splits by one fitted on every round
and the fit split. The threshold is chosen on those predictions of the rounds and the
validation split (`choose_threshold`: a wrong answer costs a team more than a decline), and
the shipped model is refitted on every row but the validation and test splits.

    $ python bench/answerability_records.py
    $ ragcite train answer-decision --rounds eval/rounds --workdir runs/rounds
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.generate.answer_decision import (
    FEATURES,
    RESCUE_FLOOR,
    RISING,
    Features,
)
from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.learn.constrained import fit_monotone_trees
from ragcite.learn.model import LearnedModel
from ragcite.train.answerability import abstention_scores, checks_of, split_of
from ragcite.train.rounds import normalised, round_folders, round_questions, round_store

# Groups of rounds for cross-validation, by how they were written and used (bench/blind_rounds).
FOLDS = ((16, 46), (47, 62), (63, 74), (75, 86), (87, 98))
THRESHOLDS = (0.25, 0.3, 0.325, 0.35, 0.375, 0.4, 0.45, 0.5)
# The shared data's splits no model is fitted on but the one that predicts them.
HELD_OUT = ("shared-val", "shared-test")
WRONG_COST = 0.5  # a wrong answer, in right answers, when no threshold keeps the floor's
# How much fewer of the answerable validation questions the decision may answer than the floor.
ANSWERED_SLACK = 0.02


@dataclass(frozen=True)
class Row:
    """One question: what the decision read, and how the answer came out when answered."""

    fold: str  # a group of rounds (`FOLDS`) or a split of the shared data ("shared-test")
    features: Features
    unanswerable: bool
    answered: bool  # by the whole pipeline, the generator answering at `RESCUE_FLOOR`
    right: bool

    def outcome(self, answer: bool) -> tuple[int, int]:
        """(right, wrong) for this question when the decision answers or not."""
        if not answer or not self.answered:
            return int(self.unanswerable), 0
        return int(self.right), int(not self.right)


def fold_of(number: int) -> str:
    """The group of rounds (`FOLDS`) round `number` belongs to ("16-46"; "other" outside)."""
    return next((f"{a}-{b}" for a, b in FOLDS if a <= number <= b), "other")


class _Recorder:
    """A decision that answers from `RESCUE_FLOOR` and keeps what it read last."""

    def __init__(self) -> None:
        self.last: Features | None = None

    def __call__(self, features: Features) -> bool:
        self.last = features
        return features["relevance"] >= RESCUE_FLOOR


def round_rows(number: int, folder: Path, store: Path) -> list[Row]:
    """The rows of one round, its documents ingested into `store` (kept for a rerun)."""
    with round_store(folder, store, {"generate.answer_decision": "floor"}) as rag:  # recorded
        if not isinstance(rag.generator, ExtractiveGenerator):
            raise SystemExit(
                "the answer decision is the extractive generator's: unset generate.llm"
            )
        recorder = _Recorder()
        rag.generator.decision = recorder
        rows: list[Row] = []
        for _, question, expected in round_questions(folder):
            recorder.last = None
            response = rag.ask(question)
            if recorder.last is None:  # nothing retrieved: no decision to learn from
                continue
            said = normalised(" ".join(c.claim_text for c in response.cited_claims))
            right = bool(expected) and any(e in said for e in expected)
            rows.append(
                Row(fold_of(number), recorder.last, not expected, response.answerable, right)
            )
        return rows


def _matrix(rows: Sequence[Row]) -> np.ndarray:
    return np.array([[r.features[f] for f in FEATURES] for r in rows], dtype=np.float64)


def fit_decision(rows: Sequence[Row]) -> LearnedModel:
    """The model on the rows the pipeline answered (the others teach nothing)."""
    kept = [r for r in rows if r.answered]
    return fit_monotone_trees(
        _matrix(kept),
        np.array([r.right for r in kept], dtype=np.int64),
        features=FEATURES,
        signs=[1 if f in RISING else 0 for f in FEATURES],
        learning_rate=0.05,
    )


def totals(rows: Sequence[Row], answers: Sequence[bool]) -> tuple[int, int]:
    """(right, wrong) over `rows` when the decision answers as `answers` says."""
    right = wrong = 0
    for row, answer in zip(rows, answers, strict=True):
        r, w = row.outcome(answer)
        right, wrong = right + r, wrong + w
    return right, wrong


def record_rows(records: Sequence[dict[str, Any]]) -> list[Row]:
    """Rows from the shared data's answerability records (`answerability_run`), in their
    split ("shared-fit", "shared-val", "shared-test"): answered when the generator has
    quotes at `RESCUE_FLOOR` that the subject and reading checks let through; right when
    an answer quotes a gold passage holding a gold answer."""
    checks = checks_of(list(records))
    rows = []
    for r in records:
        features = r.get("decision")
        if not features:
            continue
        answered = bool(r.get("quotes")) and features["relevance"] >= RESCUE_FLOOR
        rows.append(
            Row(
                f"shared-{split_of(r)}",
                features,
                not r["answerable"],
                answered and not checks.get(r["id"]),
                bool(r.get("answer_correct")),
            )
        )
    return rows


def cross_validated(rows: Sequence[Row]) -> np.ndarray:
    """Each row's probability from a model fitted on other rows: a group of rounds from the
    other groups and the shared data's fit split; the shared validation and test splits
    from every round and the fit split (NaN: the fit split, never predicted)."""
    out = np.full(len(rows), np.nan)
    groups = [(f"{a}-{b}",) for a, b in FOLDS] + [HELD_OUT]
    for group in groups:
        inside = np.array([r.fold in group for r in rows])
        if not inside.any():
            continue
        train = [r for r, i in zip(rows, inside, strict=True) if not i and r.fold not in HELD_OUT]
        model = fit_decision(train)
        out[inside] = model.predict(_matrix([r for r, i in zip(rows, inside, strict=True) if i]))
    return out


def abstention(rows: Sequence[Row], answers: Sequence[bool]) -> dict[str, float]:
    """Decline precision, recall and F1, and the share of answerable questions answered."""
    return abstention_scores(
        [r.answered and a for r, a in zip(rows, answers, strict=True)],
        [not r.unanswerable for r in rows],
    )


def learned_answers(rows: Sequence[Row], p: np.ndarray, threshold: float) -> np.ndarray:
    """Whether the learned decision answers each row at `threshold`, its probabilities `p`."""
    relevance = np.array([r.features["relevance"] for r in rows])
    return (p >= threshold) & (relevance >= RESCUE_FLOOR)


def floor_answers(rows: Sequence[Row], floor: float) -> np.ndarray:
    """Whether the plain relevance floor answers each row."""
    return np.array([r.features["relevance"] >= floor for r in rows])


def choose_threshold(rows: Sequence[Row], p: np.ndarray, floor: float) -> float:
    """The threshold with the fewest wrong answers on the rounds among those that keep the
    floor's right answers there and, on the shared validation split, decline at least as
    well (F1) and answer as many answerable questions within `ANSWERED_SLACK`; the one
    with most right answers minus `WRONG_COST` × wrong ones when none does."""
    rounds = [i for i, r in enumerate(rows) if not r.fold.startswith("shared")]
    val = [i for i, r in enumerate(rows) if r.fold == "shared-val"]

    def on(indices: list[int], answers: np.ndarray) -> tuple[tuple[int, int], dict[str, float]]:
        part = [rows[i] for i in indices]
        chosen = [bool(answers[i]) for i in indices]
        return totals(part, chosen), abstention(part, chosen)

    at_floor = floor_answers(rows, floor)
    floor_right = on(rounds, at_floor)[0][0]
    floor_val = on(val, at_floor)[1] if val else None
    learned = {t: learned_answers(rows, p, t) for t in THRESHOLDS}
    scored = {t: on(rounds, answers)[0] for t, answers in learned.items()}
    checked = {t: on(val, answers)[1] for t, answers in learned.items()}
    keeping = [
        t
        for t in THRESHOLDS
        if scored[t][0] >= floor_right
        and (
            floor_val is None
            or (
                checked[t]["f1"] >= floor_val["f1"]
                and checked[t]["answered_answerable"]
                >= floor_val["answered_answerable"] - ANSWERED_SLACK
            )
        )
    ]
    if keeping:
        return min(keeping, key=lambda t: scored[t][1])
    return max(THRESHOLDS, key=lambda t: scored[t][0] - WRONG_COST * scored[t][1])


def train_answer_decision(
    rounds: Path,
    workdir: Path,
    records: Sequence[dict[str, Any]],
    floor: float,
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Ask every round, add the shared data's `records`, cross-validate, choose the
    threshold, refit on every row but the shared validation and test splits; the model,
    the rows and their cross-validated probabilities. `floor` is the plain relevance floor
    compared with."""
    rows: list[Row] = []
    for number, folder in round_folders(rounds):
        rows += round_rows(number, folder, workdir / f"{folder.name}.db")
        progress(f"round {number}: {len(rows)} questions so far")
    rows += record_rows(records)
    p = cross_validated(rows)
    return {
        "model": fit_decision([r for r in rows if r.fold not in HELD_OUT]),
        "rows": rows,
        "probabilities": p,
        "threshold": choose_threshold(rows, p, floor),
        "floor": floor,
    }
