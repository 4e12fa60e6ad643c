"""`ragcite train rerank`: rebuild the learned reranker and its model card.

Builds a passage corpus from the HaluEval knowledge passages (one chunk each) in a real
embedded store, splits the questions by item into train / held-out, retrieves each
question's candidates with the real hybrid retriever, and fits the reranker on the train
questions' candidates (model choice on every fifth train question). Reports recall@1/@5
and MRR@10 on the held-out HaluEval questions, Factcheck-GPT, RGB and the demo questions,
for BM25, dense, hybrid RRF and hybrid followed by each reranker.

    >>> report = train_rerank(RerankOptions(model=Path("reranker_model.json")))
    >>> report["chosen"]                                                  # doctest: +SKIP
    'logistic C=10'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.learn.fit import fit_logistic, fit_trees, require_sklearn, rounded, with_calibration
from ragcite.learn.model import LearnedModel, models_to_json
from ragcite.rerank.base import Reranker
from ragcite.rerank.learned import FEATURES, LearnedReranker, rerank_features
from ragcite.rerank.sentence_similarity import SentenceSimilarityReranker
from ragcite.train.rerank_card import render_card
from ragcite.train.rerank_data import (
    Corpus,
    DiskCachedEmbedder,
    demo_corpus,
    factcheck_corpus,
    halueval_corpus,
    rgb_corpus,
)
from ragcite.train.rerank_eval import (
    Candidates,
    composite_mrr,
    evaluate,
    feature_rows,
    prefetch_sentences,
    retrieve_all,
    throughput,
)
from ragcite.train.support_data import require_datasets

SEED = 13
Fit = Callable[[np.ndarray, np.ndarray], LearnedModel]


@dataclass(frozen=True)
class RerankOptions:
    """Where `train_rerank` writes, what it caches and how many questions it uses."""

    model: Path  # the model file to write (the packaged one by default in the CLI)
    card: Path | None = None  # the model card to write (Markdown); None: no card
    cache: Path = Path("/tmp/ragcite-rerank")  # stores and vectors, reused by a rerun
    demo: Path = Path("demo")  # the demo documents (evaluation only)
    demo_questions: Path = Path("eval/demo.jsonl")
    train_questions: int = 2000
    heldout_questions: int = 1000
    throughput_questions: int = 30
    seed: int = SEED


def configs(seed: int) -> dict[str, Fit]:
    """The candidate models, chosen between by validation MRR@10."""

    def logistic(c: float) -> Fit:
        return lambda x, y: fit_logistic(x, y, features=FEATURES, c=c)

    def trees(depth: int) -> Fit:
        return lambda x, y: fit_trees(x, y, features=FEATURES, n_trees=100, depth=depth, seed=seed)

    return {
        "logistic C=0.1": logistic(0.1),
        "logistic C=1": logistic(1.0),
        "logistic C=10": logistic(10.0),
        "trees 100x depth 2": trees(2),
        "trees 100x depth 3": trees(3),
    }


def train_rerank(options: RerankOptions) -> dict[str, Any]:
    """Fit, write the model file (and card), and return the training report."""
    require_sklearn()
    require_datasets()
    options.cache.mkdir(parents=True, exist_ok=True)
    embedder = DiskCachedEmbedder(MiniLMEmbedder(), options.cache / "vectors.npz")
    print("corpora", flush=True)
    halueval = halueval_corpus(
        options.cache, embedder, options.train_questions, options.heldout_questions, options.seed
    )
    corpora = [
        halueval,
        factcheck_corpus(options.cache, embedder),
        rgb_corpus(options.cache, embedder),
        demo_corpus(options.cache, embedder, options.demo, options.demo_questions),
    ]
    print("retrieval", flush=True)
    embedder.embed([q.text for c in corpora for q in c.train + c.heldout])
    train = retrieve_all(halueval, halueval.train, embedder)
    heldout = {c.name: retrieve_all(c, c.heldout, embedder) for c in corpora}
    embedder.save()
    prefetch_sentences(train + [x for v in heldout.values() for x in v], embedder)
    print("training", flush=True)
    model, report = fit_chosen(train, embedder, options.seed)
    options.model.parent.mkdir(parents=True, exist_ok=True)
    about = f"ragcite learned reranker, built by `ragcite train rerank` (seed {options.seed})"
    options.model.write_text(models_to_json({"reranker": model}, about=about), encoding="utf-8")
    print(f"  chose {report['chosen']}; wrote {options.model}", flush=True)
    report.update(evaluate_heldout(model, heldout, embedder, options.throughput_questions))
    report.update(model_bytes=options.model.stat().st_size, corpus_size=_chunks(halueval))
    if options.card is not None:
        options.card.parent.mkdir(parents=True, exist_ok=True)
        options.card.write_text(render_card(report), encoding="utf-8")
    return report


def fit_chosen(
    train: list[Candidates], embedder: DiskCachedEmbedder, seed: int
) -> tuple[LearnedModel, dict[str, Any]]:
    """Every config fitted on 4 of 5 train questions and scored on the fifth; the best
    refitted on all of them, rounded (what ships is what is evaluated)."""
    started = time.perf_counter()
    x, y, groups = feature_rows(embedder, train)
    feature_seconds = time.perf_counter() - started
    fit_mask = groups % 5 != 0  # every fifth train question validates the model choice
    candidates = configs(seed)
    validation: dict[str, float] = {}
    for name, fit in candidates.items():
        model = fit(x[fit_mask], y[fit_mask])
        validation[name] = composite_mrr(model, x[~fit_mask], y[~fit_mask], groups[~fit_mask])
        print(f"  {name}: validation MRR@10 {validation[name]:.4f}", flush=True)
    chosen = max(validation, key=lambda k: validation[k])
    fit_started = time.perf_counter()
    model = candidates[chosen](x, y)
    fit_seconds = time.perf_counter() - fit_started
    trained_on = {
        "data": "HaluEval qa_train knowledge corpus, train questions",
        "seed": seed,
        "questions": len(train),
        "rows": len(y),
        "config": chosen,
    }
    model = rounded(with_calibration(model, trained_on=trained_on))
    return model, {
        "chosen": chosen,
        "kind": model.kind,
        "validation": validation,
        "train_questions": len(train),
        "rows": len(y),
        "feature_seconds": feature_seconds,
        "fit_seconds": fit_seconds,
    }


def evaluate_heldout(
    model: LearnedModel,
    heldout: dict[str, list[Candidates]],
    embedder: DiskCachedEmbedder,
    throughput_questions: int,
) -> dict[str, Any]:
    """The held-out table, and throughput cold (sentence embedding included) and warm."""
    print("held-out evaluation", flush=True)
    rerankers: dict[str, Reranker] = {
        "sentence-similarity": SentenceSimilarityReranker(embedder),
        "learned": LearnedReranker(embedder, model=model),
    }
    table = {name: evaluate(cands, rerankers) for name, cands in heldout.items()}
    embedder.save()
    sample = heldout["HaluEval"][:throughput_questions]
    speeds = {
        "sentence-similarity": throughput(SentenceSimilarityReranker, sample),
        "learned": throughput(lambda e: LearnedReranker(e, model=model), sample),
    }
    started = time.perf_counter()
    for cand in heldout["HaluEval"]:
        model.predict(rerank_features(cand.query.text, cand.hybrid, embedder))
    warm = sum(len(c.hybrid) for c in heldout["HaluEval"]) / (time.perf_counter() - started)
    counts = {name: len(c) for name, c in heldout.items()}
    return {"table": table, "speeds": speeds, "warm": warm, "counts": counts}


def _chunks(corpus: Corpus) -> int:
    return corpus.store.counts().chunks
