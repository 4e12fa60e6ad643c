"""Compound questions built from two demo questions: does scoring each part help?

    python scripts/experiment_compound_questions.py [--pairs 40] [--store PATH]

Joins pairs of answerable demo questions about different passages into one compound
question ("How long do we keep PII, and how long are backups kept?"), asks each through
the full pipeline on the demo corpus with `rerank.score_question_parts` off and on, and
reports: how many answers answer both parts (a claim correct for each, by
`ragcite.eval.labels.claim_is_correct`), claim precision (claims correct for either
part), claims per answer, mean answer confidence and the share labelled LOW or VERY_LOW.
Every part is answerable, so a LOW label there is a false alarm.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from pathlib import Path

from ragcite.config import load_settings
from ragcite.eval.labels import claim_is_correct
from ragcite.eval.questions import LabelledQuestion, load_questions
from ragcite.index.indexer import Indexer
from ragcite.pipeline import Ragcite

ROOT = Path(__file__).resolve().parents[1]


def compound_questions(count: int) -> list[tuple[LabelledQuestion, LabelledQuestion, str]]:
    answerable = [q for q in load_questions(ROOT / "eval" / "demo.jsonl") if q.answerable]
    rng = random.Random(13)
    out: list[tuple[LabelledQuestion, LabelledQuestion, str]] = []
    while len(out) < count:
        a, b = rng.sample(answerable, 2)
        if a.expected_chunk_text and a.expected_chunk_text == b.expected_chunk_text:
            continue
        text = f"{a.query.rstrip('?')}, and {b.query[0].lower()}{b.query[1:]}"
        out.append((a, b, text))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--store", type=Path, help="a store holding the demo corpus")
    args = parser.parse_args()
    store = args.store or Path(tempfile.mkdtemp()) / "demo.db"
    if args.store is None:
        settings = load_settings(store_path=store)
        rag = Ragcite.open(settings)
        Indexer(rag.store, rag.embedder, chunking=settings.chunk).ingest([ROOT / "demo"])
    questions = compound_questions(args.pairs)
    print(
        "| score_question_parts | both parts answered | claim precision | claims / answer "
        "| mean answer confidence | LOW or VERY_LOW |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for on in (False, True):
        settings = load_settings(store_path=store, overrides={"rerank.score_question_parts": on})
        rag = Ragcite.open(settings)
        both, low, precision, claims, confidence = 0, 0, [], [], []
        for a, b, text in questions:
            response = rag.ask(text)
            chunks = {c.chunk_id: c for c in response.source_chunks}
            correct = [
                [claim_is_correct(claim, chunks, q) for q in (a, b)]
                for claim in response.cited_claims
            ]
            both += all(any(row[k] for row in correct) for k in (0, 1))
            precision.append(sum(any(row) for row in correct) / len(correct) if correct else 0.0)
            claims.append(len(correct))
            confidence.append(response.overall_confidence)
            low += response.confidence_label.value in ("LOW", "VERY_LOW")
        n = len(questions)
        print(
            f"| {'on' if on else 'off'} | {both}/{n} | {statistics.fmean(precision):.3f} "
            f"| {statistics.fmean(claims):.2f} | {statistics.fmean(confidence):.3f} "
            f"| {low}/{n} |"
        )


if __name__ == "__main__":
    main()
