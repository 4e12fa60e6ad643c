"""The one learned-model runtime and file format: the shipped models, errors, round trips."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ragcite.errors import ModelError
from ragcite.learn.model import FORMAT, LearnedModel, load_models, models_to_json
from ragcite.rerank.learned import load_model, packaged_model_path
from ragcite.verify.support.learned import load_support_models

# Scores the shipped models gave on fixed rows when they were written; a change here means
# the shipped model or the runtime changed (a retrain updates these values on purpose).
RERANK_ROWS = [
    [0.97, 0.954, 0.879, -0.056, -0.369, 1.109, 0.543, -0.496, 1.048, 1.174, -0.013, 0.883],
    [-0.36, 0.245, 0.89, 0.195, 0.38, -0.301, 0.884, 0.346, -0.078, 0.82, 1.165, 0.415],
    [0.753, 1.188, -0.449, 0.518, 1.144, -0.301, -0.121, 0.435, 0.728, 0.44, 0.431, -0.412],
]
RERANK_SCORES = [0.01497231215317369, 0.9841605502283268, 0.9999994732528182]


def _row(numbers: str) -> list[float]:
    return [float(n) for n in numbers.split()]


SUPPORT_ROWS = {
    "semantic": [
        _row("0.739 0.321 0.074 0.958 0.66 0.456 0.733 0.478 0.125 0.605 0.747 0.744 0.552 0.928"),
        _row("0.946 0.875 0.372 0.268 0.53 0.654 0.161 0.559 0.439 0.002 0.419 0.4 0.963 0.055"),
    ],
    "static": [
        _row("0.929 0.908 0.6 0.187 0.791 0.162 0.321 0.666 0.425 0.461 0.303 0.037 0.361 0.827"),
        _row("0.83 0.081 0.553 0.354 0.399 0.988 0.809 0.507 0.507 0.917 0.375 0.782 0.73 0.737"),
    ],
    "lexical": [
        [0.456, 0.685, 0.837, 0.296, 0.763, 0.482, 0.534, 0.465, 0.375, 0.752, 0.392, 0.181],
        [0.788, 0.4, 0.579, 0.982, 0.648, 0.524, 0.284, 0.709, 0.96, 0.708, 0.77, 0.318],
    ],
}
SUPPORT_SCORES = {
    "semantic": [0.3285825714811607, 0.18974887906153112],
    "static": [0.22441269126449226, 0.3416343964787265],
    "lexical": [0.2615958634033158, 0.39060263636079223],
}


def test_the_shipped_reranker_scores_as_recorded() -> None:
    scores = load_model().predict(np.array(RERANK_ROWS))
    np.testing.assert_allclose(scores, RERANK_SCORES, rtol=1e-12)


def test_the_shipped_support_models_score_as_recorded() -> None:
    models = load_support_models()
    assert set(models) == set(SUPPORT_SCORES)
    for name, rows in SUPPORT_ROWS.items():
        scores = models[name].predict(np.array(rows))
        np.testing.assert_allclose(scores, SUPPORT_SCORES[name], rtol=1e-12)
        assert 0 < models[name].threshold("partial") <= models[name].threshold("supported") < 1


def test_both_shipped_files_share_one_format() -> None:
    support = Path(str(packaged_model_path())).parents[2] / "verify/support/assets"
    for path in (packaged_model_path(), support / "support_model.json"):
        assert json.loads(path.read_text(encoding="utf-8"))["format"] == FORMAT


def test_a_model_survives_a_round_trip_through_its_file(tmp_path: Path) -> None:
    stump = {
        "feature": [0, -2, -2],
        "threshold": [0.5, -2.0, -2.0],
        "left": [1, -1, -1],
        "right": [2, -1, -1],
        "value": [0.0, -1.0, 1.0],
    }
    models = {
        "trees": LearnedModel.from_dict(
            {
                "features": ["a", "b"],
                "kind": "trees",
                "mean": [0.5, 0.0],
                "scale": [2.0, 1.0],
                "init": 0.1,
                "learning_rate": 0.5,
                "trees": [stump],
                "thresholds": {"keep": 0.6},
            }
        ),
        "logistic": LearnedModel.from_dict(
            {"features": ["a", "b"], "kind": "logistic", "weights": [1.0, -2.0], "bias": 0.5}
        ),
    }
    path = tmp_path / "models.json"
    path.write_text(models_to_json(models, about="test"), encoding="utf-8")
    loaded = load_models(path)
    x = np.array([[0.0, 1.0], [3.0, -1.0]])
    for name, model in models.items():
        np.testing.assert_array_equal(loaded[name].predict(x), model.predict(x))
    # Standardised, the first row falls left of the stump: 0.1 + 0.5 * -1.
    assert loaded["trees"].margin(x)[0] == pytest.approx(-0.4)
    assert loaded["logistic"].predict(x)[0] == pytest.approx(1 / (1 + np.exp(1.5)))
    assert loaded["trees"].threshold("keep") == 0.6


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot read"),
        (json.dumps({"format": "ragcite-reranker/1"}), "format 'ragcite-reranker/1'"),
        (json.dumps({"format": FORMAT, "models": {}}), "holds no models"),
        (
            json.dumps({"format": FORMAT, "models": {"m": {"features": ["a"], "kind": "svm"}}}),
            "model 'm': unknown model kind 'svm'",
        ),
        (
            json.dumps(
                {
                    "format": FORMAT,
                    "models": {"m": {"features": ["a"], "kind": "logistic", "weights": [1, 2]}},
                }
            ),
            "`weights` has 2 values for 1 features",
        ),
        (
            json.dumps({"format": FORMAT, "models": {"m": {"kind": "logistic"}}}),
            "malformed model entry",
        ),
    ],
)
def test_bad_model_files_name_the_problem_and_the_fix(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "model.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ModelError, match=message) as caught:
        load_models(path, what="reranker model", retrain="ragcite train rerank")
    assert "rebuild it with `ragcite train rerank`" in str(caught.value)


def test_a_missing_threshold_is_named() -> None:
    model = LearnedModel.from_dict({"features": ["a"], "kind": "logistic", "weights": [1.0]})
    with pytest.raises(ModelError, match="no 'supported' threshold"):
        model.threshold("supported")


def test_rows_of_the_wrong_width_are_refused() -> None:
    model = LearnedModel.from_dict({"features": ["a"], "kind": "logistic", "weights": [1.0]})
    with pytest.raises(ModelError, match="1 features per row"):
        model.predict(np.zeros((2, 3)))
