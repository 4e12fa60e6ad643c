"""The demo questions' answers as JSON, to byte-compare two versions of `ask` (by hand).

    PYTHONHASHSEED=0 python bench/ask_answers.py STORE.db OUT.json [--profile STATS]

Each answerable and unanswerable question of eval/demo.jsonl is asked once, cold (answer
cache off, no vector cached), on the collection at STORE.db (ingest demo/ into it first);
the answers are written without what changes from run to run (the answer's id, its
timestamp and its timings). Run it with the old code and the new, then `cmp` the outputs:
a change meant only to make `ask` faster must leave them identical. Fix the hash seed for
both runs: some scores are float sums over sets, whose order follows the string hashes, so
their last digits change from one seed to another (in any version). With `--profile`, the
asks run under cProfile and its statistics are written to STATS (read them with pstats).
"""

from __future__ import annotations

import argparse
import cProfile
import json
from pathlib import Path

from ingest_ask import clear_vector_caches

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite

ROOT = Path(__file__).resolve().parents[1]
VARYING = {"answer_id", "retrieval_timestamp", "timings_ms", "cached_at", "cache_age_s"}


def demo_questions() -> list[str]:
    lines = (ROOT / "eval" / "demo.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["query"] for line in lines if line.strip()]


def answers(rag: Ragcite, questions: list[str], profile: cProfile.Profile | None) -> list[object]:
    out: list[object] = []
    for question in questions:
        clear_vector_caches(rag)
        if profile is not None:
            profile.enable()
        response = rag.ask(question)
        if profile is not None:
            profile.disable()
        out.append(response.model_dump(mode="json", exclude=VARYING))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path, help="a SQLite store holding demo/")
    parser.add_argument("out", type=Path, help="where the answers' JSON goes")
    parser.add_argument("--profile", type=Path, help="write cProfile statistics here")
    args = parser.parse_args()
    rag = Ragcite.open(load_settings(store=args.store, overrides={"cache.enabled": False}))
    questions = demo_questions()
    rag.ask(questions[0])  # load the models outside the profile
    profile = cProfile.Profile() if args.profile else None
    result = answers(rag, questions, profile)
    rag.close()
    args.out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if profile is not None:
        profile.dump_stats(str(args.profile))
    print(f"{len(result)} answers written to {args.out}")


if __name__ == "__main__":
    main()
