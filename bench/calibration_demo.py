"""The demo set's questions end to end, as calibration records (see calibration_records.py).

    .venv/bin/python bench/calibration_demo.py [records.jsonl]

Ingests demo/ into a temporary store, asks every question of eval/demo.jsonl through the
pipeline without a calibration map, and writes one record per question (default
bench/out/calibration_demo.jsonl): each claim's raw blend, whether it is an exact,
supported quote, whether it is correct by the harness's labels, and the answer's
answerability probability (`ragcite.verify.answerability`). The group is the
expected document, so splits hold documents out.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from ragcite.config import load_settings
from ragcite.eval.questions import load_questions
from ragcite.eval.runner import run_questions
from ragcite.pipeline import Ragcite
from ragcite.score.confidence import is_exact_and_supported
from ragcite.verify.answerability import AnswerabilityCheck, cited_quotes

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "bench" / "out" / "calibration_demo.jsonl"


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    with tempfile.TemporaryDirectory() as tmp:
        overrides = {"cache.enabled": False, "score.calibration_path": "none"}
        rag = Ragcite.open(load_settings(store_path=Path(tmp) / "d.db", overrides=overrides))
        rag.ingest([ROOT / "demo"])
        traces = run_questions(rag, load_questions(ROOT / "eval" / "demo.jsonl"))
        check = AnswerabilityCheck(rag.embedder)
        answerability = [
            check.probability(
                t.question.query,
                cited_quotes(t.response.cited_claims, t.response.source_chunks),
                t.response.source_chunks,
            )
            if t.response.answerable
            else 0.0
            for t in traces
        ]
        rag.close()
    lines = []
    for t, p in zip(traces, answerability, strict=True):
        claims = t.response.cited_claims
        by_id = t.chunks_by_id
        cited = {i for c in claims for i in c.source_chunk_ids if i in by_id}
        lines.append(
            {
                "id": t.question.id,
                "source": "demo",
                "group": f"demo-{t.question.expected_document_id or t.question.id}",
                "answerable": t.question.answerable,
                "generator_answered": t.response.answerable,
                "answerability": p,
                "chunk_mean": sum(by_id[i].composite_confidence for i in cited) / len(cited)
                if cited
                else 0.0,
                "claims": [
                    {"raw": raw, "exact_supported": is_exact_and_supported(c), "correct": ok}
                    for raw, c, ok in zip(t.raw_confidence, claims, t.claim_correct, strict=True)
                ],
                "answer_correct": t.answer_correct,
                "label": str(t.response.confidence_label),
            }
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    print(f"{len(lines)} demo records in {path}")


if __name__ == "__main__":
    main()
