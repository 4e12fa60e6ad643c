"""The hostile-file corpus: every file gets a clear one-line error naming it (deep HTML: all
its text), nothing is stored half, the rest of the batch is ingested, and the whole batch
runs under a stated peak memory.

PEAK_RSS_BOUND_MIB is the bound for the ingesting process (Python, the loaders, SQLite and
the static embedder): a 1 GiB zip bomb, a 40 MiB DOCX part and a 1 MB single line included.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ragcite.embed.static import StaticEmbedder
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.index.store import SearchFilters

from .corpus import DEEP_LEVELS, MiB, build

PEAK_RSS_BOUND_MIB = 300
ROOT = Path(__file__).resolve().parents[3]


def test_hostile_corpus(tmp_path: Path) -> None:
    folder = tmp_path / "hostile"
    expected = build(folder, big_part_bytes=40 * MiB)
    store_path = tmp_path / "store.db"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.ingest.hostile.run_batch",
            str(folder),
            str(store_path),
            str(32 * MiB),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result = json.loads(run.stdout)
    outcomes = {o["name"]: o for o in result["outcomes"]}
    assert set(outcomes) == set(expected)
    for name, want in expected.items():
        got = outcomes[name]
        assert got["status"] == want.status, (name, got)
        if want.status != "added":
            error = got["error"]
            assert name in error and "\n" not in error, (name, error)
            for word in want.words:
                assert word in error, (name, error)
    added = [name for name, want in expected.items() if want.status == "added"]
    # Nothing stored half: exactly one version per added file, every chunk in place.
    assert result["documents"] == result["versions"] == len(added)
    store = SQLiteStore(store_path, dimension=StaticEmbedder().dimension)
    deep = store.document_text(outcomes["deep.html"]["id"]).text
    assert all(f"Clause {i} applies at level {i}." in deep for i in range(DEEP_LEVELS))
    for name in added:
        text = store.document_text(outcomes[name]["id"]).text
        chunks = store.keyword_search(text.split()[0], 10_000, SearchFilters())
        assert chunks and all(
            text[c.chunk.char_start : c.chunk.char_end] == c.chunk.chunk_text
            for c in chunks
            if c.chunk.document_id == outcomes[name]["id"]
        )
    peak_mib = result["peak_rss_kib"] / 1024
    assert peak_mib < PEAK_RSS_BOUND_MIB, f"peak memory {peak_mib:.0f} MiB"
    print(f"hostile corpus: peak {peak_mib:.0f} MiB in {result['seconds']:.1f} s")
