"""A real llama.cpp OpenAI-compatible server (xllamacpp) on loopback, running SmolLM2."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from ragcite.generate.local_llama import llama_server, smollm2_path
from ragcite.models import SourceChunk


@pytest.fixture(scope="session")
def llama_server_url() -> Iterator[str]:
    """The server's base URL (`http://127.0.0.1:PORT`), on a free port, for the session."""
    server = llama_server(smollm2_path(), n_ctx=2048, n_threads=1, port=0)
    url = str(server.listening_address)
    deadline = time.monotonic() + 30
    while httpx.get(f"{url}/health", timeout=5).status_code != 200:
        assert time.monotonic() < deadline, "the llama.cpp server did not become healthy"
        time.sleep(0.2)
    yield url
    del server  # the binding stops the HTTP server and frees the model


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
