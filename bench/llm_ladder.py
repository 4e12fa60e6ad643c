"""The fallback ladder with a real LLM on the demo corpus: time per ask, and how many
answers pass the gate first time, after one retry, or degrade to sources.

    python bench/llm_ladder.py                       # local:smollm2, 10 answerable questions
    python bench/llm_ladder.py --llm local:PATH.gguf --n 20 --max-tokens 512

Prints one line per question and a JSON summary. The demo corpus is ingested into a
temporary store unless --store names one that already holds it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from ragcite.config import load_settings
from ragcite.embed.cached import CachedEmbedder
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.errors import ModelError
from ragcite.generate.factory import build_generator
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.models import CitedResponse
from ragcite.pipeline import Ragcite
from ragcite.rerank.sentence_similarity import SentenceSimilarityReranker
from ragcite.verify.support import SupportChecker, default_support_checker

ROOT = Path(__file__).resolve().parents[1]


def outcome(response: CitedResponse) -> str:
    codes = {f.code for f in response.warning_flags}
    if "degraded_to_sources" in codes:
        return "degraded"
    if not response.answerable:
        return "not_answerable"
    return "after_retry" if "retried" in codes else "first_time"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llm", default="local:smollm2")
    parser.add_argument("--n", type=int, default=10, help="answerable questions to ask")
    parser.add_argument("--max-tokens", type=int, default=384)
    parser.add_argument("--max-chunks", type=int, default=3)
    parser.add_argument("--store", type=Path, help="a store that already holds the demo corpus")
    args = parser.parse_args()

    questions = [json.loads(line) for line in (ROOT / "eval" / "demo.jsonl").open()]
    answerable = [q for q in questions if q["answerable"]]
    step = max(1, len(answerable) // args.n)
    chosen = answerable[::step][: args.n]  # spread over the corpus, deterministic

    with tempfile.TemporaryDirectory() as tmp:
        store_path = args.store or Path(tmp) / "demo.db"
        settings = load_settings(
            store_path=store_path,
            overrides={
                "generate.llm": args.llm,
                "generate.llm_max_tokens": args.max_tokens,
                "generate.llm_max_chunks": args.max_chunks,
            },
        )
        embedder = CachedEmbedder(MiniLMEmbedder())
        checker: SupportChecker | None
        try:
            checker = default_support_checker(embedder)
        except ModelError as exc:
            print(f"(support checker unavailable: {exc}; support is unchecked)")
            checker = None
        generator = build_generator(args.llm, embedder, settings.generate)
        rag = Ragcite(
            settings,
            store=SQLiteStore(store_path),
            embedder=embedder,
            reranker=SentenceSimilarityReranker(embedder),
            generator=generator,
            support_checker=checker,
        )
        if args.store is None:
            rag.ingest([ROOT / "demo"])
        warm = getattr(generator, "warm_up", None)
        started = time.perf_counter()
        if warm is not None:
            warm()
        load_s = time.perf_counter() - started

        rows = []
        for q in chosen:
            started = time.perf_counter()
            response = rag.ask(q["query"])
            seconds = time.perf_counter() - started
            kind = outcome(response)
            verified = sum(c.verified for c in response.cited_claims)
            rows.append(
                {
                    "id": q["id"],
                    "outcome": kind,
                    "seconds": round(seconds, 1),
                    "claims": len(response.cited_claims),
                    "verified_claims": verified,
                    "flags": sorted({f.code for f in response.warning_flags}),
                }
            )
            print(
                f"{q['id']} {kind:14} {seconds:6.1f}s  claims={len(response.cited_claims)} "
                f"verified={verified}  {q['query']}",
                flush=True,
            )
        rag.close()

    total = len(rows)
    counts = {
        k: sum(r["outcome"] == k for r in rows)
        for k in ("first_time", "after_retry", "degraded", "not_answerable")
    }
    times = [r["seconds"] for r in rows]
    summary = {
        "llm": args.llm,
        "questions": total,
        "max_tokens": args.max_tokens,
        "max_chunks": args.max_chunks,
        "support_checked": checker is not None,
        "model_load_s": round(load_s, 1),
        "seconds_per_ask": {
            "mean": round(statistics.mean(times), 1),
            "median": round(statistics.median(times), 1),
            "max": max(times),
        }
        if times
        else None,
        "share": {k: round(v / total, 2) for k, v in counts.items()} if total else None,
        "counts": counts,
        "rows": rows,
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
