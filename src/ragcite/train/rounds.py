"""The blind rounds as training data: their folders, questions and stores.

A round (`eval/rounds/rNN`) is three documents in `docs/` and `questions.tsv` (id, question,
expected strings separated by ` || `, or `UNANSWERABLE`). The commands fitted on them
(`ragcite train question-map`, `ragcite train answer-decision`) ingest each round once into a
store of its own under their work folder and ask its questions there.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite


def normalised(text: str) -> str:
    """`text` lowered, with straight apostrophes and single spaces (how expected strings are
    matched)."""
    return " ".join(text.lower().replace("\u2019", "'").split())


def round_folders(rounds: Path) -> list[tuple[int, Path]]:
    """(number, folder) of every `rNN` folder under `rounds`, in number order."""
    folders = sorted(rounds.glob("r[0-9]*"), key=lambda p: int(p.name[1:]))
    return [(int(folder.name[1:]), folder) for folder in folders]


def round_questions(folder: Path) -> list[tuple[str, str, list[str]]]:
    """(id, question, expected strings) of a round's `questions.tsv`; no strings when the
    question is unanswerable."""
    out = []
    for line in (folder / "questions.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        qid, question, expected = line.split("\t")[:3]
        strings = [] if expected.strip() == "UNANSWERABLE" else expected.split(" || ")
        out.append((qid, question, [normalised(s) for s in strings]))
    return out


@contextmanager
def round_store(folder: Path, store: Path, overrides: dict[str, Any]) -> Iterator[Ragcite]:
    """The pipeline over a round's store at `store` (its documents ingested the first time,
    kept for a rerun), opened with the answer cache off and `overrides`."""
    settings = load_settings(store_path=store, overrides={"cache.enabled": False, **overrides})
    rag = Ragcite.open(settings)
    try:
        if not rag.store.list_documents():
            rag.ingest([folder / "docs"])
        yield rag
    finally:
        rag.close()
