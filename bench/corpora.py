"""Real passages for the benchmarks, from the data sets in ../shared/datasets.

Varied on purpose: Wikipedia knowledge (HaluEval), web evidence (Factcheck-GPT, WiCE),
adversarial NLI premises (ANLI), scientific abstracts (HealthVer), Wikipedia sentences
(Climate-FEVER), SQuAD paragraphs, news and RGB snippets. Each passage is cut to at most
800 characters (ragcite's chunk size), deduplicated, and the sources are interleaved so
any prefix of the list mixes them all.

    >>> passages = real_passages(1000)
"""

from __future__ import annotations

import csv
import itertools
import json
from collections.abc import Iterator
from pathlib import Path

DATASETS = Path(__file__).resolve().parents[2] / "shared" / "datasets"
MAX_CHARS = 800
MIN_CHARS = 80


def _jsonl(path: Path) -> Iterator[dict[str, object]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def _halueval() -> Iterator[str]:
    for row in _jsonl(DATASETS / "halueval" / "qa_train.jsonl"):
        yield str(row["knowledge"])


def _factcheck() -> Iterator[str]:
    for row in _jsonl(DATASETS / "factcheck_gpt" / "subtask3_claim_evidence_stance.jsonl"):
        yield str(row["evidence"])


def _anli() -> Iterator[str]:
    for rnd in ("R1", "R2", "R3"):
        for row in _jsonl(DATASETS / "anli" / rnd / "dev.jsonl"):
            yield str(row["context"])


def _healthver() -> Iterator[str]:
    for name in ("healthver_dev.csv", "healthver_test.csv"):
        with (DATASETS / "healthver" / name).open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                yield row["evidence"]


def _climate() -> Iterator[str]:
    for row in _jsonl(DATASETS / "climate_fever" / "climate-fever.jsonl"):
        evidences = row["evidences"]
        assert isinstance(evidences, list)
        yield " ".join(str(e["evidence"]) for e in evidences)


def _squad() -> Iterator[str]:
    for name in ("part_a.json", "part_b.json"):
        data = json.loads((DATASETS / "squad2_subset" / name).read_text(encoding="utf-8"))
        for article in data["data"]:
            for paragraph in article["paragraphs"]:
                yield paragraph["context"]


def _rgb() -> Iterator[str]:
    for row in _jsonl(DATASETS / "rgb" / "en_fact.json"):
        for key in ("positive", "negative"):
            passages = row[key]
            assert isinstance(passages, list)
            yield from (str(p) for p in passages)


def _wice() -> Iterator[str]:
    for row in _jsonl(DATASETS / "wice" / "oracle_chunks_claim_dev.jsonl"):
        evidence = row.get("evidence")
        if isinstance(evidence, list):
            yield " ".join(str(e) for e in evidence)


SOURCES = (_halueval, _factcheck, _anli, _healthver, _climate, _squad, _rgb, _wice)


def real_passages(limit: int | None = None) -> list[str]:
    """Up to `limit` distinct real passages, interleaved across the sources."""
    seen: dict[str, None] = {}
    streams = [source() for source in SOURCES]
    for text in itertools.chain.from_iterable(itertools.zip_longest(*streams)):
        if text is None:
            continue
        text = " ".join(text.split())[:MAX_CHARS]
        if len(text) >= MIN_CHARS:
            seen.setdefault(text, None)
        if limit is not None and len(seen) >= limit:
            break
    return list(seen)


def questions(limit: int) -> list[str]:
    """The first `limit` HaluEval questions: their knowledge passages are among the first
    real passages."""
    out = []
    with (DATASETS / "halueval" / "qa_train.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            out.append(json.loads(line)["question"])
            if len(out) == limit:
                break
    return out


if __name__ == "__main__":
    passages = real_passages()
    print(f"{len(passages)} passages, mean {sum(map(len, passages)) / len(passages):.0f} chars")
