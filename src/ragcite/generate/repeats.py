"""A sentence is cited once: the chosen sentences without repeats and near-duplicates."""

from __future__ import annotations

import numpy as np

from ragcite.embed.base import Embedder
from ragcite.generate.joining import Candidate
from ragcite.text.table_rows import is_table_row

# Near-duplicate sentences (the same rule restated in an overlapping chunk) are cited once.
_DUPLICATE_SIMILARITY = 0.92


def without_repeats(chosen: list[Candidate], embedder: Embedder) -> list[Candidate]:
    """`chosen` without repeats and near-duplicates (first kept): a near-duplicate restates
    a kept sentence in another chunk (chunks overlap). Rows of a table are alike by design
    ("Priority — Response time: 4 hours", "Critical — … 30 minutes"), and so are the items
    of a list in one chunk ("Below 99.9%: a credit of 10%", "Below 99.0%: … 25%"): a row is
    a duplicate only of the same text, a sentence only of one in another chunk."""
    kept: list[Candidate] = []
    vectors: list[tuple[str, np.ndarray]] = []
    for candidate in chosen:
        if any(k.chunk_id == candidate.chunk_id and k.start == candidate.start for k in kept):
            continue
        if is_table_row(candidate.text):
            if all(k.text != candidate.text for k in kept):
                kept.append(candidate)
            continue
        vector = embedder.embed([candidate.text_in_context])[0]  # cached: embedded when scored
        if any(
            chunk_id != candidate.chunk_id and float(vector @ v) >= _DUPLICATE_SIMILARITY
            for chunk_id, v in vectors
        ):
            continue
        kept.append(candidate)
        vectors.append((candidate.chunk_id, vector))
    return kept
