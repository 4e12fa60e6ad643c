"""Which shipped models were trained or tuned on a case of `train.answerability_data`.

A held-out measurement (the calibration records) may use only cases that no shipped model
saw. Each rule restates the split of the command that built the shipped asset (all with
seed 13, the commands' defaults):

* `support` (`ragcite train support`): HaluEval items 0-2,999 (`eval.datasets.load_halueval`)
  and the RGB queries, fitted on the train split and tuned on the validation split of
  `eval.datasets.split_of` (groups `halueval:{i}`, `rgb:{id}`); its extractive-style
  pairs (`eval.extractive`: every SQuAD paragraph and HaluEval items 3,000-3,999) join the
  validation split by the same rule. The per-source cap is ignored: every item in those
  splits counts as seen.
* `sentence_choice` (`ragcite train sentences`): the SQuAD paragraphs and the first 1,500
  HaluEval items whose right answer is in their passage, outside `train.sentences.heldout`
  (keyed by the paragraph or passage text).
* `reranker` (`ragcite train rerank`): its 2,000 HaluEval training questions
  (`train.rerank_data.halueval_question_split`).
* `answerability` (`ragcite.train.answerability`): the records of
  bench/answerability_records.py (SQuAD, HaluEval items 0-599, RGB) outside hash buckets
  [0, 30) of their group, the buckets the calibration records hold out too.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ragcite.eval.datasets import DEFAULT_ROOT, SupportPair, split_of
from ragcite.eval.extractive import HALUEVAL_FIRST
from ragcite.train.answerability import TEST_BELOW
from ragcite.train.answerability_data import Case, bucket
from ragcite.train.rerank_data import halueval_question_split
from ragcite.train.sentences import heldout

SEED = 13
SUPPORT_ITEMS = HALUEVAL_FIRST  # load_halueval's default limit
EXTRACTIVE_ITEMS = 1000  # load_extractive's default limit
SENTENCE_EXAMPLES = 1500  # `ragcite train sentences --halueval`
RERANK_TRAIN, RERANK_HELDOUT = 2000, 1000  # `ragcite train rerank` questions
ANSWERABILITY_ITEMS = 600  # bench/answerability_records.py (all_cases' default)


def _split(group: str) -> str:
    return split_of(SupportPair([], "", True, group, "seen"), seed=SEED)


def _support_halueval(index: int) -> bool:
    if index < SUPPORT_ITEMS:
        return _split(f"halueval:{index}") != "test"
    if index < SUPPORT_ITEMS + EXTRACTIVE_ITEMS:
        return _split(f"extractive:halueval:{index}") == "validation"
    return False


def _sentence_training(rows: list[dict[str, str]]) -> set[int]:
    out: set[int] = set()
    examples = 0
    for index, row in enumerate(rows):
        if examples == SENTENCE_EXAMPLES:
            break
        if row["right_answer"].lower() in row["knowledge"].lower():
            examples += 1
            if not heldout(row["knowledge"], SEED):
                out.add(index)
    return out


def load_rows(root: Path = DEFAULT_ROOT) -> list[dict[str, str]]:
    """HaluEval QA rows, in file order (an item's index is its row's position)."""
    path = root / "halueval" / "qa_train.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def halueval_seen(rows: list[dict[str, str]]) -> list[frozenset[str]]:
    """For each HaluEval item, the shipped models that trained or were tuned on it."""
    sentences = _sentence_training(rows)
    reranker = set(halueval_question_split(len(rows), RERANK_TRAIN, RERANK_HELDOUT, SEED)[0])
    out = []
    for index in range(len(rows)):
        names = {
            "support": _support_halueval(index),
            "sentence_choice": index in sentences,
            "reranker": index in reranker,
            "answerability": index < ANSWERABILITY_ITEMS and bucket(f"halu-{index}") >= TEST_BELOW,
        }
        out.append(frozenset(name for name, seen in names.items() if seen))
    return out


def unseen_halueval(limit: int, rows: list[dict[str, str]] | None = None) -> list[int]:
    """The first `limit` HaluEval items (in file order) that no shipped model saw."""
    rows = load_rows() if rows is None else rows
    return [i for i, names in enumerate(halueval_seen(rows)) if not names][:limit]


def _squad_seen(case: Case) -> frozenset[str]:
    text = case.passages[0][2]  # a SQuAD case's own paragraph, answerable or not
    digest = hashlib.sha256(text.strip().encode()).hexdigest()[:16]
    names = {
        "support": _split(f"extractive:squad:{digest}") == "validation",
        "sentence_choice": not heldout(text, SEED),
        "answerability": bucket(case.group) >= TEST_BELOW,
    }
    return frozenset(name for name, seen in names.items() if seen)


def case_seen_by(case: Case, halueval: list[frozenset[str]]) -> frozenset[str]:
    """The shipped models that saw `case` (`halueval`: `halueval_seen` of all rows)."""
    if case.source == "squad2":
        return _squad_seen(case)
    if case.source == "halueval":
        return halueval[int(case.id.removeprefix("halu-"))]
    rgb = {
        "support": _split(f"rgb:{case.id.removeprefix('rgb-')}") != "test",
        "answerability": bucket(case.group) >= TEST_BELOW,
    }
    return frozenset(name for name, seen in rgb.items() if seen)
