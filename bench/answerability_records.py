"""Build (or extend) the answerability records: every shared-data case through ragcite's stages.

    .venv/bin/python bench/answerability_records.py [records.jsonl]

Writes JSON lines (default bench/out/answerability_records.jsonl); rerunning reuses what
is there. `python -m ragcite.train.answerability` and bench/answerability.py read them.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from ragcite.train.answerability_data import all_cases
from ragcite.train.answerability_run import run_cases

DEFAULT = Path(__file__).resolve().parent / "out" / "answerability_records.jsonl"


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(
            store_path=Path(tmp) / "r.db",
            # The records hold what the floor answered and what the answer decision reads
            # (`decision`), so that any decision can be applied to them afterwards.
            overrides={
                "cache.enabled": False,
                "gate.answerability": False,
                "generate.answer_decision": "floor",
            },
        )
        rag = Ragcite.open(settings)
        started = time.perf_counter()
        cases = all_cases(rag.embedder)
        print(f"{len(cases)} cases built in {time.perf_counter() - started:.0f}s", flush=True)
        records = run_cases(rag, cases, path)
        print(f"{len(records)} records in {path} ({time.perf_counter() - started:.0f}s)")
        rag.close()


if __name__ == "__main__":
    main()
