"""The sentence-choice recipe: real SQuAD and HaluEval examples, the split by paragraph,
a fit on real windows, and the shipped model matching this version's features."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.generate.sentence_choice import FEATURES, shipped_model
from ragcite.learn.model import load_models, models_to_json
from ragcite.train.sentences import (
    build_rows,
    evaluate,
    fit_choice,
    halueval_examples,
    heldout,
    holds_answer,
    squad_examples,
)


def test_squad_examples_are_the_answerable_questions_once_each() -> None:
    examples = squad_examples()
    assert len(examples) == 583  # the subset's answerable questions, deduplicated by id
    assert all(any(a in e.paragraphs[0] for a in e.answers) for e in examples)
    assert all(e.group == e.paragraphs[0] for e in examples)


def test_the_split_is_by_paragraph_so_no_paragraph_is_on_both_sides() -> None:
    examples = squad_examples() + halueval_examples(300)
    test = {e.group for e in examples if heldout(e.group, 13)}
    train = {e.group for e in examples if not heldout(e.group, 13)}
    assert test and train and not test & train
    assert 0.2 < len(test) / len(test | train) < 0.4


def test_holds_answer_ignores_case_and_spacing() -> None:
    assert holds_answer("It was founded in  the 10th century.", ("the 10th Century",))
    assert not holds_answer("It was founded long ago.", ("10th century",))


def test_a_fit_on_real_windows_beats_chance_and_writes_a_loadable_model(tmp_path: Path) -> None:
    rows = build_rows(halueval_examples(120), MiniLMEmbedder())
    model = fit_choice(rows[:80])
    report = evaluate(model, rows[80:])["halueval"]
    sentences = np.mean([len(labels) for _, _, labels in rows[80:]])
    assert report["top1_model"] > 1 / sentences + 0.1  # well above picking one at random
    path = tmp_path / "choice.json"
    path.write_text(models_to_json({"sentence_choice": model}, about="test"), encoding="utf-8")
    assert load_models(path)["sentence_choice"].features == FEATURES


def test_the_shipped_model_is_trained_on_this_versions_features() -> None:
    assert shipped_model().features == FEATURES
