"""Crash and load: SIGKILL during ingest, then concurrent asks while another process ingests.

Small in CI; scale by hand with RAGCITE_CRASH_FILES, RAGCITE_CRASH_ROUNDS,
RAGCITE_LOAD_THREADS and RAGCITE_LOAD_ASKS (e.g. 200 files, 20 rounds, 8 threads, 100 asks).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ragcite.config import load_settings
from ragcite.models import CitedResponse
from ragcite.pipeline import Ragcite

from .conftest import DEMO
from .verify.adversarial import assert_nothing_unverified_shown

FILES = int(os.environ.get("RAGCITE_CRASH_FILES", "16"))
ROUNDS = int(os.environ.get("RAGCITE_CRASH_ROUNDS", "3"))
THREADS = int(os.environ.get("RAGCITE_LOAD_THREADS", "8"))
ASKS = int(os.environ.get("RAGCITE_LOAD_ASKS", "3"))
RAGCITE = Path(sys.executable).parent / "ragcite"
QUESTIONS = [
    "How long do we keep customer PII?",
    "How long is parental leave?",
    "What is the daily meal allowance?",
    "How quickly must security incidents be reported?",
    "Within how many days can items be returned?",
]


def _write_notes(folder: Path, count: int, seed: int) -> Path:
    """`count` small Markdown files of real policy prose, each different."""
    folder.mkdir(parents=True, exist_ok=True)
    prose = " ".join(p.read_text() for p in DEMO.glob("*.md")).replace("#", "").split()
    rng = random.Random(seed)
    for number in range(count):
        parts = [" ".join(prose[i : i + 45]) for i in rng.sample(range(len(prose) - 50), 3)]
        (folder / f"note-{seed}-{number:03d}.md").write_text(
            f"# Note {seed}-{number}\n\n## First\n\n{parts[0]}\n\n## Second\n\n{parts[1]}\n\n"
            f"{parts[2]}\n",
            encoding="utf-8",
        )
    return folder


def _ingest(folder: Path, store: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "RAGCITE_STORE": str(store)}
    return subprocess.Popen(
        [str(RAGCITE), "ingest", str(folder)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _documents(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("SELECT count(*) FROM documents").fetchone()[0])
    except sqlite3.OperationalError:  # the tables are not created yet
        return 0


def _wait_for(store: Path, documents: int, process: subprocess.Popen[bytes]) -> None:
    """Until the store holds `documents` documents or the ingest ends (polled every 2 ms:
    an ingest embeds its files together and then writes them within a few milliseconds)."""
    deadline = time.monotonic() + 120
    while _documents(store) < documents and process.poll() is None:
        assert time.monotonic() < deadline, "the ingest made no progress"
        time.sleep(0.002)


def _remove_store(store: Path) -> None:
    for path in (store, store.with_name(store.name + "-wal"), store.with_name(store.name + "-shm")):
        path.unlink(missing_ok=True)


def assert_store_is_whole(store: Path) -> int:
    """Every stored version has all its chunks, each with its vector and keyword row, and
    SQLite finds nothing wrong. Returns the number of documents."""
    with sqlite3.connect(store) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        db.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('integrity-check')")
        versions = db.execute(
            "SELECT d.document_id, d.version, d.extracted_text, count(c.rowid), "
            "coalesce(max(c.ordinal), -1) FROM documents d LEFT JOIN chunks c "
            "ON c.document_id = d.document_id AND c.document_version = d.version "
            "GROUP BY d.document_id, d.version"
        ).fetchall()
        for document_id, version, _text, chunks, last in versions:
            assert chunks > 0 and last == chunks - 1, (document_id, version, chunks, last)
        rows = db.execute(
            "SELECT c.rowid, c.chunk_text, d.extracted_text, c.char_start, c.char_end, "
            "length(c.vector) FROM chunks c JOIN documents d "
            "ON d.document_id = c.document_id AND d.version = c.document_version"
        ).fetchall()
        assert len(rows) == db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        widths = {width for *_, width in rows}
        assert len(widths) <= 1 and all(w and w % 4 == 0 for w in widths), widths
        for _, text, extracted, start, end, _ in rows:
            assert text == extracted[start:end]  # chunks stay verbatim spans
        keyword_rows = {r[0] for r in db.execute("SELECT id FROM chunks_fts_docsize")}
        assert keyword_rows == {r[0] for r in rows}
    return len(versions)


def test_sigkill_during_ingest_leaves_a_whole_store_and_a_reingest_completes(
    tmp_path: Path,
) -> None:
    folder = _write_notes(tmp_path / "notes", FILES, seed=1)
    store = tmp_path / "store.db"
    rng = random.Random(7)
    kills = 0
    for _ in range(4 * ROUNDS):  # an ingest that ends before its kill lands is tried again
        if kills >= ROUNDS:
            break
        if _documents(store) >= FILES:
            _remove_store(store)  # every file is in: start over, so the next kill can land
        before = _documents(store)
        process = _ingest(folder, store)
        _wait_for(store, before + 1, process)  # the first file of this ingest is written
        time.sleep(rng.uniform(0, 0.01))  # land anywhere inside the other files' writes
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            kills += 1
        process.wait(timeout=30)
        assert_store_is_whole(store)
    assert kills >= 1
    finished = _ingest(folder, store)
    _, errors = finished.communicate(timeout=600)
    assert finished.returncode == 0, errors.decode()
    assert assert_store_is_whole(store) == FILES


def test_concurrent_asks_during_an_ingest_in_another_process(
    tmp_path: Path, demo_store_path: Path
) -> None:
    folder = _write_notes(tmp_path / "incoming", max(FILES, 24), seed=2)
    ingest = _ingest(folder, demo_store_path)
    rag = Ragcite.open(load_settings(store_path=demo_store_path))
    try:
        before = _documents(demo_store_path)
        _wait_for(demo_store_path, before + 1, ingest)
        assert ingest.poll() is None, "the ingest ended before the asks began"

        def ask(number: int) -> CitedResponse:
            return rag.ask(QUESTIONS[number % len(QUESTIONS)])

        with ThreadPoolExecutor(THREADS) as pool:
            responses = list(pool.map(ask, range(THREADS * ASKS)))  # any error is raised here
    finally:
        _, errors = ingest.communicate(timeout=600)
        rag.close()
    assert ingest.returncode == 0, errors.decode()
    assert len(responses) == THREADS * ASKS
    for response in responses:
        assert_nothing_unverified_shown(response.cited_claims, response.source_chunks, set())
    assert sum(r.answerable for r in responses) >= len(responses) // 2
    assert assert_store_is_whole(demo_store_path) == before + max(FILES, 24)
