"""Re-check throughput (saved answers per second), run by hand (never in the tests).

    python bench/recheck_throughput.py                 # 40 saved answers
    python bench/recheck_throughput.py --answers 100

The demo corpus is ingested into a new SQLite store, the demo questions (eval/demo.jsonl)
are asked round-robin and every answer saved; then all of them are re-checked twice:
against the unchanged store (every claim re-verified on its own sources), and after a new
version of the data retention policy supersedes the old one (its claims re-verified
against the new version's passages, which embeds each claim). Prints answers/s as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from ragcite.config import load_settings  # noqa: E402
from ragcite.index.answers import answers_store  # noqa: E402
from ragcite.lifecycle.recheck import recheck_answers  # noqa: E402
from ragcite.lifecycle.saved import save_answer  # noqa: E402
from ragcite.pipeline import Ragcite  # noqa: E402


def _questions() -> list[str]:
    lines = (ROOT / "eval" / "demo.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["query"] for line in lines if line.strip()]


def _superseding_policy(folder: Path) -> Path:
    text = (ROOT / "demo" / "data-retention-policy-2024.md").read_text(encoding="utf-8")
    path = folder / "policy-v3.md"
    path.write_text(text.replace("version: 2", "version: 3", 1) + "\n\nRevised.\n", "utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(store=str(Path(folder) / "bench.db"))
        rag = Ragcite.open(settings)
        rag.ingest([ROOT / "demo"])
        questions = _questions()
        for n in range(args.answers):
            save_answer(rag, rag.ask(questions[n % len(questions)]))
        saved = answers_store(rag.store).list_answers()
        unchanged = recheck_answers(rag, saved)
        rag.ingest([_superseding_policy(Path(folder))])
        superseded = recheck_answers(rag, saved)
        rag.close()
    print(
        json.dumps(
            {
                "answers": len(saved),
                "claims": sum(len(a.claims) for a in unchanged.answers),
                "unchanged_answers_per_s": round(unchanged.answers_per_second, 1),
                "after_supersession_answers_per_s": round(superseded.answers_per_second, 1),
                "after_supersession_counts": superseded.counts(),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
