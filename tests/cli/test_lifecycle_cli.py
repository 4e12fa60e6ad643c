"""`ragcite ask --save`, `recheck`, `documents erase`, `documents --erased`,
`ingest --recheck` and `report feedback` (with `--export` read back by `ragcite eval`)."""

from __future__ import annotations

import json
from pathlib import Path

from ragcite.config import load_settings
from ragcite.eval.questions import load_questions
from ragcite.index.feedback import feedback_store
from ragcite.pipeline import Ragcite

from ..lifecycle.test_recheck import QUESTION, new_policy_version
from .test_cli import run

GAP = "How many days of paid leave do I get for jury duty?"


def _ask_saved(store: Path, question: str) -> str:
    code, out = run("ask", question, "--save", "--json", store=store)
    assert code == 0, out
    return str(json.loads(out)["answer_id"])


def test_ask_save_then_recheck(demo_store_path: Path, tmp_path: Path) -> None:
    code, out = run("ask", QUESTION, "--save", store=demo_store_path)
    assert code == 0 and "Saved as answer" in out
    answer_id = out.split("Saved as answer ", 1)[1].split(":", 1)[0]
    code, out = run("recheck", answer_id, store=demo_store_path)
    assert code == 0 and "still verified" in out and "1 answer(s) re-checked" in out
    code, out = run("recheck", store=demo_store_path)
    assert code == 2 and "--all" in out
    code, out = run("recheck", "nope", store=demo_store_path)
    assert code == 1 and "'nope'" in out
    new = new_policy_version(tmp_path, 3)
    code, out = run("ingest", str(new), "--recheck", store=demo_store_path)
    assert code == 0 and "1 answer(s) re-checked" in out and "superseded" in out
    code, out = run("recheck", "--all", "--json", store=demo_store_path)
    report = json.loads(out)
    assert report["counts"].get("superseded_supported", 0) >= 1
    assert report["answers"][0]["claims"][0]["new_version"] == 3
    code, out = run("recheck", "--since", "2000-01-01", "--json", store=demo_store_path)
    assert code == 0 and len(json.loads(out)["answers"]) == 1


def test_documents_erase_leaves_a_tombstone(demo_store_path: Path) -> None:
    answer_id = _ask_saved(demo_store_path, QUESTION)
    code, out = run("documents", "erase", "data-retention-policy", store=demo_store_path)
    assert code == 1 and "Aborted" in out  # no confirmation given
    code, out = run("documents", "erase", "data-retention-policy", "--yes", store=demo_store_path)
    said = " ".join(out.split())
    assert code == 0 and "erased 2 version(s)" in said and "1 saved answer(s) redacted" in said
    code, out = run("documents", "--json", store=demo_store_path)
    assert "data-retention-policy" not in {d["document_id"] for d in json.loads(out)}
    code, out = run("documents", store=demo_store_path)
    assert code == 0 and "1 erased document(s)" in out
    code, out = run("documents", "--erased", "--json", store=demo_store_path)
    assert [t["document_id"] for t in json.loads(out)] == ["data-retention-policy"]
    assert json.loads(out)[0]["erased_by"].startswith("cli")
    code, out = run("recheck", answer_id, "--json", store=demo_store_path)
    assert "erased" in {c["status"] for c in json.loads(out)["answers"][0]["claims"]}
    assert "35 days" not in out
    code, out = run("documents", "erase", "never-was", "--yes", store=demo_store_path)
    assert code == 1 and "'never-was'" in out


def test_report_feedback_groups_and_exports(demo_store_path: Path, tmp_path: Path) -> None:
    for wording in (
        GAP,
        "how many days of paid leave do i get for jury duty",
        "How many days of paid leave do I get for jury duty ?",
    ):
        _ask_saved(demo_store_path, wording)
    rag = Ragcite.open(load_settings(store_path=demo_store_path))
    chunk = rag.ask(QUESTION).cited_claims[0].source_chunk_ids[0]
    feedback = feedback_store(rag.store)
    for _ in range(2):
        feedback.add_feedback(QUESTION, "wrong_citation", chunk_id=chunk, key_name="cli")
    feedback.add_feedback("What is the parking policy?", "not_helpful", key_name="cli")
    feedback.add_feedback("what is the parking policy", "not_helpful", key_name="cli")
    rag.close()
    export = tmp_path / "gaps.jsonl"
    code, out = run("report", "feedback", "--json", "--export", str(export), store=demo_store_path)
    assert code == 0, out
    report = json.loads(out)
    assert report["wrong_chunks"][0] == {
        "chunk_id": chunk,
        "document_id": "data-retention-policy",
        "title": "Data Retention Policy",
        "count": 2,
        "claims": [],
    }
    assert report["wrong_documents"][0]["count"] == 2
    gaps = {g["question"]: g for g in report["gaps"]}
    assert gaps[GAP]["unanswerable"] == 3 and len(gaps[GAP]["wordings"]) == 3
    assert gaps["What is the parking policy?"]["unhelpful"] == 2
    questions = load_questions(export)
    assert [(q.query, q.answerable) for q in questions] == [(GAP, False)]
    code, out = run("report", "feedback", store=demo_store_path)
    assert code == 0 and "Corpus gaps" in out and "jury" in out  # the table wraps long questions
