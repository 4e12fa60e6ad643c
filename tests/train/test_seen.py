"""Which shipped models saw a shared-data case: checked against the training loaders."""

from __future__ import annotations

from ragcite.embed.cached import CachedEmbedder
from ragcite.eval.datasets import load_halueval, split_of
from ragcite.train.answerability_data import halueval_cases
from ragcite.train.seen import (
    RERANK_TRAIN,
    SENTENCE_EXAMPLES,
    SUPPORT_ITEMS,
    halueval_seen,
    load_rows,
    unseen_halueval,
)
from ragcite.train.sentences import halueval_examples, heldout

ROWS = load_rows()
SEEN = halueval_seen(ROWS)


def test_the_support_checkers_training_items_are_seen() -> None:
    fitted = {p.group for p in load_halueval() if split_of(p) != "test"}
    assert {f"halueval:{i}" for i in range(SUPPORT_ITEMS) if "support" in SEEN[i]} == fitted


def test_the_sentence_choice_training_passages_are_seen() -> None:
    trained = {e.group for e in halueval_examples(SENTENCE_EXAMPLES) if not heldout(e.group, 13)}
    marked = {ROWS[i]["knowledge"] for i, names in enumerate(SEEN) if "sentence_choice" in names}
    assert marked == trained


def test_the_rerankers_training_questions_are_seen() -> None:
    assert sum("reranker" in names for names in SEEN) == RERANK_TRAIN


def test_unseen_items_are_seen_by_no_model_and_kept_in_file_order() -> None:
    items = unseen_halueval(50, ROWS)
    assert len(items) == 50 and items == sorted(items)
    assert all(not SEEN[i] for i in items)
    assert any(SEEN[i] for i in range(items[-1]) if i not in items)


def test_halueval_cases_of_chosen_items(embedder: CachedEmbedder) -> None:
    items = unseen_halueval(12, ROWS)
    cases = halueval_cases(embedder, items=items)
    assert [c.id for c in cases] == [f"halu-{i}" for i in items]
    pool = {f"halu-k{i}" for i in items}
    for case in cases:
        own = f"halu-k{case.id.removeprefix('halu-')}"
        assert {p[0] for p in case.passages} <= pool
        assert (own in {p[0] for p in case.passages}) == case.answerable
        assert case.gold == (frozenset({own}) if case.answerable else frozenset())
