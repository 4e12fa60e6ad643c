"""Which sentence answers the question: a small learned scorer over cheap signals.

The sentence most similar to the question often only restates it ("Uploads are limited to
50 MB"); the answer is often its neighbour ("Larger uploads are rejected with status 413").
Each candidate sentence gets signals that tell the two apart — its similarity and word
coverage (raw and relative to the best in the window), whether it holds the kind of answer
the question asks for (`focus`), how strongly its previous sentence matches the question,
whether it brings words the question lacks — and a logistic model trained by
`ragcite train sentences` on SQuAD 2.0 answer spans and HaluEval right answers (held out by
paragraph) turns them into the probability that it holds the answer. NumPy only at run time.

    >>> choice_scores("How long are invoices kept?", window)        # doctest: +SKIP
    array([0.08, 0.91, 0.12])
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from ragcite.generate.focus import focus_match, question_focus
from ragcite.learn.model import LearnedModel, load_models, require_features
from ragcite.text.table_rows import CELL_SEPARATOR, LABEL_SEPARATOR, is_table_row, row_cells
from ragcite.text.words import QUESTION_STOPWORDS, content_words

FEATURES = (
    "sem",
    "sem_gap",
    "coverage",
    "coverage_gap",
    "focus",
    "prev_coverage",
    "prev_sem_gap",
    "next_sem_gap",
    "chunk_gap",
    "chunk_rank",
    "is_row",
    "length",
    "novelty",
    "complement",
    "adjacent_best",
    "after_best",
    "new_names",
    "anaphor",
)
RETRAIN = "ragcite train sentences"
MODEL_NAME = "sentence_choice"

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class WindowSentence:
    """One sentence of the window: its text (with heading words for coverage), its cosine to
    the question, its chunk's position in the window, and its index within that chunk."""

    text: str
    heading: str
    similarity: float
    chunk_rank: int
    position: int


@lru_cache(maxsize=8192)
def stems(text: str) -> frozenset[str]:
    """The content words of `text`, cut to six letters ("retention", "retained" -> "retain");
    read once per sentence (the stages after retrieval read the same sentences)."""
    return frozenset(w[:6] for w in content_words(text, QUESTION_STOPWORDS))


def focused_row(row: str, question: str) -> str:
    """A table row cut to its label, the cells whose header the question names and the cells
    whose value holds one of its words, for comparing with the question ("Team — Users: 25"
    for "How many users does Team get?"; the roles beside the bonus for "how much referral
    bonus for a picker job?", where the roles name the row, not its label).

    >>> focused_row("Team — Storage: 100 GB; Users: 25", "How many users does Team allow?")
    'Team — Users: 25'
    """
    label, cells = row_cells(row)
    query = stems(question)
    named = [c for c in cells if query & stems(c.partition(":")[0])]
    if not named:
        return row
    naming = [c for c in cells if c not in named and query & stems(c.partition(":")[2])]
    kept = [c for c in cells if c in named or c in naming]
    return label + LABEL_SEPARATOR + CELL_SEPARATOR.join(kept)


# A name or a number: what a who / which / what question usually wants and lacks.
_NAME = re.compile(r"\b(?:[A-Z][\w'’-]+|\d[\d,.]*)")
# A sentence that opens by pointing back ("He", "Their eighth album", "The village").
_POINTS_BACK = re.compile(
    r"^\W*(?:he|she|it|this|that|these|those|they|such|his|her|its|their|there|the\s+\w+)\b",
    re.IGNORECASE,
)


def _names(text: str) -> set[str]:
    return {m.group().lower() for m in _NAME.finditer(text)}


def choice_features(
    question: str, window: Sequence[WindowSentence], own: Sequence[Set[str]] | None = None
) -> Matrix:
    """One row of `FEATURES` per sentence of `window` (sentences of one chunk in order);
    `own`: each sentence's `stems`, when the caller has them already."""
    if not window:
        return np.zeros((0, len(FEATURES)))
    query = stems(question)
    focus = question_focus(question)
    sems = np.array([s.similarity for s in window], dtype=np.float64)
    own = list(own) if own is not None else [stems(s.text) for s in window]
    heading_words = {h: stems(h) for h in {s.heading for s in window}}
    cover = np.array(
        [
            len(query & (w | heading_words[s.heading])) / len(query) if query else 0.0
            for w, s in zip(own, window, strict=True)
        ],
        dtype=np.float64,
    )
    chunk_best: dict[int, float] = {}
    for s in window:
        chunk_best[s.chunk_rank] = max(chunk_best.get(s.chunk_rank, -1.0), s.similarity)
    best_sem, best_cover = float(sems.max()), float(cover.max())
    best_chunk = max(chunk_best.values())
    index = {(s.chunk_rank, s.position): i for i, s in enumerate(window)}
    rows = []
    for i, s in enumerate(window):
        prev = index.get((s.chunk_rank, s.position - 1))
        nxt = index.get((s.chunk_rank, s.position + 1))
        rows.append(
            [
                sems[i],
                sems[i] - best_sem,
                cover[i],
                cover[i] - best_cover,
                focus_match(focus, s.text),
                cover[prev] if prev is not None else 0.0,
                sems[prev] - sems[i] if prev is not None else 0.0,
                sems[nxt] - sems[i] if nxt is not None else 0.0,
                chunk_best[s.chunk_rank] - best_chunk,
                float(s.chunk_rank),
                1.0 if is_table_row(s.text) else 0.0,
                math.log1p(len(own[i])),
                len(own[i] - query) / len(own[i]) if own[i] else 0.0,
            ]
        )
    features = np.array(rows, dtype=np.float64)
    return np.hstack([features, _bridge_features(question, window, sems, own)])


def _bridge_features(
    question: str, window: Sequence[WindowSentence], sems: Matrix, own: Sequence[Set[str]]
) -> Matrix:
    """The signals of an answer one step away from the sentence most like the question
    ("… released by 10 Years in 2006." then "Their eighth album, … As Ghosts, …"): the share
    of the question's words it covers that its chunk's most similar sentence lacks, whether
    it is next to (or right after) that sentence, the names and numbers it brings that the
    question lacks, and whether it opens by pointing back."""
    query, asked = stems(question), _names(question)
    best: dict[int, int] = {}
    for i, s in enumerate(window):
        j = best.get(s.chunk_rank)
        if j is None or sems[i] > sems[j]:
            best[s.chunk_rank] = i
    rows = []
    for i, s in enumerate(window):
        b = best[s.chunk_rank]
        step = s.position - window[b].position
        rows.append(
            [
                len((query & own[i]) - own[b]) / len(query) if query and b != i else 0.0,
                1.0 if abs(step) == 1 else 0.0,
                1.0 if step == 1 else 0.0,
                math.log1p(len(_names(s.text) - asked)),
                1.0 if _POINTS_BACK.match(s.text) else 0.0,
            ]
        )
    return np.array(rows, dtype=np.float64)


@lru_cache(maxsize=1)
def shipped_model() -> LearnedModel:
    """The packaged sentence-choice model (checked against this version's features)."""
    source = resources.files("ragcite.generate").joinpath("assets/sentence_choice.json")
    model = load_models(source, what="sentence-choice model", retrain=RETRAIN)[MODEL_NAME]
    require_features(model, FEATURES, what="sentence-choice model", retrain=RETRAIN)
    return model


def choice_scores(
    question: str,
    window: Sequence[WindowSentence],
    model: LearnedModel | None = None,
    *,
    own: Sequence[Set[str]] | None = None,
) -> Matrix:
    """Per sentence, the probability that it holds the answer to `question` (`own`: each
    sentence's `stems`, when the caller has them already)."""
    if not window:
        return np.zeros(0)
    return (model or shipped_model()).predict(choice_features(question, window, own))
