"""What ingest reports: each file's outcome, the run's report, and the progress callbacks.

>>> report = rag.ingest([Path("demo")])
>>> [(o.path.name, o.status) for o in report.outcomes][:1]
[('customer-support-sla.md', 'added')]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ragcite.errors import RagciteError


@dataclass(frozen=True)
class FileOutcome:
    path: Path
    status: str  # "added" | "unchanged" | "skipped" | "failed"
    document_id: str | None = None
    version: int | None = None
    chunks: int = 0
    version_name: str | None = None
    error: str | None = None
    # The error a failed file raised, kept so callers can map its kind (limit, conflict).
    failure: RagciteError | None = field(default=None, compare=False, repr=False)


@dataclass
class IngestReport:
    outcomes: list[FileOutcome] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def added(self) -> int:
        return sum(1 for o in self.outcomes if o.status == "added")

    @property
    def unchanged(self) -> int:
        return sum(1 for o in self.outcomes if o.status == "unchanged")

    @property
    def failed(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    @property
    def chunks(self) -> int:
        return sum(o.chunks for o in self.outcomes if o.status == "added")


ProgressCallback = Callable[[FileOutcome], None]
# (file, texts embedded so far, texts in the file): progress inside one large file; the
# texts are its chunks and, with `ingest.sentence_vectors`, their sentences.
ChunkProgress = Callable[[Path, int, int], None]


class OutcomesInOrder:
    """Files' outcomes kept in file order after those decided before any file was read,
    each passed to `on_file` as soon as every earlier one is known."""

    def __init__(
        self, count: int, outcomes: list[FileOutcome], on_file: ProgressCallback | None
    ) -> None:
        self._slots: list[FileOutcome | None] = [None] * count
        self._next = 0  # the first slot not yet passed on
        self._outcomes = outcomes
        self._on_file = on_file

    def set(self, slot: int, outcome: FileOutcome) -> None:
        self._slots[slot] = outcome
        while self._next < len(self._slots) and (ready := self._slots[self._next]) is not None:
            self._outcomes.append(ready)
            self._next += 1
            if self._on_file is not None:
                self._on_file(ready)
