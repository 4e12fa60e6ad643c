"""Questions with related passages, answerable or not, from the shared data sets.

Each case is a question, the passages a retriever would hand the generator (ranked by
cosine with the question, as `SourceChunk`s), whether they answer it, and the answer
strings that make a quoted sentence correct:

* SQuAD 2.0 subset: the question's own paragraph and the two nearest paragraphs of the
  same article; unanswerable questions were written against that very paragraph.
* HaluEval: the question's knowledge passage and its two nearest neighbours; for half of
  the questions (chosen by a hash) the gold passage is removed, leaving three related
  passages that do not answer it.
* RGB: the positive passages and the nearest negatives; for half, negatives only.

Groups (for held-out splits) are the paragraph, the HaluEval item and the RGB query.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ragcite.embed.base import Embedder
from ragcite.models import SourceChunk

DATASETS = Path(__file__).resolve().parents[3].parent / "shared" / "datasets"
_GLUED = re.compile(r"(?<=[a-z0-9)\]][.!?])(?=[A-Z])")


@dataclass(frozen=True)
class Case:
    id: str
    source: str
    group: str
    question: str
    answerable: bool
    answers: tuple[str, ...]
    passages: tuple[tuple[str, str, str], ...]  # (id, title, text), candidate order
    gold: frozenset[str]

    def record_fields(self) -> dict[str, object]:
        """The fields every record of this case starts with (id, source, group, answerable)."""
        return {
            "id": self.id,
            "source": self.source,
            "group": self.group,
            "answerable": self.answerable,
        }


def bucket(group: str, buckets: int = 100) -> int:
    """A stable bucket in [0, buckets) for a group name (for splits)."""
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % buckets


def _nearest(
    embedder: Embedder, question: str, pool: list[tuple[str, str, str]], keep: int
) -> list[tuple[str, str, str]]:
    if not pool:
        return []
    vectors = embedder.embed([question, *(f"{t}. {x}" for _, t, x in pool)])
    order = np.argsort(-(vectors[1:] @ vectors[0]))
    return [pool[i] for i in order[:keep]]


def squad_cases(embedder: Embedder, root: Path = DATASETS) -> list[Case]:
    """The deduplicated SQuAD 2.0 subset (see the module doc)."""
    seen: set[str] = set()
    cases = []
    for name in ("part_a.json", "part_b.json"):
        data = json.loads((root / "squad2_subset" / name).read_text(encoding="utf-8"))
        for article in data["data"]:
            title = article["title"].replace("_", " ")
            paragraphs = [
                (f"{title}-p{hashlib.sha256(p['context'].encode()).hexdigest()[:10]}", title,
                 p["context"])
                for p in article["paragraphs"]
            ]  # fmt: skip
            for passage, para in zip(paragraphs, article["paragraphs"], strict=True):
                others = [p for p in paragraphs if p[0] != passage[0]]
                for qa in para["qas"]:
                    if qa["id"] in seen:
                        continue
                    seen.add(qa["id"])
                    near = _nearest(embedder, qa["question"], others, 2)
                    gold = frozenset() if qa["is_impossible"] else frozenset({passage[0]})
                    cases.append(
                        Case(
                            id=f"squad-{qa['id']}",
                            source="squad2",
                            group=passage[0],
                            question=qa["question"],
                            answerable=not qa["is_impossible"],
                            answers=tuple(a["text"] for a in qa["answers"]),
                            passages=(passage, *near),
                            gold=gold,
                        )
                    )
    return cases


def halueval_cases(
    embedder: Embedder,
    limit: int = 600,
    root: Path = DATASETS,
    *,
    items: list[int] | None = None,
) -> list[Case]:
    """The first `limit` HaluEval questions, or the items (row indices) `items`; half with
    the gold passage removed. The other passages come from the same items' passages."""
    wanted = set(range(limit) if items is None else items)
    with (root / "halueval" / "qa_train.jsonl").open(encoding="utf-8") as f:
        chosen = [(i, json.loads(line)) for i, line in enumerate(f) if i in wanted]
    pool = [(f"halu-k{i}", "", _GLUED.sub(" ", r["knowledge"])) for i, r in chosen]
    cases = []
    for n, (i, row) in enumerate(chosen):
        answerable = bucket(f"halu-{i}", 2) == 0
        others = _nearest(embedder, row["question"], pool[:n] + pool[n + 1 :], 3)
        passages = (pool[n], *others[:2]) if answerable else tuple(others)
        cases.append(
            Case(
                id=f"halu-{i}",
                source="halueval",
                group=f"halu-{i}",
                question=row["question"],
                answerable=answerable,
                answers=(row["right_answer"],),
                passages=passages,
                gold=frozenset({pool[n][0]}) if answerable else frozenset(),
            )
        )
    return cases


def _answers(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(a for v in value for a in _answers(v))
    return ()


def rgb_cases(embedder: Embedder, root: Path = DATASETS) -> list[Case]:
    """RGB: positives and the nearest negatives, or (for half) negatives only."""
    text = (root / "rgb" / "en_fact.json").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    cases = []
    for row in rows:
        query = row["query"]
        positive = [(f"rgb{row['id']}-p{j}", "", t) for j, t in enumerate(row["positive"])]
        negative = [(f"rgb{row['id']}-n{j}", "", t) for j, t in enumerate(row["negative"])]
        answerable = bucket(f"rgb-{row['id']}", 2) == 0
        if answerable:
            passages = (*positive[:2], *_nearest(embedder, query, negative, 2))
        else:
            passages = tuple(_nearest(embedder, query, negative, 4))
        cases.append(
            Case(
                id=f"rgb-{row['id']}",
                source="rgb",
                group=f"rgb-{row['id']}",
                question=query,
                answerable=answerable,
                answers=_answers(row["answer"]),
                passages=passages,
                gold=frozenset(p[0] for p in positive[:2]) if answerable else frozenset(),
            )
        )
    return cases


def candidate_chunks(case: Case, embedder: Embedder) -> list[SourceChunk]:
    """The case's passages as retrieved chunks (vector similarity set, best first)."""
    texts = [f"{t}. {x}" if t else x for _, t, x in case.passages]
    vectors = embedder.embed([case.question, *texts])
    sims = vectors[1:] @ vectors[0]
    chunks = [
        SourceChunk(
            chunk_id=pid,
            document_id=pid,
            document_title=title or pid,
            chunk_text=text,
            char_start=0,
            char_end=len(text),
            vector_similarity_score=float(max(0.0, min(1.0, s))),
        )
        for (pid, title, text), s in zip(case.passages, sims, strict=True)
    ]
    return sorted(chunks, key=lambda c: -c.vector_similarity_score)


def all_cases(
    embedder: Embedder, *, halueval_limit: int = 600, halueval_items: list[int] | None = None
) -> list[Case]:
    """SQuAD 2.0, HaluEval (the first `halueval_limit` items, or `halueval_items`) and RGB."""
    return [
        *squad_cases(embedder),
        *halueval_cases(embedder, halueval_limit, items=halueval_items),
        *rgb_cases(embedder),
    ]
