"""Whether the extractive generator answers at all: a learned decision over its candidates.

A fixed floor on the best sentence's relevance declines casual questions whose answer is
there ("How long will you keep my dry cleaning if I don't get round to collecting it?" reads
0.33 against "Please collect your items within 90 days …") and answers questions the
documents do not cover whose words resemble a sentence's. The learned decision reads more
of what the generator already computed: the best sentence's relevance and choice
probability, its move under the question map, the margin to the next sentence and to the
best sentence of another document, the top passage's retrieval scores, whether the sentence
is a table row the question names or gives the contact asked for, what kind of answer the
question asks for (`focus.FOCI`) and whether the sentence holds that kind (`focus_match`),
and how many of the question's words the sentence and the passages read hold. Boosted trees
that only rise with the relevance scores (`RISING`), fitted on the blind rounds' questions
and the shared data's fit split by `ragcite train answer-decision`
(`ragcite.train.answer_decision`); below `RESCUE_FLOOR` nothing is answered.

    >>> decide = learned_decision(0.4)                                # doctest: +SKIP
    >>> decide(decision_features(query, candidates, window, relevance))
    True

`generate.answer_decision = "floor"` keeps the plain floor (`generate.min_sentence_relevance`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from importlib import resources

from ragcite.config import GenerateSettings
from ragcite.errors import ModelError
from ragcite.generate.focus import FOCI, focus_match, question_focus
from ragcite.generate.joining import Candidate, rank
from ragcite.generate.sentence_choice import stems
from ragcite.learn.model import LearnedModel, load_models, require_features
from ragcite.models import SourceChunk
from ragcite.text.table_rows import is_table_row

ASSET = "answer_decision.json"
RETRAIN = "ragcite train answer-decision --rounds eval/rounds"
# Below this relevance no question is answered, whatever the model says: the rounds hold
# almost no right answers under it (7 of 33 questions between 0.20 and 0.28).
RESCUE_FLOOR = 0.28
FEATURES: tuple[str, ...] = (
    "relevance",
    "best_score",
    "best_choice",
    "best_shift",
    "best_row",
    "best_fit",
    "best_contact",
    "max_choice",
    "max_shifted",
    "top_passage_vector",
    "top_passage_reranker",
    "top_passage_confidence",
    "margin_next",
    "margin_other_document",
    "best_holds_kind",
    "best_covers",
    "window_covers",
    "question_words",
    *(f"asks_{focus}" for focus in FOCI),
)
# The model may only rise with these (a more relevant sentence never makes it decline).
RISING = frozenset({"relevance", "best_score", "max_shifted"})

Features = Mapping[str, float]
Decision = Callable[[Features], bool]


def decision_features(
    query: str, candidates: list[Candidate], window: list[SourceChunk], relevance: float
) -> dict[str, float]:
    """What the decision reads of `candidates` (scored for `query` over `window`), whose
    best relevance with its leeway is `relevance` (`extractive._relevance`)."""
    best = max(candidates, key=rank)
    top, *runner_up = heapq.nlargest(2, candidates, key=lambda c: c.score)
    top_document = window[top.chunk_rank].document_id
    other_document = [
        c.score for c in candidates if window[c.chunk_rank].document_id != top_document
    ]
    first = window[0]
    focus = question_focus(query)
    asked = stems(query) or {""}  # no words: one that no text holds (shares 0, never 0 / 0)
    around = set().union(*(_passage_stems(c.section_heading or "", c.chunk_text) for c in window))
    return {
        "relevance": relevance,
        "best_score": best.score,
        "best_choice": best.choice,
        "best_shift": best.shift,
        "best_row": float(is_table_row(best.text)),
        "best_fit": float(best.fit),
        "best_contact": float(best.contact),
        "max_choice": max(c.choice for c in candidates),
        "max_shifted": max(c.score + c.shift for c in candidates),
        "top_passage_vector": first.vector_similarity_score,
        "top_passage_reranker": first.reranker_score,
        "top_passage_confidence": first.composite_confidence,
        "margin_next": top.score - (runner_up[0].score if runner_up else 0.0),
        "margin_other_document": top.score - max(other_document, default=0.0),
        "best_holds_kind": focus_match(focus, best.text),
        "best_covers": len(asked & stems(best.text_in_context)) / len(asked),
        "window_covers": len(asked & around) / len(asked),
        "question_words": float(len(asked)),
        **{f"asks_{f}": float(focus == f) for f in FOCI},
    }


@lru_cache(maxsize=4096)
def _passage_stems(heading: str, text: str) -> frozenset[str]:
    """A passage's content words with its heading's (passages come back question after
    question: read once)."""
    return frozenset(stems(f"{heading} {text}"))


def decline_reason(features: Features) -> str:
    """Why the generator declined, in words, from what the decision read."""
    if features["relevance"] < RESCUE_FLOOR:
        return (
            "Not answered: no sentence of the passages found is close to the question; "
            "the closest sources are shown."
        )
    return (
        "Not answered: the sentences closest to the question do not read as its answer; "
        "the closest sources are shown."
    )


def deciding(settings: GenerateSettings) -> Decision:
    """The decision `settings` choose: learned (at `answer_threshold`, or the model's) or the
    plain floor (`min_sentence_relevance`)."""
    if settings.answer_decision == "learned":
        return learned_decision(settings.answer_threshold)
    return floor_decision(settings.min_sentence_relevance)


def floor_decision(floor: float) -> Decision:
    """Answer when the best relevance reaches `floor`."""
    return lambda features: features["relevance"] >= floor


def learned_decision(threshold: float | None = None) -> Decision:
    """Answer when the relevance reaches `RESCUE_FLOOR` and the learned probability that the
    answer is right reaches `threshold` (None: the model's own, chosen when it was fitted)."""
    model = _model()
    if threshold is None:
        threshold = model.thresholds["answer"]

    def decide(features: Features) -> bool:
        if features["relevance"] < RESCUE_FLOOR:
            return False
        return bool(model.predict(model.matrix([features]))[0] >= threshold)

    return decide


@cache
def _model() -> LearnedModel:
    source = resources.files("ragcite.generate") / "assets" / ASSET
    model = load_models(source, what="answer decision model", retrain=RETRAIN)["answer"]
    require_features(model, FEATURES, what="answer decision model", retrain=RETRAIN)
    if "answer" not in model.thresholds:
        raise ModelError(f"the answer decision model has no threshold; rebuild it with `{RETRAIN}`")
    return model
