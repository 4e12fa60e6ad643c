"""Hybrid retrieval on the demo corpus and its labelled questions."""

from __future__ import annotations

import json
import multiprocessing
import sys

from ragcite.pipeline import Ragcite
from ragcite.retrieve import hybrid

from ..conftest import ROOT

QUESTIONS = [
    json.loads(line)
    for line in (ROOT / "eval" / "demo.jsonl").read_text().splitlines()
    if line.strip()
]
ANSWERABLE = [q for q in QUESTIONS if q["answerable"]]


def test_hybrid_recall_at_5_on_the_demo_questions(demo_rag: Ragcite) -> None:
    hits = 0
    for question in ANSWERABLE:
        result = demo_rag.retriever.retrieve(question["query"], 5, demo_rag.filters())
        hits += any(c.document_id == question["expected_document_id"] for c in result.chunks)
    assert hits / len(ANSWERABLE) >= 0.9


def test_scores_are_kept_from_each_retriever(demo_rag: Ragcite) -> None:
    result = demo_rag.retriever.retrieve(
        "How much parental leave does the primary caregiver get?", 8, demo_rag.filters()
    )
    assert len(result.chunks) == 8
    assert result.dense and result.keyword
    for chunk in result.chunks:
        assert 0.0 <= chunk.vector_similarity_score <= 1.0
        assert chunk.keyword_score >= 0.0
    top = result.chunks[0]
    assert top.document_id == "employee-handbook" and top.page_number == 3
    assert top.vector_similarity_score > 0.4 and top.keyword_score > 0


def test_superseded_versions_are_filtered_unless_asked(demo_rag: Ragcite) -> None:
    query = "How long were backups kept under the 2019 policy?"
    default = demo_rag.retriever.retrieve(query, 8, demo_rag.filters()).chunks
    assert all(c.document_version != 1 for c in default if c.document_id == "data-retention-policy")
    every = demo_rag.retriever.retrieve(query, 8, demo_rag.filters(include_superseded=True)).chunks
    assert any(c.document_id == "data-retention-policy" and c.document_version == 1 for c in every)


def test_corpus_filter(demo_rag: Ragcite) -> None:
    assert (
        demo_rag.retriever.retrieve("leave", 5, demo_rag.filters(corpora=("other",))).chunks == []
    )


def test_keyword_lookup_beside_the_dense_path_gives_the_sequential_results(
    demo_rag: Ragcite,
) -> None:
    # The keyword lookup runs on a worker thread while the query is embedded and looked
    # up in the dense index: the same rankings as the store's lookups made in turn.
    retriever, store, filters = demo_rag.retriever, demo_rag.store, demo_rag.filters()
    for question in QUESTIONS:
        query = question["query"]
        demo_rag.embedder.clear()  # type: ignore[attr-defined]
        result = retriever.retrieve(query, 8, filters)
        vector = demo_rag.embedder.embed([query])[0]
        dense = store.dense_search(vector, retriever.candidates, filters)
        keyword = store.keyword_search(query, retriever.candidates, filters)
        assert result.dense == dense and result.keyword == keyword
        assert result.chunks == retriever._fuse(vector, dense, keyword, 8)
        assert retriever.retrieve(query, 8, filters, vector=vector) == result


def _lookup_in_child() -> None:
    sys.exit(0 if hybrid._keyword_pool().submit(int, "7").result(timeout=20) == 7 else 1)


def test_a_forked_process_gets_its_own_lookup_threads() -> None:
    """The parent's pool threads do not exist in a forked child (a server's preforked
    worker): its retrievals must not wait on them."""
    assert hybrid._keyword_pool().submit(int, "7").result() == 7  # the parent's threads exist
    child = multiprocessing.get_context("fork").Process(target=_lookup_in_child)
    child.start()
    child.join(timeout=60)
    if child.exitcode is None:
        child.kill()
    assert child.exitcode == 0
