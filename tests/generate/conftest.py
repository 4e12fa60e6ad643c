"""Small chunks for the generator tests (the llama.cpp server fixture is in tests/conftest.py)."""

from __future__ import annotations

import pytest

from ragcite.models import SourceChunk


@pytest.fixture
def small_chunks() -> list[SourceChunk]:
    texts = [
        ("c_leave0001", "Parental leave", "Primary caregivers receive 16 weeks of paid leave."),
        ("c_backup002", "Backups", "Full system backups are kept for 35 days."),
    ]
    return [
        SourceChunk(
            chunk_id=cid,
            document_id=f"doc-{cid}",
            document_title="Handbook",
            section_heading=section,
            chunk_text=text,
            char_start=0,
            char_end=len(text),
            composite_confidence=0.8,
        )
        for cid, section, text in texts
    ]
