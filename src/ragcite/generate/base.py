"""The Generator protocol: turn a question and retrieved chunks into a draft answer.

A draft's claims cite chunk IDs with verbatim quotes; nothing a generator returns is
trusted until the gate (verify/) has checked it.
"""

from __future__ import annotations

from typing import Protocol

from ragcite.models import DraftAnswer, SourceChunk


class Generator(Protocol):
    """Optionally `checks_relevance = True`: the generator quotes only sentences it scored
    relevant to the question itself (the extractive generator), so the score does not read
    the quoted passages' retrieval rank as weak evidence (`score_answer`)."""

    model_id: str
    can_retry: bool  # whether a second try naming the gate's violations can do better

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        """A draft answer citing `chunks`. `violations` names what failed the gate last time."""
        ...
