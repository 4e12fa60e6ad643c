"""Fitting the answer decision (`ragcite.train.answer_decision`) on rows built to need one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ragcite.generate.answer_decision import FEATURES
from ragcite.learn.model import load_models
from ragcite.train.answer_decision import (
    Row,
    choose_threshold,
    cross_validated,
    fit_decision,
    fold_of,
    record_rows,
    totals,
)
from ragcite.train.answer_decision_card import write_decision
from tests.generate.chunks import passage_chunk

pytest.importorskip("sklearn")
FOLD_NAMES = ("16-46", "47-62", "63-74", "75-86", "87-98", "shared-fit", "shared-val")


def _rows(count: int, seed: int) -> list[Row]:
    """Questions whose answer is right when the chosen sentence is likely to hold it
    (`best_choice`), whatever its relevance, which the plain floor reads."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(count):
        choice, relevance = rng.uniform(0, 1), rng.uniform(0.28, 0.7)
        features = dict.fromkeys(FEATURES, 0.0) | {"relevance": relevance, "best_choice": choice}
        right = (choice > 0.5) != bool(rng.uniform(0, 1) < 0.05)  # 5% labelled the other way
        unanswerable = not right and bool(rng.uniform(0, 1) < 0.5)
        fold = FOLD_NAMES[i % len(FOLD_NAMES)]
        rows.append(Row(fold, features, unanswerable, True, right))
    return rows


def test_outcomes_count_declined_unanswerable_questions_as_right() -> None:
    features = dict.fromkeys(FEATURES, 0.5)
    unanswerable = Row("16-46", features, True, True, False)
    wrong = Row("16-46", features, False, True, False)
    declined_anyway = Row("16-46", features, False, False, False)
    assert unanswerable.outcome(True) == (0, 1) and unanswerable.outcome(False) == (1, 0)
    assert wrong.outcome(True) == (0, 1) and wrong.outcome(False) == (0, 0)
    assert declined_anyway.outcome(True) == (0, 0)
    assert totals([unanswerable, wrong], [False, True]) == (1, 1)


def test_rounds_fall_in_their_groups() -> None:
    assert [fold_of(n) for n in (16, 46, 47, 98, 99)] == [
        "16-46",
        "16-46",
        "47-62",
        "87-98",
        "other",
    ]


def test_records_answered_only_when_the_checks_let_them_through() -> None:
    decision = dict.fromkeys(FEATURES, 0.0) | {"relevance": 0.5}
    quote = "Primary caregivers receive 16 weeks of paid leave."
    chunk = passage_chunk("c_leave0001", quote, heading="Parental leave", title="Handbook")
    base = {
        "source": "squad2",
        "question": "How long is parental leave?",
        "quotes": [[quote, chunk.chunk_id]],
        "chunks": [chunk.model_dump(mode="json")],
        "subject_missing": [],
        "decision": decision,
    }
    records = [
        base | {"id": "a", "group": "g1", "answerable": True, "answer_correct": True},
        base | {"id": "b", "group": "g2", "answerable": False, "subject_missing": ["dental"]},
        base | {"id": "c", "group": "g3", "answerable": True, "decision": None},
    ]
    rows = record_rows(records)
    assert [r.answered for r in rows] == [True, False]
    assert rows[0].right and rows[1].unanswerable and rows[0].fold.startswith("shared-")


def test_the_fitted_decision_reads_what_the_floor_cannot() -> None:
    rows = _rows(700, seed=1)
    p = cross_validated(rows)
    right = np.array([r.right for r in rows])
    predicted = ~np.isnan(p)
    assert not predicted[[r.fold == "shared-fit" for r in rows]].any()
    assert p[right & predicted].mean() > 0.75 and p[~right & predicted].mean() < 0.25
    threshold = choose_threshold(rows, np.nan_to_num(p), floor=0.4)
    relevance = np.array([r.features["relevance"] for r in rows])
    rounds = [i for i, r in enumerate(rows) if not r.fold.startswith("shared")]
    at_floor = totals([rows[i] for i in rounds], [relevance[i] >= 0.4 for i in rounds])
    learned = totals([rows[i] for i in rounds], [p[i] >= threshold for i in rounds])
    assert learned[0] >= at_floor[0] and learned[1] < at_floor[1]


def test_the_written_model_loads_with_its_threshold_and_card(tmp_path: Path) -> None:
    rows = _rows(300, seed=2)
    result = {
        "model": fit_decision(rows),
        "rows": rows,
        "probabilities": np.nan_to_num(cross_validated(rows)),
        "threshold": 0.35,
        "floor": 0.4,
    }
    report = write_decision(tmp_path / "m.json", tmp_path / "card.md", result)
    model = load_models(tmp_path / "m.json")["answer"]
    assert model.thresholds == {"answer": 0.35} and model.features == FEATURES
    card = (tmp_path / "card.md").read_text()
    assert "| all |" in card and "| val |" in card
    assert report["rounds"]["all"]["questions"] == sum(
        not r.fold.startswith("shared") for r in rows
    )
