"""Does the offline answer answer the question? Answer-span rate, table rows, latency.

Runs the real pipeline (default settings, extractive generator, no cache) on:

* SQuAD 2.0 subset: the held-out paragraphs of `ragcite train sentences` (split by a hash of
  the paragraph), each ingested as a document; for each answerable question, whether a gold
  answer span appears in the claims, and whether the right paragraph is cited;
* HaluEval QA items 1,500-1,799 (never used in training): each knowledge passage ingested as
  a document; whether the right answer appears in the claims;
* the demo table questions (`eval/demo.jsonl` ids t01...): whether the first claim quotes the
  expected row;
* ask latency (median, ms) on the demo questions.

Figures are reported per question focus (what happens, can/may, when, how much, who, how
long, ...). Run it before and after a change to the generator:

    python bench/answer_choice.py --out runs/answer-choice.json
    PYTHONPATH=/path/to/other/src python bench/answer_choice.py   # the same on other code
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from ragcite.config import load_settings
from ragcite.generate.focus import question_focus
from ragcite.pipeline import Ragcite

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "datasets"
HELDOUT_SHARE = 0.3  # as ragcite.train.sentences: paragraphs hashed below it are held out
SEED = 13


def _heldout(group: str) -> bool:
    digest = hashlib.sha256(f"{SEED}:{group}".encode()).digest()[:8]
    return int.from_bytes(digest, "big") / 2**64 < HELDOUT_SHARE


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def _squad(limit: int) -> tuple[dict[str, str], list[dict[str, Any]]]:
    docs: dict[str, str] = {}
    questions: list[dict[str, Any]] = []
    seen: set[str] = set()
    for name in ("part_a.json", "part_b.json"):
        data = json.loads((DATA / "squad2_subset" / name).read_text(encoding="utf-8"))
        for article in data["data"]:
            for paragraph in article["paragraphs"]:
                context = paragraph["context"]
                if not _heldout(context):
                    continue
                doc_id = "p" + hashlib.sha256(context.encode()).hexdigest()[:10]
                docs[doc_id] = context
                for qa in paragraph["qas"]:
                    if qa["id"] in seen or qa.get("is_impossible") or not qa["answers"]:
                        continue
                    seen.add(qa["id"])
                    answers = sorted({a["text"] for a in qa["answers"]})
                    questions.append({"q": qa["question"], "answers": answers, "doc": doc_id})
    return docs, questions[:limit]


def _halueval(start: int, count: int) -> tuple[dict[str, str], list[dict[str, Any]]]:
    docs: dict[str, str] = {}
    questions: list[dict[str, Any]] = []
    lines = (DATA / "halueval" / "qa_train.jsonl").read_text(encoding="utf-8").splitlines()
    for line in lines[start : start + count]:
        row = json.loads(line)
        doc_id = "k" + hashlib.sha256(row["knowledge"].encode()).hexdigest()[:10]
        docs[doc_id] = row["knowledge"]
        questions.append({"q": row["question"], "answers": [row["right_answer"]], "doc": doc_id})
    return docs, questions


def _open(folder: Path, docs: dict[str, str]) -> Ragcite:
    for doc_id, text in docs.items():
        (folder / f"{doc_id}.txt").write_text(text + "\n", encoding="utf-8")
    rag = Ragcite.open(
        load_settings(store_path=folder / "store.db", overrides={"cache.enabled": False})
    )
    rag.ingest([folder])
    return rag


def _span_rate(rag: Ragcite, questions: list[dict[str, Any]]) -> dict[str, Any]:
    by_focus: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    for item in questions:
        response = rag.ask(item["q"])
        claims = _norm(" ".join(c.claim_text for c in response.cited_claims))
        span = any(_norm(a) in claims for a in item["answers"])
        cited = " ".join(
            response.chunk(cid).document_id  # type: ignore[union-attr]
            for c in response.cited_claims
            for cid in c.source_chunk_ids
            if response.chunk(cid) is not None
        )
        by_focus[question_focus(item["q"])].append((span, item["doc"] in cited))
    return _summary(by_focus)


def _summary(by_focus: dict[str, list[tuple[bool, bool]]]) -> dict[str, Any]:
    rows = [r for v in by_focus.values() for r in v]
    out: dict[str, Any] = {
        "questions": len(rows),
        "span_in_claims": round(sum(s for s, _ in rows) / max(len(rows), 1), 4),
        "right_document_cited": round(sum(d for _, d in rows) / max(len(rows), 1), 4),
    }
    out["by_focus"] = {
        focus: {"n": len(v), "span_in_claims": round(sum(s for s, _ in v) / len(v), 4)}
        for focus, v in sorted(by_focus.items())
    }
    return out


def _demo(rag: Ragcite) -> dict[str, Any]:
    rows = [json.loads(line) for line in (ROOT / "eval" / "demo.jsonl").read_text().splitlines()]
    tables, times = [], []
    for row in rows:
        start = time.perf_counter()
        response = rag.ask(row["query"])
        times.append((time.perf_counter() - start) * 1000)
        if row["id"].startswith("t"):
            first = response.cited_claims[0].citations[0].quote if response.cited_claims else ""
            right = _norm(row["expected_chunk_text"]) in _norm(first)
            tables.append({"id": row["id"], "right_row": right, "first_quote": first[:120]})
    return {
        "table_questions": len(tables),
        "table_right_row": round(sum(t["right_row"] for t in tables) / max(len(tables), 1), 4),
        "tables": tables,
        "ask_ms_median": round(statistics.median(times), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="Write the figures as JSON here too.")
    parser.add_argument("--squad", type=int, default=1000, help="At most this many questions.")
    parser.add_argument("--halueval", type=int, default=300, help="HaluEval questions.")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        demo_store = base / "demo"
        demo_store.mkdir()
        rag = Ragcite.open(
            load_settings(store_path=demo_store / "s.db", overrides={"cache.enabled": False})
        )
        rag.ingest([ROOT / "demo"])
        report["demo"] = _demo(rag)
        rag.close()
        for name, (docs, questions) in {
            "squad_heldout": _squad(args.squad),
            "halueval_unseen": _halueval(1500, args.halueval),
        }.items():
            folder = base / name
            folder.mkdir()
            rag = _open(folder, docs)
            report[name] = _span_rate(rag, questions)
            rag.close()
            print(name, json.dumps({k: v for k, v in report[name].items() if k != "by_focus"}))
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
