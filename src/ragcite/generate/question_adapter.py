"""A learned low-rank map of the question's vector for choosing the sentence that answers.

MiniLM places a question near sentences that share its words, and users' questions seldom
share the words of the sentence that answers them ("when do I actually get paid for the
weeks my caravan has been rented out?" and "Hire income … is paid to owners … on the 15th of
the month following the stay"). A low-rank map of the question's vector, `q + U (Vᵀ q)`,
learned from questions and the sentences that answer them, moves it towards the answering
sentences' region; the stored sentence vectors do not change, so nothing is embedded again.
The generator ranks sentences by their cosine with the mapped question in place of the plain
one (`rank_shift`); whether the question is answerable is still decided on the plain cosine.

    >>> shift = rank_shift(question_vector, sentence_vectors)      # doctest: +SKIP
    array([ 0.012, -0.034, ...])
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ragcite.errors import ModelError

ASSET = "question_adapter.npz"
RETRAIN = "ragcite train question-map"
Vector = npt.NDArray[np.float32]


@cache
def _factors() -> tuple[Vector, Vector, float]:
    """U, V and the weight of the cosine in the generator's relevance, from the asset."""
    source = resources.files("ragcite.generate") / "assets" / ASSET
    try:
        with resources.as_file(source) as path, np.load(Path(path)) as data:
            return (
                data["u"].astype(np.float32),
                data["v"].astype(np.float32),
                float(data["weight"]),
            )
    except (OSError, KeyError, ValueError) as exc:
        raise ModelError(
            f"cannot read the question adapter {source} ({exc}); rebuild it with `{RETRAIN}`"
        ) from None


def mapped(question: Vector) -> Vector:
    """The question's vector through the learned map, unit length."""
    u, v, _ = _factors()
    moved = question + u @ (v.T @ question)
    return (moved / np.linalg.norm(moved)).astype(np.float32)


def rank_shift(question: Vector, sentences: Vector) -> Vector:
    """How much each sentence's rank moves when its cosine with the question is taken with
    the mapped question (`mapped`) instead of the plain one, at the cosine's weight in the
    generator's relevance."""
    _, _, weight = _factors()
    if len(sentences) == 0:
        return np.zeros(0, dtype=np.float32)
    shift = sentences @ mapped(question) - sentences @ question
    return (weight * shift).astype(np.float32)
