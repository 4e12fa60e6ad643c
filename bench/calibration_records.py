"""Build (or extend) the calibration records: shared-data questions end to end, per claim.

    .venv/bin/python bench/calibration_records.py [records.jsonl] [--halueval N] [--first]

Every case of `ragcite.train.answerability_data` (SQuAD 2.0 paragraphs with their
questions, N HaluEval knowledge passages, RGB) goes through ragcite's own stages: rerank,
the configured generator, the gate's support check, the score stage without a map. Each
record keeps what the score stage saw for every claim (quote strength, support score and
verdicts, cited-chunk confidence, the raw blend) and whether the claim is correct (it quotes
a gold passage and holds a gold answer), plus the answerability probability of the answer
and the answerability model's input features, so that `python -m
ragcite.eval.calibration_asset` can fit the maps and measure them held out by paragraph /
item. The HaluEval items are the first N that no shipped model was trained or tuned on
(`ragcite.train.seen`; `--first`: the first N items of the file, as before), and each
record names the shipped models that saw its case (`seen_by`), so that the held-out part
can leave them out. Writes JSON lines (default bench/out/calibration_records.jsonl);
rerunning reuses what is there.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from ragcite.config import load_settings
from ragcite.models import SourceChunk
from ragcite.pipeline import Ragcite
from ragcite.rerank.composite import rerank_chunks
from ragcite.score.confidence import (
    blend_claim_confidence,
    claim_signals,
    is_exact_and_supported,
    score_answer,
)
from ragcite.train.answerability_data import Case, all_cases, candidate_chunks
from ragcite.train.answerability_run import claim_correct
from ragcite.train.seen import case_seen_by, halueval_seen, load_rows, unseen_halueval
from ragcite.verify.answerability import AnswerabilityCheck, answerability_features, cited_quotes
from ragcite.verify.gate import verify_answer

DEFAULT = Path(__file__).resolve().parent / "out" / "calibration_records.jsonl"


def _claim(claim: Any, by_id: dict[str, SourceChunk], case: Case) -> dict[str, Any]:
    signals = claim_signals(claim, by_id)
    cited = [by_id[i] for i in claim.source_chunk_ids if i in by_id]
    return {
        "raw": blend_claim_confidence(signals),
        "quote": signals.quote,
        "support": signals.support,
        "chunk": signals.chunk,
        "reranker": max((c.reranker_score or 0.0 for c in cited), default=0.0),
        "verdicts": [str(c.support) for c in claim.citations],
        "statuses": [str(c.quote_status) for c in claim.citations],
        "exact_supported": is_exact_and_supported(claim),
        "chunk_ids": list(claim.source_chunk_ids),
        "correct": claim_correct(claim, case),
    }


def run_case(
    rag: Ragcite, check: AnswerabilityCheck, case: Case, seen_by: frozenset[str]
) -> dict[str, Any]:
    chunks = candidate_chunks(case, rag.embedder)
    chunks = rerank_chunks(case.question, chunks, rag.reranker, rag.settings.rerank).chunks
    draft = rag.generator.generate(case.question, chunks)
    gate = verify_answer(
        draft, chunks, support_checker=rag.support_checker, policy=rag.settings.gate.policy
    )
    scored = score_answer(gate.claims, chunks, rag.settings.score)
    by_id = {c.chunk_id: c for c in chunks}
    quotes = cited_quotes(gate.claims, chunks)
    answered = bool(draft.answerable and quotes)
    claims = [_claim(c, by_id, case) for c in scored.claims]
    decision_inputs = getattr(rag.generator, "decision_inputs", None)  # the extractive one's
    cited = {i for c in scored.claims for i in c.source_chunk_ids if i in by_id}
    return {
        **case.record_fields(),
        "seen_by": sorted(seen_by),
        "generator_answered": answered,
        "answerability": check.probability(case.question, quotes, chunks) if answered else 0.0,
        # The model's inputs (coverage, answer type, similarities), unlearned: a map may read
        # them without the model's in-sample bias on its own training groups.
        "features": answerability_features(case.question, quotes, chunks, rag.embedder)
        if answered
        else {},
        # What the extractive generator's answer decision read (`answer_decision`).
        "decision": decision_inputs(case.question, chunks) if decision_inputs else None,
        "chunk_mean": sum(by_id[i].composite_confidence for i in cited) / len(cited)
        if cited
        else 0.0,
        "claims": claims,
        "answer_correct": answered and any(c["correct"] for c in claims),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("records", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--halueval", type=int, default=2400, help="HaluEval items")
    parser.add_argument("--first", action="store_true", help="the file's first N items")
    args = parser.parse_args()
    done: set[str] = set()
    if args.records.exists():
        done = {json.loads(x)["id"] for x in args.records.read_text(encoding="utf-8").splitlines()}
    args.records.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(store_path=Path(tmp) / "r.db", overrides={"cache.enabled": False})
        rag = Ragcite.open(settings)
        check = AnswerabilityCheck(rag.embedder)
        started = time.perf_counter()
        rows = load_rows()
        items = None if args.first else unseen_halueval(args.halueval, rows)
        cases = all_cases(rag.embedder, halueval_limit=args.halueval, halueval_items=items)
        seen = halueval_seen(rows)
        print(f"{len(cases)} cases built in {time.perf_counter() - started:.0f}s", flush=True)
        with args.records.open("a", encoding="utf-8") as out:
            for n, case in enumerate(c for c in cases if c.id not in done):
                record = run_case(rag, check, case, case_seen_by(case, seen))
                out.write(json.dumps(record) + "\n")
                out.flush()
                if n % 100 == 0:
                    print(f"{n} new records ({time.perf_counter() - started:.0f}s)", flush=True)
        rag.close()


if __name__ == "__main__":
    main()
