"""Answerability records for the demo questions (`eval/demo.jsonl` over `demo/`).

    RAGCITE_STORE=demo.db ragcite ingest demo/
    .venv/bin/python bench/answerability_demo.py demo.db [bench/out/answerability_demo.jsonl]

Each question is retrieved and reranked by the pipeline over the demo store, then recorded
like a shared-data case (`ragcite.train.answerability_run.run_case`), so rules and models
can be measured on the demo set without asking again.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ragcite.config import load_settings
from ragcite.eval.questions import load_questions
from ragcite.pipeline import Ragcite
from ragcite.train.answerability_data import Case
from ragcite.train.answerability_run import run_case

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "bench" / "out" / "answerability_demo.jsonl"


def main() -> None:
    store = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT
    settings = load_settings(
        store_path=store, overrides={"cache.enabled": False, "gate.answerability": False}
    )
    rag = Ragcite.open(settings)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as f:
        for q in load_questions(ROOT / "eval" / "demo.jsonl"):
            chunks = rag.ask_traced(q.query).reranked
            case = Case(q.id, "demo", q.id, q.query, q.answerable, (), (), frozenset())
            f.write(json.dumps(run_case(rag, case, chunks)) + "\n")
    rag.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
