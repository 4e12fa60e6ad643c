"""Hybrid retrieval over one built store, timed by part, run by hand (never in the tests).

    python bench/retrieval_parts.py /work/scale-ivf/scale-1000000-r3000.db --questions 200

Each question (bench/corpora.py's HaluEval questions) is timed through the parts of
`HybridRetriever.retrieve`: the query embedding, the dense lookup (faiss), the eligible
rowids of the default filters, the keyword lookup (its common-word counts read afresh,
as for a question not asked before, then its BM25 query), the chunk rows read for both
rankings, and the fusion (with the similarities of keyword-only hits); then the whole
`retrieve` once more (the embedder's cache cleared), and a full offline `ask` before all
that (as bench/scale.py times it: answer cache off, no vector cached, the common-word
counts of every question asked before kept). Every question is asked once to warm the
page cache and the models, then timed on a second pass. Prints medians in ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import questions
from ingest_ask import clear_vector_caches

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--questions", type=int, default=200)
    args = parser.parse_args()
    rag = Ragcite.open(load_settings(store=args.store, overrides={"cache.enabled": False}))
    asked = questions(args.questions)
    times: dict[str, list[float]] = {}
    for timed in (False, True):
        for question in asked:
            for part, ms in _parts(rag, question).items():
                if timed:
                    times.setdefault(part, []).append(ms)
    result = {part: round(statistics.median(v), 2) for part, v in times.items()}
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result))
    rag.close()


def _parts(rag: Ragcite, question: str) -> dict[str, float]:
    """The ms each part of one retrieval took."""
    store, retriever = rag.store, rag.retriever
    keyword = store._keyword  # type: ignore[attr-defined]
    inner = rag.embedder.inner  # type: ignore[attr-defined]
    filters = rag.filters()
    depth, k = retriever.candidates, rag.settings.retrieve.top_k
    clear_vector_caches(rag)
    marks = [time.perf_counter()]
    rag.ask(question)
    marks.append(time.perf_counter())
    rag.embedder.clear()  # type: ignore[attr-defined]
    marks.append(time.perf_counter())
    vector = inner.embed([question])[0]
    marks.append(time.perf_counter())
    dense_hits = store._dense.search(vector, depth, filters)  # type: ignore[attr-defined]
    marks.append(time.perf_counter())
    allowed = store._dense.eligible_rowids(filters)  # type: ignore[attr-defined]
    every = len(allowed) >= keyword.chunk_count()
    marks.append(time.perf_counter())
    keyword._holding.clear()
    keyword_hits = keyword.search(question, depth, None if every else allowed)
    marks.append(time.perf_counter())
    keyword.search(question, depth, None if every else allowed)  # word counts cached
    marks.append(time.perf_counter())
    dense = store._scored(dense_hits)  # type: ignore[attr-defined]
    ranked = store._scored(keyword_hits)  # type: ignore[attr-defined]
    marks.append(time.perf_counter())
    retriever._fuse(vector, dense, ranked, k)
    marks.append(time.perf_counter())
    rag.embedder.clear()  # type: ignore[attr-defined]
    keyword._holding.clear()
    retriever.retrieve(question, k, filters)
    marks.append(time.perf_counter())
    retriever.retrieve(question, k, filters)  # embedding and word counts cached
    marks.append(time.perf_counter())
    names = (
        "ask",
        "clear",
        "embed",
        "dense",
        "eligible",
        "keyword_fresh_counts",
        "keyword_cached_counts",
        "chunk_rows",
        "fusion",
        "retrieve_fresh",
        "retrieve_cached_vector_counts",
    )
    spans = zip(names, marks[:-1], marks[1:], strict=True)
    return {n: (b - a) * 1000 for n, a, b in spans if n != "clear"}


if __name__ == "__main__":
    main()
