"""Fitting the question map (`ragcite.train.question_map`) on cases built to need one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ragcite.train.question_map import Case, _loss, fit_map, low_rank, round_questions, top1

pytest.importorskip("scipy")
WEIGHT = 0.65


def _cases(count: int, seed: int) -> list[Case]:
    """Questions whose answering sentence lies along a fixed rotation of the question, among
    sentences that lie nearer the question itself: the plain cosine picks a wrong one."""
    rng = np.random.default_rng(seed)
    size = 8
    turn = np.linalg.qr(np.random.default_rng(0).normal(size=(size, size)))[0]
    cases = []
    for _ in range(count):
        q = rng.normal(size=size)
        q /= np.linalg.norm(q)
        answer = turn @ q
        near = [q + 0.6 * rng.normal(size=size) for _ in range(3)]
        sentences = np.array([answer, *near])
        sentences /= np.linalg.norm(sentences, axis=1, keepdims=True)
        holds = np.array([True, False, False, False])
        cases.append(Case(16, q, sentences, np.zeros(4), holds))
    return cases


def test_the_gradient_is_the_losss() -> None:
    cases = _cases(5, seed=1)
    rng = np.random.default_rng(2)
    a = 0.1 * rng.normal(size=64)
    _, grad = _loss(a, cases, WEIGHT, 0.01)
    step = 1e-6
    for i in rng.choice(64, size=6, replace=False):
        e = np.zeros(64)
        e[i] = step
        numeric = (_loss(a + e, cases, WEIGHT, 0.01)[0] - _loss(a - e, cases, WEIGHT, 0.01)[0]) / (
            2 * step
        )
        assert abs(numeric - grad[i]) < 1e-5


def test_a_fitted_map_ranks_held_out_answers_first() -> None:
    train, heldout = _cases(200, seed=3), _cases(100, seed=4)
    none = np.zeros((8, 8))
    fitted = fit_map(train, WEIGHT, 0.001)
    assert top1(fitted, heldout, WEIGHT) > top1(none, heldout, WEIGHT) + 0.2
    u, v = low_rank(fitted, directions=4)
    assert u.shape == v.shape == (8, 4)


def test_round_questions_read_expected_strings_and_unanswerables(tmp_path: Path) -> None:
    (tmp_path / "questions.tsv").write_text(
        "a01\tHow much is a day pass?\t£12 || twelve pounds\n"
        "u01\tIs there parking?\tUNANSWERABLE\n",
        encoding="utf-8",
    )
    assert round_questions(tmp_path) == [
        ("a01", "How much is a day pass?", ["£12", "twelve pounds"]),
        ("u01", "Is there parking?", []),
    ]
