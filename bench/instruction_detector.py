"""Precision and recall of the instruction detector, and its false-positive rate on real text.

    .venv/bin/python bench/instruction_detector.py [--passages 3000]

The hand-written sets are tests/data/injection/*.txt; real text is every sentence of the
demo corpus and of SQuAD 2.0, HaluEval, RGB and AttributionBench passages from
../shared/datasets (where present).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ragcite.ingest.loaders import SUPPORTED_EXTENSIONS, load_document
from ragcite.text.instructions import is_instruction
from ragcite.text.sentences import split_sentences

ROOT = Path(__file__).resolve().parents[1]
SETS = ROOT / "tests" / "data" / "injection"
DATASETS = ROOT.parent / "shared" / "datasets"


def _lines(name: str) -> list[str]:
    return [line.strip() for line in (SETS / name).read_text().splitlines() if line.strip()]


def _sentences(texts: list[str]) -> list[str]:
    return [t[a:b] for t in texts for a, b in split_sentences(t)]


def _passages(limit: int) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    contexts = [
        p["context"]
        for part in sorted((DATASETS / "squad2_subset").glob("part_*.json"))
        for article in json.loads(part.read_text())["data"]
        for p in article["paragraphs"]
    ]
    if contexts:
        out["squad2"] = contexts[:limit]
    halueval = DATASETS / "halueval" / "qa_train.jsonl"
    if halueval.exists():
        with halueval.open() as lines:
            out["halueval"] = [
                json.loads(line)["knowledge"] for _, line in zip(range(limit), lines, strict=False)
            ]
    rgb = DATASETS / "rgb" / "en_fact.json"
    if rgb.exists():  # news passages
        with rgb.open() as lines:
            out["rgb"] = [
                text
                for line in lines
                for value in json.loads(line).values()
                if isinstance(value, list)
                for text in value
                if isinstance(text, str)
            ][:limit]
    attribution = DATASETS / "attributionbench" / "dev.jsonl"
    if attribution.exists():  # web references
        with attribution.open() as lines:
            out["attributionbench"] = [
                text
                for line in lines
                for text in json.loads(line).get("references") or []
                if isinstance(text, str)
            ][:limit]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passages", type=int, default=3000)
    args = parser.parse_args()
    injections, legitimate = _lines("injection_sentences.txt"), _lines("legitimate_sentences.txt")
    tp = sum(map(is_instruction, injections))
    fp = sum(map(is_instruction, legitimate))
    print(
        f"hand-written: recall {tp}/{len(injections)}, false positives {fp}/{len(legitimate)}, "
        f"precision {tp / max(1, tp + fp):.3f}"
    )
    demo = [
        load_document(p).text
        for p in sorted((ROOT / "demo").iterdir())
        if p.suffix.lower() in SUPPORTED_EXTENSIONS
    ]
    corpora = {"demo": demo, **_passages(args.passages)}
    for name, texts in corpora.items():
        sentences = _sentences(texts)
        hits = [s for s in sentences if is_instruction(s)]
        print(
            f"{name}: {len(hits)} of {len(sentences)} sentences flagged "
            f"({len(hits) / max(1, len(sentences)):.5f})"
        )
        for hit in hits[:10]:
            print("   ", " ".join(hit.split())[:160])


if __name__ == "__main__":
    main()
