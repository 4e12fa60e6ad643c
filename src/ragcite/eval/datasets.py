"""Adapters that turn the shared labelled data sets into claim–evidence pairs.

Each `load_<name>()` reads one folder of `../shared/datasets/` (see its README for the
rules) and yields `SupportPair`s. `group` names what rows share (a claim, a document,
an id): split by it, never by row, with `split_of()`.

    >>> pairs = list(load_factcheck_gpt())
    >>> pairs[0].source, pairs[0].supported
    ('factcheck_gpt', False)
"""

from __future__ import annotations

import ast
import csv
import hashlib
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

DEFAULT_ROOT = Path(__file__).resolve().parents[3].parent / "shared" / "datasets"

Split = Literal["train", "validation", "test"]


@dataclass(frozen=True)
class SupportPair:
    """One labelled judgement: does `evidence` (chunks, judged jointly) support `claim`?"""

    evidence: list[str]
    claim: str
    supported: bool
    group: str
    source: str
    contradicted: bool = False


def split_of(
    pair: SupportPair, *, seed: int = 13, shares: tuple[float, float] = (0.6, 0.2)
) -> Split:
    """Deterministic group-wise split: train / validation / test (60 / 20 / 20 by default).

    Only the group is hashed, so pairs built from the same claim or document by different
    loaders (WiCE chunks and gold sentences, HaluEval answers and swaps) stay together.
    """
    digest = hashlib.sha256(f"{seed}:{pair.group}".encode()).digest()
    u = int.from_bytes(digest[:8], "big") / 2**64
    if u < shares[0]:
        return "train"
    if u < shares[0] + shares[1]:
        return "validation"
    return "test"


def group_fold(group: str, folds: int, *, salt: str) -> int:
    """A deterministic cross-validation fold (0 .. folds-1) for a group: rows that share
    a group never land in two folds."""
    digest = hashlib.sha256(f"{salt}:{group}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % folds


def _field_list(value: Any) -> list[Any]:
    """Some exports store lists as Python-literal strings; accept both."""
    if isinstance(value, str):
        parsed = ast.literal_eval(value)
        return list(parsed)
    return list(value)


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def load_attributionbench(root: Path = DEFAULT_ROOT) -> Iterator[SupportPair]:
    """Generative-search claims vs their cited web evidence; grouped by question."""
    for row in _jsonl(root / "attributionbench" / "dev.jsonl"):
        yield SupportPair(
            evidence=[str(r) for r in _field_list(row["references"])],
            claim=row["claim"],
            supported=row["attribution_label"] == "attributable",
            group="attributionbench:" + row["question"].strip().lower(),
            source="attributionbench",
        )


def load_wice(root: Path = DEFAULT_ROOT) -> Iterator[SupportPair]:
    """WiCE oracle chunks (grouped by claim id), plus gold supporting-sentence positives.

    Partially supported claims count as not supported. A supported claim joined with
    one of its gold `supporting_sentences` sets is an extra positive; a partially
    supported claim against its own gold sentences is a hard negative.
    """
    for row in _jsonl(root / "wice" / "oracle_chunks_claim_dev.jsonl"):
        meta = row["meta"] if isinstance(row["meta"], dict) else ast.literal_eval(row["meta"])
        yield SupportPair(
            evidence=[" ".join(str(s) for s in _field_list(row["evidence"]))],
            claim=row["claim"],
            supported=row["label"] == "supported",
            group="wice:" + str(meta["id"]),
            source="wice",
        )
    for row in _jsonl(root / "wice" / "claim_dev.jsonl"):
        meta = row["meta"] if isinstance(row["meta"], dict) else ast.literal_eval(row["meta"])
        page = [str(s) for s in _field_list(row["evidence"])]
        sets = _field_list(row["supporting_sentences"])
        if row["label"] not in ("supported", "partially_supported") or not sets:
            continue
        gold = [page[i] for i in sets[0] if 0 <= i < len(page)]
        if gold:
            yield SupportPair(
                evidence=[" ".join(gold)],
                claim=row["claim"],
                supported=row["label"] == "supported",
                group="wice:" + str(meta["id"]),
                source="wice_gold",
            )


def load_factcheck_gpt(root: Path = DEFAULT_ROOT) -> Iterator[SupportPair]:
    """ChatGPT claims vs retrieved web passages; `refute` marks a contradiction."""
    for row in _jsonl(root / "factcheck_gpt" / "subtask3_claim_evidence_stance.jsonl"):
        yield SupportPair(
            evidence=[row["evidence"]],
            claim=row["claim"],
            supported=row["stance"] == "completely-support",
            group="factcheck_gpt:" + row["claim"],
            source="factcheck_gpt",
            contradicted=row["stance"] == "refute",
        )


def load_summedits(root: Path = DEFAULT_ROOT) -> Iterator[SupportPair]:
    """Minimal-edit summaries vs their document (8 domains); grouped by document."""
    for path in sorted((root / "summedits").glob("summedits_*.json")):
        domain = path.stem.removeprefix("summedits_")
        for row in json.loads(path.read_text(encoding="utf-8")):
            yield SupportPair(
                evidence=[row["doc"]],
                claim=row["summary"],
                supported=str(row["label"]) == "1",
                group=f"summedits:{domain}:{str(row['id']).split('_')[0]}",
                source="summedits",
            )


def load_healthver(root: Path = DEFAULT_ROOT) -> Iterator[SupportPair]:
    """Health claims vs scientific-abstract evidence; grouped by claim."""
    for name in ("healthver_dev.csv", "healthver_test.csv"):
        with (root / "healthver" / name).open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                yield SupportPair(
                    evidence=[row["evidence"]],
                    claim=row["claim"],
                    supported=row["label"] == "Supports",
                    group="healthver:" + row["claim"].strip().lower(),
                    source="healthver",
                    contradicted=row["label"] == "Refutes",
                )


def load_anli(root: Path = DEFAULT_ROOT) -> Iterator[SupportPair]:
    """Adversarial NLI dev rounds: entailment is support; grouped by premise."""
    for round_name in ("R1", "R2", "R3"):
        for row in _jsonl(root / "anli" / round_name / "dev.jsonl"):
            yield SupportPair(
                evidence=[row["context"]],
                claim=row["hypothesis"],
                supported=row["label"] == "e",
                group="anli:" + row["context"][:200],
                source="anli",
                contradicted=row["label"] == "c",
            )


def load_climate_fever(root: Path = DEFAULT_ROOT) -> Iterator[SupportPair]:
    """Each claim against each of its five evidence sentences; grouped by claim."""
    for row in _jsonl(root / "climate_fever" / "climate-fever.jsonl"):
        for ev in _field_list(row["evidences"]):
            yield SupportPair(
                evidence=[ev["evidence"]],
                claim=row["claim"],
                supported=ev["evidence_label"] == "SUPPORTS",
                group="climate_fever:" + str(row["claim_id"]),
                source="climate_fever",
                contradicted=ev["evidence_label"] == "REFUTES",
            )


def _rgb_answer(answer: Any, passages: list[str]) -> str:
    """RGB answers are a string or nested lists of variants: take one the passages use."""
    variants: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            variants.append(value)
        else:
            for item in value:
                walk(item)

    walk(answer)
    joined = " ".join(passages).lower()
    return next((v for v in variants if v.lower() in joined), variants[0])


def rgb_claim(query: str, answer: str) -> str:
    """A declarative-enough claim from an RGB query and an answer."""
    return f"{query.strip().rstrip('?').strip()}: {answer}."


def load_rgb(root: Path = DEFAULT_ROOT) -> Iterator[SupportPair]:
    """A claim with the true answer vs each `positive` (supported) and each
    `positive_wrong` passage (which states the fake answer: contradicted)."""
    text = (root / "rgb" / "en_fact.json").read_text(encoding="utf-8")
    rows = (
        json.loads(text)
        if text.lstrip().startswith("[")
        else [json.loads(line) for line in text.splitlines() if line.strip()]
    )
    for row in rows:
        group = f"rgb:{row['id']}"
        claim = rgb_claim(row["query"], _rgb_answer(row["answer"], row["positive"]))
        for passage in row["positive"]:
            yield SupportPair([passage], claim, True, group, "rgb")
        for passage in row["positive_wrong"]:
            yield SupportPair([passage], claim, False, group, "rgb", contradicted=True)


_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
_ENTITY = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b")


def _halueval_claim(question: str, answer: str) -> str:
    return f"{question.strip()} {answer.strip()}"


def load_halueval(
    root: Path = DEFAULT_ROOT, *, limit: int | None = 3000, seed: int = 13
) -> Iterator[SupportPair]:
    """HaluEval QA: question + right answer (supported) and + hallucinated answer (not),
    plus hard negatives built inside the same passage: the right answer with one entity
    or number swapped for another entity or number of that passage (contradicted).

    HaluEval has strong artifacts (answer length, verbatim spans): use it for the
    constructed hard negatives and as extra training data, not as proof of reading.
    """
    rng = random.Random(seed)
    for index, row in enumerate(_jsonl(root / "halueval" / "qa_train.jsonl")):
        if limit is not None and index >= limit:
            break
        group = f"halueval:{index}"
        knowledge, question = row["knowledge"], row["question"]
        right = _halueval_claim(question, row["right_answer"])
        yield SupportPair([knowledge], right, True, group, "halueval")
        yield SupportPair(
            [knowledge],
            _halueval_claim(question, row["hallucinated_answer"]),
            False,
            group,
            "halueval",
        )
        swapped = _swap_inside_passage(row["right_answer"], knowledge, rng)
        if swapped is not None:
            yield SupportPair(
                [knowledge],
                _halueval_claim(question, swapped),
                False,
                group,
                "halueval_swap",
                contradicted=True,
            )


def _swap_inside_passage(answer: str, passage: str, rng: random.Random) -> str | None:
    """Replace a number or a capitalised name in `answer` by a different one from `passage`."""
    for pattern in (_NUMBER, _ENTITY):
        in_answer = pattern.findall(answer)
        others = sorted({m for m in pattern.findall(passage)} - set(in_answer))
        others = [o for o in others if o not in answer and answer not in o]
        if in_answer and others:
            target = rng.choice(in_answer)
            return answer.replace(target, rng.choice(others), 1)
    return None


LOADERS: dict[str, Callable[[], Iterator[SupportPair]]] = {
    "attributionbench": load_attributionbench,
    "wice": load_wice,
    "factcheck_gpt": load_factcheck_gpt,
    "summedits": load_summedits,
    "healthver": load_healthver,
    "anli": load_anli,
    "climate_fever": load_climate_fever,
    "rgb": load_rgb,
    "halueval": load_halueval,
}


def load_all(names: list[str] | None = None) -> Iterator[SupportPair]:
    """Every pair of the named sets (all by default), in a fixed order."""
    for name in names or list(LOADERS):
        yield from LOADERS[name]()
