"""Layer 4: the small learned model that turns the layers' signals into P(supported).

The shipped file holds one model per variant ("semantic", "static", "lexical"), each a
`ragcite.learn` model: logistic regression or boosted trees over the signals, Platt-scaled
on validation data, with the `supported` and `partial` verdict thresholds chosen there.
`ragcite train support` rebuilds it; scoring needs NumPy only.

    >>> models = load_support_models()
    >>> models["lexical"].predict(models["lexical"].matrix([{"lex_overlap": 1.0}]))
    array([0.57...])
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ragcite.errors import ModelError
from ragcite.learn.model import LearnedModel, load_models

MODEL_FILE = "assets/support_model.json"
RETRAIN = "ragcite train support"
THRESHOLDS = ("supported", "partial")


def load_support_models(path: Path | None = None) -> dict[str, LearnedModel]:
    """The shipped models by variant: "semantic", "static" (both need an embedder) and
    "lexical"; or the ones in the file at `path`."""
    source = path or resources.files("ragcite.verify.support").joinpath(MODEL_FILE)
    models = load_models(source, what="support model", retrain=RETRAIN)
    for name, model in models.items():
        missing = [t for t in THRESHOLDS if t not in model.thresholds]
        if missing:
            raise ModelError(
                f"support model {name!r} in {source} has no {' or '.join(missing)} threshold; "
                f"rebuild it with `{RETRAIN}`"
            )
    return models
