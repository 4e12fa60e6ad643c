"""`ragcite ask/search --reranker SPEC`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_cli import run


def test_search_with_the_default_reranker_named(demo_store_path: Path) -> None:
    code, out = run(
        "search",
        "backup retention",
        "--json",
        "-k",
        "2",
        "--reranker",
        "learned",
        store=demo_store_path,
    )
    assert code == 0 and len(json.loads(out)["chunks"]) == 2


def test_a_bad_reranker_spec_is_one_line(demo_store_path: Path) -> None:
    code, out = run("search", "backup retention", "--reranker", "bm25", store=demo_store_path)
    assert code == 1 and out.startswith("Error: reranker spec 'bm25' is not recognised")
    assert "Traceback" not in out


def test_ask_names_the_missing_cohere_key(
    demo_store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COHERE_API_KEY", raising=False)
    code, out = run(
        "ask",
        "How long are backups kept?",
        "--reranker",
        "cohere:rerank-v3.5",
        store=demo_store_path,
    )
    assert code == 1 and "COHERE_API_KEY" in out and "Traceback" not in out
