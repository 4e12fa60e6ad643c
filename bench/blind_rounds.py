"""The blind rounds: right answers per round of `eval/rounds/rNN/`, and totals by group.

Each round is three documents an organisation would publish and 40 questions written by
someone who never saw the code (`questions.tsv`: id, question, expected). An expected answer
is one or more verbatim strings separated by ` || `, any one of which must be in the claims;
`UNANSWERABLE` is right when the question is declined. Each round's documents are ingested
into a store under `--workdir` (kept: a second run reuses it) and asked through the real
pipeline with the default settings and no cache.

    python bench/blind_rounds.py                          # every round, totals by group
    python bench/blind_rounds.py --rounds 63-70 --show XX # those rounds, and what they missed
    python bench/blind_rounds.py --set generate.question_map=false
    python bench/blind_rounds.py --probes eval/rounds/situation_probes.tsv

`--probes` reads lines of round, id, question, expected and asks each of its round's store.
Answers depend a little on set iteration order: run with `PYTHONHASHSEED=0` to compare two
versions question by question (`--out` writes every question's line).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from answer_choice import settings_overrides  # the same --set pairs, with the cache off

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite

ROUNDS = Path(__file__).resolve().parents[1] / "eval" / "rounds"
# How the rounds were used: fitted on by the question map, used to choose its strength,
# held out when it was fitted, and written after it.
GROUPS = (
    (16, 46),
    (47, 54),
    (55, 62),
    (63, 66),
    (67, 70),
    (71, 74),
    (75, 78),
    (79, 82),
    (83, 86),
    (87, 90),
    (91, 94),
    (95, 98),
)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def _right(rag: Ragcite, question: str, expected: str) -> tuple[bool, str]:
    """Whether `rag` answers `question` as `expected` says, and what it said."""
    response = rag.ask(question)
    if not response.answerable:
        return expected.strip() == "UNANSWERABLE", "DECLINED: " + response.confidence_reason
    claims = " ".join(c.claim_text for c in response.cited_claims)
    hit = any(_norm(e) in _norm(claims) for e in expected.split(" || "))
    return expected.strip() != "UNANSWERABLE" and hit, claims


def _store(number: int, workdir: Path, overrides: dict[str, Any]) -> Ragcite:
    path = workdir / f"r{number}.db"
    fresh = not path.exists()
    rag = Ragcite.open(load_settings(store_path=path, overrides=overrides))
    if fresh:
        rag.ingest([ROUNDS / f"r{number}" / "docs"])
    return rag


def _questions(number: int) -> list[tuple[str, str, str]]:
    lines = (ROUNDS / f"r{number}" / "questions.tsv").read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("\t")[:3]) for line in lines if line.strip()]  # type: ignore[misc]


def _span(text: str) -> list[int]:
    first, _, last = text.partition("-")
    try:
        return list(range(int(first), int(last or first) + 1))
    except ValueError:
        raise SystemExit(f"--rounds {text!r}: expected a round or a range, e.g. 63-70") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", default="16-98", help="A round or a range (default 16-98).")
    parser.add_argument("--workdir", type=Path, default=Path("runs/rounds"), help="Stores.")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--probes", type=Path, help="Round-tagged questions to ask instead.")
    parser.add_argument("--show", choices=("OK", "XX", "all"), help="Print these questions.")
    parser.add_argument("--out", type=Path, help="Write each question's result here (JSON).")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    overrides = settings_overrides(args.set)
    if args.probes:
        lines = args.probes.read_text(encoding="utf-8").splitlines()
        asked = [(int(r), (i, q, e)) for r, i, q, e in (x.split("\t")[:4] for x in lines if x)]
    else:
        asked = [(n, q) for n in _span(args.rounds) for q in _questions(n)]
    stores: dict[int, Ragcite] = {}
    results: list[dict[str, Any]] = []
    for number, (qid, question, expected) in asked:
        if number not in stores:
            stores[number] = _store(number, args.workdir, overrides)
        right, said = _right(stores[number], question, expected)
        results.append(
            {"round": number, "id": qid, "right": right, "question": question, "said": said}
        )
        if args.show == "all" or (args.show == ("OK" if right else "XX")):
            print(f"{'OK' if right else 'XX'} r{number} {qid} {question} -> {said[:160]}")
    for rag in stores.values():
        rag.close()
    _report(results)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")


def _report(results: list[dict[str, Any]]) -> None:
    """Right answers and unanswerable questions declined, per round and per group."""

    def line(name: str, rows: list[dict[str, Any]]) -> str:
        unanswerable = [r for r in rows if r["id"].startswith("u") or "-u" in r["id"]]
        declined = sum(r["right"] for r in unanswerable)
        right = sum(r["right"] for r in rows)
        return (
            f"{name:>8}  {right:4d} of {len(rows):4d}  declined {declined} of {len(unanswerable)}"
        )

    numbers = sorted({r["round"] for r in results})
    for number in numbers:
        print(line(f"r{number}", [r for r in results if r["round"] == number]))
    for low, high in GROUPS:
        rows = [r for r in results if low <= r["round"] <= high]
        if rows and len(numbers) > 1:
            print(line(f"{low}-{high}", rows))
    print(line("all", results))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
