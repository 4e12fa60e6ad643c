"""The MiniLM embedder batches by tokens: long texts a few at a time, short ones many; a
text's vector does not depend on the batch it ran in."""

from __future__ import annotations

import numpy as np
import pytest

from ragcite.embed.minilm import MiniLMEmbedder, _batches


def test_batches_hold_at_most_the_budget_once_padded_and_cover_every_text() -> None:
    lengths = [12, 250, 40, 250, 9, 120, 33, 256, 60, 11]
    batches = _batches(lengths, most=4, budget=512)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:
        assert len(batch) <= 4
        assert len(batch) == 1 or len(batch) * max(lengths[i] for i in batch) <= 512
    # Sorted by length: short texts share batches, long ones go two at a time.
    assert [len(b) for b in batches] == [4, 3, 2, 1]


def test_a_texts_vector_does_not_depend_on_its_batch() -> None:
    texts = [
        "Leave.",
        "Full-time employees receive 25 days of paid annual leave per calendar year. " * 6,
        "How long do we keep customer PII?",
        "Lost or stolen laptops must be reported to the IT Service Desk within 4 hours. " * 3,
        "",
    ]
    one_by_one = np.stack([MiniLMEmbedder().embed([t])[0] for t in texts])
    for budget in (256, 1024, 8192):
        together = MiniLMEmbedder(batch_tokens=budget).embed(texts)
        # The int8 model quantises each batch on its own scale: the fourth decimal at most.
        assert np.min(np.sum(together * one_by_one, axis=1)) > 0.999


def test_a_budget_below_one_text_is_refused() -> None:
    with pytest.raises(ValueError, match="batch_tokens"):
        MiniLMEmbedder(max_tokens=256, batch_tokens=100)
