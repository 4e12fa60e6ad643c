"""Small chunks for the generator tests (the llama.cpp server fixture is in tests/conftest.py)."""

from __future__ import annotations

import pytest

from ragcite.models import SourceChunk
from tests.generate.chunks import passage_chunk


@pytest.fixture
def small_chunks() -> list[SourceChunk]:
    texts = [
        ("c_leave0001", "Parental leave", "Primary caregivers receive 16 weeks of paid leave."),
        ("c_backup002", "Backups", "Full system backups are kept for 35 days."),
    ]
    return [
        passage_chunk(cid, text, heading=section, title="Handbook") for cid, section, text in texts
    ]
