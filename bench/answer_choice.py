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
long, ...). Besides the raw rate (the gold answer, lower-cased, is a substring of the claims)
it reports the rate over the questions whose answer is in their passage at all (HaluEval's
yes/no answers are not: no claim can hold them), a normalised match (case, accents,
punctuation, whole words: "no" is not found in "not"), and why each miss missed: declined,
wrong document cited, right document but not the sentence, or an answer spread over two
sentences; a decline whose named words (the subject check's "do not mention ...") the
question's own passage never uses is counted apart. Run it before and after a change:

    python bench/answer_choice.py --out runs/answer-choice.json
    PYTHONPATH=/path/to/other/src python bench/answer_choice.py   # the same on other code
    python bench/answer_choice.py --set gate.subject_check=false  # under other settings
    python bench/answer_choice.py --rows --out runs/a.json   # each question's row kept too
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import tempfile
import time
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

from ragcite.config import load_settings
from ragcite.generate.focus import question_focus
from ragcite.pipeline import Ragcite
from ragcite.text.sentences import split_sentences

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "datasets"
HELDOUT_SHARE = 0.3  # as ragcite.train.sentences: paragraphs hashed below it are held out
SEED = 13


def _heldout(group: str) -> bool:
    digest = hashlib.sha256(f"{SEED}:{group}".encode()).digest()[:8]
    return int.from_bytes(digest, "big") / 2**64 < HELDOUT_SHARE


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def _folded(text: str) -> str:
    """Lower case, accents and punctuation off, one space between words."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(re.sub(r"[^\w\s]", " ", ascii_text.lower()).split())


def _holds(text: str, answers: list[str]) -> bool:
    """A gold answer is in `text` as whole words, after `_folded`."""
    folded = f" {_folded(text)} "
    return any(_folded(a) and f" {_folded(a)} " in folded for a in answers)


_NAMED = re.compile(r'do not mention ((?:"[^"]+"(?:, )?)+)')


def _unnamed(reason: str, passage: str) -> bool:
    """The subject check declined for words that the question's own passage never uses
    (HaluEval's passages often say "She" for the person the question names)."""
    found = _NAMED.search(reason)
    if found is None:
        return False
    named = re.findall(r'"([^"]+)"', found.group(1))
    return all(f" {_folded(w)}" not in f" {_folded(passage)}" for w in named)


def _miss(item: dict[str, Any], answered: bool, cited_doc: bool, passage: str, reason: str) -> str:
    """Why the answer span is not in the claims."""
    if not any(_norm(a) in _norm(passage) for a in item["answers"]):
        return "no_span_in_passage"
    if not answered:
        return "declined_passage_never_names_it" if _unnamed(reason, passage) else "declined"
    sentences = [passage[a:b] for a, b in split_sentences(passage)]
    if not any(_norm(a) in _norm(s) for a in item["answers"] for s in sentences):
        return "spread_over_sentences"
    return "wrong_sentence" if cited_doc else "wrong_document"


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


def settings_overrides(pairs: list[str]) -> dict[str, Any]:
    """`--set gate.subject_check=false` pairs as settings overrides (values read as JSON
    where they parse: false, 0.4; else as text), with the answer cache off."""
    out: dict[str, Any] = {"cache.enabled": False}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"--set {pair!r}: expected KEY=VALUE, e.g. gate.subject_check=false")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def _open(folder: Path, docs: dict[str, str], overrides: dict[str, Any]) -> Ragcite:
    for doc_id, text in docs.items():
        (folder / f"{doc_id}.txt").write_text(text + "\n", encoding="utf-8")
    rag = Ragcite.open(load_settings(store_path=folder / "store.db", overrides=overrides))
    rag.ingest([folder])
    return rag


def _span_rate(
    rag: Ragcite, questions: list[dict[str, Any]], docs: dict[str, str], *, rows: bool = False
) -> dict[str, Any]:
    by_focus: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in questions:
        response = rag.ask(item["q"])
        texts = [c.claim_text for c in response.cited_claims]
        claims = _norm(" ".join(texts))
        cited = " ".join(
            response.chunk(cid).document_id  # type: ignore[union-attr]
            for c in response.cited_claims
            for cid in c.source_chunk_ids
            if response.chunk(cid) is not None
        )
        passage = docs[item["doc"]]
        row: dict[str, Any] = {
            "span": any(_norm(a) in claims for a in item["answers"]),
            "normalised": any(_holds(t, item["answers"]) for t in texts),
            "exists": _holds(passage, item["answers"]),
            "doc": item["doc"] in cited,
            "claims": len(texts),
            "q": item["q"],
            "answers": item["answers"],
            "texts": texts,
        }
        if not response.answerable:
            row["reason"] = response.confidence_reason
        if not row["span"]:
            row["miss"] = _miss(
                item, response.answerable, row["doc"], passage, response.confidence_reason
            )
        by_focus[question_focus(item["q"])].append(row)
    return _summary(by_focus, keep_rows=rows)


def _rate(rows: list[dict[str, Any]], key: str) -> float:
    return round(sum(bool(r[key]) for r in rows) / max(len(rows), 1), 4)


def _summary(
    by_focus: dict[str, list[dict[str, Any]]], *, keep_rows: bool = False
) -> dict[str, Any]:
    """The rates overall and per focus; with `keep_rows`, each question's row too (its question,
    gold answers and claims: what a failure analysis reads)."""
    rows = [r for v in by_focus.values() for r in v]
    exists = [r for r in rows if r["exists"]]
    misses: dict[str, int] = defaultdict(int)
    for r in rows:
        if "miss" in r:
            misses[r["miss"]] += 1
    out: dict[str, Any] = {
        "questions": len(rows),
        "span_in_claims": _rate(rows, "span"),
        "span_in_passage": len(exists),
        "span_in_claims_where_in_passage": _rate(exists, "span"),
        "normalised_in_claims_where_in_passage": _rate(exists, "normalised"),
        "right_document_cited": _rate(rows, "doc"),
        "claims_per_question": round(sum(r["claims"] for r in rows) / max(len(rows), 1), 3),
        "misses": dict(sorted(misses.items())),
    }
    if keep_rows:
        out["rows"] = rows
    out["by_focus"] = {
        focus: {
            "n": len(v),
            "span_in_claims": _rate(v, "span"),
            "where_in_passage": _rate([r for r in v if r["exists"]], "span"),
        }
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
    parser.add_argument("--rows", action="store_true", help="Keep each question's row.")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="A settings override for every store (repeatable), e.g. gate.subject_check=false.",
    )
    args = parser.parse_args(argv)
    overrides = settings_overrides(args.set)
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        demo_store = base / "demo"
        demo_store.mkdir()
        rag = Ragcite.open(load_settings(store_path=demo_store / "s.db", overrides=overrides))
        rag.ingest([ROOT / "demo"])
        report["demo"] = _demo(rag)
        rag.close()
        for name, (docs, questions) in {
            "squad_heldout": _squad(args.squad),
            "halueval_unseen": _halueval(1500, args.halueval),
        }.items():
            folder = base / name
            folder.mkdir()
            rag = _open(folder, docs, overrides)
            report[name] = _span_rate(rag, questions, docs, rows=args.rows)
            rag.close()
            brief = {k: v for k, v in report[name].items() if k not in ("by_focus", "rows")}
            print(name, json.dumps(brief))
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
