"""`ragcite train question-map`: fit the extractive generator's question map on blind rounds.

The blind rounds (`eval/rounds/rNN`: three documents an organisation would publish, written
for the check by people who never saw the code, and 40 questions in users' own words with the
string a right answer must hold) are asked through the real pipeline with the map off. Each
answerable question gives its window of candidate sentences, each sentence's rank without
the map and its stored vector, and which sentences hold an expected string. The map
`A = U Vᵀ` is fitted so that the candidates' ranks, with the plain cosine replaced by the
cosine with `normalise(q + A q)`, put a sentence holding the answer first (a softmax over
each question's candidates, L2 towards no map, L-BFGS), then cut to its leading singular
directions.

Rounds are split by number: those before 47 train, 47-54 choose the L2 strength, 55 and
later are held out and reported; the shipped map is refitted on train and choice rounds.

    $ ragcite train question-map --rounds eval/rounds
    …
    held-out rounds: top-1 0.591 -> 0.619 (252 questions); wrote …/question_adapter.npz and
    docs/models/question-map.md
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ragcite.generate.extractive import ExtractiveGenerator
from ragcite.generate.joining import rank
from ragcite.train.rounds import normalised, round_folders, round_questions, round_store

CHOICE_FROM, HELDOUT_FROM = 47, 55
STRENGTHS = (0.1, 0.03, 0.01)
TEMPERATURE = 0.05
KEPT_DIRECTIONS = 32
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Case:
    """One answerable question's candidates: the question's vector, theirs, their ranks
    without the cosine's part, and which hold an expected string."""

    round_number: int
    question: Matrix
    sentences: Matrix
    base: Matrix
    holds: npt.NDArray[np.bool_]


def round_cases(number: int, folder: Path, store: Path, weight: float) -> list[Case]:
    """The cases of one round, its documents ingested into `store` (kept for a rerun)."""
    with round_store(folder, store, {"generate.question_map": False}) as rag:
        generator = ExtractiveGenerator(rag.embedder, rag.settings.generate)
        cases = []
        for _, question, expected in round_questions(folder):
            chunks, _ = rag.search(question)
            asked, candidates = generator.candidates(question, chunks)
            holds = np.array([any(e in normalised(c.text) for e in expected) for c in candidates])
            if not expected or not holds.any() or holds.all():
                continue
            q = np.asarray(rag.embedder.embed([asked])[0], dtype=np.float64)
            sentences = np.asarray(
                rag.embedder.embed([c.text_in_context for c in candidates]), dtype=np.float64
            )
            base = np.array([rank(c) for c in candidates]) - weight * (sentences @ q)
            cases.append(Case(number, q, sentences, base, holds))
        return cases


def _ranks(a: Matrix, case: Case, weight: float) -> tuple[Matrix, Matrix, float]:
    moved = case.question + a @ case.question
    length = float(np.linalg.norm(moved))
    direction = moved / length
    return case.base + weight * (case.sentences @ direction), direction, length


def top1(a: Matrix, cases: Sequence[Case], weight: float) -> float:
    """The share of cases whose first-ranked candidate holds an expected string."""
    return float(np.mean([c.holds[np.argmax(_ranks(a, c, weight)[0])] for c in cases]))


def _loss(
    flat: Matrix, cases: Sequence[Case], weight: float, strength: float
) -> tuple[float, Matrix]:
    """Mean softmax loss of the answer-holding candidates, plus the L2 pull, and gradient."""
    size = cases[0].question.shape[0]
    a = flat.reshape(size, size)
    loss, grad = 0.0, np.zeros((size, size))
    for case in cases:
        ranks, direction, length = _ranks(a, case, weight)
        z = ranks / TEMPERATURE
        e = np.exp(z - z.max())
        kept = e * case.holds
        loss -= float(np.log(kept.sum() / e.sum()))
        d_ranks = (e / e.sum() - kept / kept.sum()) / TEMPERATURE
        d_direction = weight * (case.sentences.T @ d_ranks)
        d_moved = (d_direction - direction * (direction @ d_direction)) / length
        grad += np.outer(d_moved, case.question)
    loss = loss / len(cases) + strength * float((a * a).sum())
    return loss, (grad / len(cases) + 2 * strength * a).ravel()


def fit_map(cases: Sequence[Case], weight: float, strength: float) -> Matrix:
    """The full map A fitted on `cases` (needs SciPy, a dependency of the `[train]` extra)."""
    from scipy.optimize import minimize

    size = cases[0].question.shape[0]
    found = minimize(
        _loss,
        np.zeros(size * size),
        args=(cases, weight, strength),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 200},
    )
    return np.asarray(found.x).reshape(size, size)


def low_rank(a: Matrix, directions: int = KEPT_DIRECTIONS) -> tuple[Matrix, Matrix]:
    """U, V with `U Vᵀ` the best rank-`directions` approximation of `a`."""
    u, s, vt = np.linalg.svd(a)
    return u[:, :directions] * s[:directions], vt[:directions].T


def train_question_map(
    rounds: Path,
    workdir: Path,
    weight: float,
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Extract every round's cases, choose the L2 strength, refit and report; returns the
    factors and the report."""
    cases: list[Case] = []
    for number, folder in round_folders(rounds):
        cases += round_cases(number, folder, workdir / f"{folder.name}.db", weight)
        progress(f"round {number}: {len(cases)} cases so far")
    train = [c for c in cases if c.round_number < CHOICE_FROM]
    choice = [c for c in cases if CHOICE_FROM <= c.round_number < HELDOUT_FROM]
    heldout = [c for c in cases if c.round_number >= HELDOUT_FROM]
    none = np.zeros((train[0].question.shape[0],) * 2)
    tried = {}
    for strength in STRENGTHS:
        tried[strength] = top1(fit_map(train, weight, strength), choice, weight)
        progress(f"L2 {strength}: choice rounds top-1 {tried[strength]:.3f}")
    strength = max(tried, key=lambda s: tried[s])
    u, v = low_rank(fit_map(train + choice, weight, strength))
    mapped = u @ v.T
    report = {
        "cases": {"train": len(train), "choice": len(choice), "heldout": len(heldout)},
        "strength": strength,
        "choice_top1": {str(s): round(t, 4) for s, t in tried.items()},
        "choice_top1_without": round(top1(none, choice, weight), 4),
        "heldout_top1_without": round(top1(none, heldout, weight), 4),
        "heldout_top1_with": round(top1(mapped, heldout, weight), 4),
        "directions": KEPT_DIRECTIONS,
    }
    return {"u": u, "v": v, "report": report}


def write_map(path: Path, card: Path, result: dict[str, Any], weight: float) -> None:
    """The factors as the packaged `.npz`, and the model card."""
    np.savez_compressed(
        path,
        u=result["u"].astype(np.float32),
        v=result["v"].astype(np.float32),
        weight=np.float32(weight),
    )
    r = result["report"]
    card.parent.mkdir(parents=True, exist_ok=True)
    card.write_text(
        "# Question map (extractive generator)\n\n"
        "Built by `ragcite train question-map` from the blind rounds in `eval/rounds/` "
        "(`ragcite.train.question_map`): a rank-"
        f"{r['directions']} map of the question's MiniLM vector, `q + U (Vᵀ q)`, under which "
        "the generator's ranking puts a sentence holding the expected answer first.\n\n"
        "| rounds | questions | top-1 without the map | top-1 with it |\n|---|---|---|---|\n"
        f"| 16-46 (fitted) | {r['cases']['train']} | | |\n"
        f"| 47-54 (L2 strength chosen: {r['strength']}; fitted after) | {r['cases']['choice']} "
        f"| {r['choice_top1_without']:.3f} | "
        + ", ".join(f"{t:.3f} at {s}" for s, t in r["choice_top1"].items())
        + " (fitted on 16-46 only) |\n"
        f"| 55 and later (held out) | {r['cases']['heldout']} | {r['heldout_top1_without']:.3f} "
        f"| **{r['heldout_top1_with']:.3f}** |\n\n"
        "A case is an answerable question with at least one candidate sentence holding an "
        "expected string and one not; top-1 is the share whose first-ranked candidate holds "
        "one. Whether a question is answerable is still decided on the plain cosine.\n",
        encoding="utf-8",
    )
