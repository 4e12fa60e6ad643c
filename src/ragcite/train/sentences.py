"""`ragcite train sentences`: fit the extractive generator's sentence-choice model.

Examples come from the shared data sets: SQuAD 2.0 answerable questions (the sentence that
holds a gold answer span is the answer; each window is the gold paragraph and the two other
paragraphs of its article most similar to the question) and HaluEval questions over their
knowledge passages (the sentence that holds the right answer). Paragraphs and passages are
split into train and held-out by a hash of their text, so no held-out question's paragraph
was seen in training. The held-out figure is the share of questions whose top-scored
sentence holds the answer, beside the plain cosine baseline.

    $ ragcite train sentences
    halueval: held-out top-1 0.749 (cosine 0.683, 458 questions)
    squad: held-out top-1 0.744 (cosine 0.671, 164 questions)
    wrote src/ragcite/generate/assets/sentence_choice.json
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.embed.base import Embedder
from ragcite.eval.datasets import DEFAULT_ROOT
from ragcite.generate.sentence_choice import (
    FEATURES,
    MODEL_NAME,
    WindowSentence,
    choice_features,
)
from ragcite.learn.fit import fit_logistic, require_sklearn, rounded
from ragcite.learn.model import LearnedModel, models_to_json
from ragcite.text.sentences import split_sentences

HELDOUT_SHARE = 0.3
_WINDOW_PARAGRAPHS = 3


@dataclass(frozen=True)
class Example:
    """A question over a window of paragraphs, with the answer-holding sentences marked."""

    question: str
    paragraphs: tuple[str, ...]  # the window, in the order a retriever would rank them
    answers: tuple[str, ...]
    group: str  # the answer paragraph: train and held-out never share one
    source: str


def heldout(group: str, seed: int) -> bool:
    digest = hashlib.sha256(f"{seed}:{group}".encode()).digest()[:8]
    return int.from_bytes(digest, "big") / 2**64 < HELDOUT_SHARE


def squad_examples(root: Path = DEFAULT_ROOT) -> list[Example]:
    """Answerable SQuAD 2.0 questions (deduplicated by id), grouped by paragraph."""
    seen: set[str] = set()
    out: list[Example] = []
    for name in ("part_a.json", "part_b.json"):
        data = json.loads((root / "squad2_subset" / name).read_text(encoding="utf-8"))
        for article in data["data"]:
            contexts = [p["context"] for p in article["paragraphs"]]
            for paragraph in article["paragraphs"]:
                for qa in paragraph["qas"]:
                    if qa["id"] in seen or qa.get("is_impossible") or not qa["answers"]:
                        continue
                    seen.add(qa["id"])
                    others = tuple(c for c in contexts if c != paragraph["context"])
                    out.append(
                        Example(
                            question=qa["question"],
                            paragraphs=(paragraph["context"], *others),
                            answers=tuple({a["text"] for a in qa["answers"]}),
                            group=paragraph["context"],
                            source="squad",
                        )
                    )
    return out


def halueval_examples(limit: int, root: Path = DEFAULT_ROOT) -> list[Example]:
    """HaluEval questions whose right answer appears verbatim in their knowledge passage."""
    out: list[Example] = []
    for line in (root / "halueval" / "qa_train.jsonl").read_text(encoding="utf-8").splitlines():
        if len(out) == limit:
            break
        row = json.loads(line) if line.strip() else None
        if row and row["right_answer"].lower() in row["knowledge"].lower():
            out.append(
                Example(
                    question=row["question"],
                    paragraphs=(row["knowledge"],),
                    answers=(row["right_answer"],),
                    group=row["knowledge"],
                    source="halueval",
                )
            )
    return out


def holds_answer(sentence: str, answers: tuple[str, ...]) -> bool:
    lowered = " ".join(sentence.lower().split())
    return any(" ".join(a.lower().split()) in lowered for a in answers)


def _window(example: Example, embedder: Embedder) -> tuple[list[WindowSentence], list[bool]]:
    """The example's sentences as the generator sees them, gold paragraph ranked in place."""
    question = embedder.embed([example.question])[0]
    sentences: list[tuple[int, int, str]] = []
    for p, paragraph in enumerate(example.paragraphs):
        for position, (a, b) in enumerate(split_sentences(paragraph)):
            sentences.append((p, position, paragraph[a:b]))
    sims = embedder.embed([s for _, _, s in sentences]) @ question
    best: dict[int, float] = {}
    for (p, _, _), sim in zip(sentences, sims, strict=True):
        best[p] = max(best.get(p, -1.0), float(sim))
    ranked = sorted(best, key=lambda p: -best[p])
    keep = set(ranked[:_WINDOW_PARAGRAPHS]) | {0}
    rank = {p: r for r, p in enumerate(sorted(keep, key=lambda p: -best[p]))}
    window, labels = [], []
    for (p, position, text), sim in zip(sentences, sims, strict=True):
        if p in keep:
            window.append(WindowSentence(text, "", float(sim), rank[p], position))
            labels.append(p == 0 and holds_answer(text, example.answers))
    return window, labels


def build_rows(
    examples: list[Example], embedder: Embedder
) -> list[tuple[Example, np.ndarray, np.ndarray]]:
    """(example, features, labels) for each example whose window holds an answer sentence."""
    rows = []
    for example in examples:
        window, labels = _window(example, embedder)
        if any(labels):
            rows.append((example, choice_features(example.question, window), np.array(labels)))
    return rows


def top1(rows: list[tuple[Example, np.ndarray, np.ndarray]], scores: list[np.ndarray]) -> float:
    hits = [bool(y[int(np.argmax(s))]) for (_, _, y), s in zip(rows, scores, strict=True)]
    return float(np.mean(hits)) if hits else 0.0


def fit_choice(
    rows: list[tuple[Example, np.ndarray, np.ndarray]], *, c: float = 1.0
) -> LearnedModel:
    """A logistic model on every sentence of the training windows."""
    require_sklearn()
    x = np.vstack([f for _, f, _ in rows])
    y = np.concatenate([labels for _, _, labels in rows]).astype(int)
    return rounded(fit_logistic(x, y, features=FEATURES, c=c))


def evaluate(
    model: LearnedModel, rows: list[tuple[Example, np.ndarray, np.ndarray]]
) -> dict[str, Any]:
    """Held-out top-1 (the best-scored sentence holds the answer), per source, vs cosine."""
    report: dict[str, Any] = {}
    sem = FEATURES.index("sem")
    for source in sorted({e.source for e, _, _ in rows}):
        part = [r for r in rows if r[0].source == source]
        report[source] = {
            "questions": len(part),
            "top1_model": round(top1(part, [model.predict(f) for _, f, _ in part]), 4),
            "top1_cosine": round(top1(part, [f[:, sem] for _, f, _ in part]), 4),
        }
    return report


def train_sentences(
    model_path: Path, embedder: Embedder, *, halueval_limit: int = 1500, seed: int = 13
) -> dict[str, Any]:
    """Fit on the training paragraphs, report on the held-out ones, write the model file."""
    examples = squad_examples() + halueval_examples(halueval_limit)
    rows = build_rows(examples, embedder)
    train = [r for r in rows if not heldout(r[0].group, seed)]
    test = [r for r in rows if heldout(r[0].group, seed)]
    model = fit_choice(train)
    report = {"train_questions": len(train), "heldout": evaluate(model, test)}
    about = (
        "ragcite extractive sentence choice: logistic regression over FEATURES, trained by "
        f"`ragcite train sentences` on SQuAD 2.0 subset answer spans (CC BY-SA 4.0) and "
        f"HaluEval QA right answers (MIT), held out by paragraph: {json.dumps(report)}"
    )
    model_path.write_text(models_to_json({MODEL_NAME: model}, about=about), encoding="utf-8")
    return report
