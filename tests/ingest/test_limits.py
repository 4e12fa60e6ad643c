"""The `ingest.*` limits: refused early and clearly, nothing stored, progress inside a file."""

from __future__ import annotations

import io
import itertools
import time
import zipfile
from pathlib import Path

import docx
import pytest

from ragcite.config import IngestSettings
from ragcite.embed.static import StaticEmbedder
from ragcite.errors import IngestLimitError
from ragcite.index.indexer import Indexer
from ragcite.index.sqlite_store import SQLiteStore
from ragcite.ingest.chunker import chunk_text
from ragcite.ingest.limits import LoadLimits
from ragcite.ingest.loaders import load_document

from ..cli.test_cli import run

MiB = 1024 * 1024


def _indexer(tmp_path: Path, limits: IngestSettings) -> Indexer:
    embedder = StaticEmbedder()
    store = SQLiteStore(tmp_path / "s.db", dimension=embedder.dimension)
    return Indexer(store, embedder, limits=limits)


def test_a_zip_bomb_docx_is_refused_by_its_ratio_before_unpacking(tmp_path: Path) -> None:
    real = io.BytesIO()
    docx.Document().save(real)
    path = tmp_path / "bomb.docx"
    with zipfile.ZipFile(real) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "word/document.xml":
                data = b"\0" * (64 * MiB)
            out.writestr(item.filename, data)
    started = time.perf_counter()
    with pytest.raises(IngestLimitError, match=r"bomb\.docx: part 'word/document\.xml' is compr"):
        load_document(path)
    assert time.perf_counter() - started < 1.0


def test_pdf_page_limit(tmp_path: Path) -> None:
    demo = Path(__file__).resolve().parents[2] / "demo" / "employee-handbook.pdf"
    with pytest.raises(IngestLimitError, match=r"6 pages, over the limit of 2"):
        load_document(demo, limits=LoadLimits(max_pdf_pages=2))


def test_a_file_over_the_time_limit_is_abandoned_and_nothing_stored(tmp_path: Path) -> None:
    path = tmp_path / "long.md"
    path.write_text("# Long\n\n" + "A sentence about leave. " * 5_000, encoding="utf-8")
    indexer = _indexer(tmp_path, IngestSettings(max_seconds_per_file=1e-6))
    [outcome] = indexer.ingest([path]).outcomes
    assert outcome.status == "failed"
    assert "ingest.max_seconds_per_file" in (outcome.error or "") and "long.md" in (
        outcome.error or ""
    )
    assert indexer.store.counts().versions == 0


def test_progress_is_reported_inside_a_large_file(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_text("\n\n".join(f"Paragraph {i} about leave. " * 30 for i in range(40)))
    seen: list[tuple[int, int]] = []
    report = _indexer(tmp_path, IngestSettings(embed_batch=8)).ingest(
        [path], on_chunks=lambda _, done, total: seen.append((done, total))
    )
    total = seen[-1][1]  # the file's texts: its chunks and their sentences
    assert total > report.chunks > 16 and seen[-1] == (total, total)
    assert [done for done, _ in seen] == sorted({min(i + 8, total) for i in range(0, total, 8)})


def test_the_cli_refuses_a_file_over_the_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "ragcite.toml"
    config.write_text("[ingest]\nmax_file_bytes = 1000\n", encoding="utf-8")
    monkeypatch.setenv("RAGCITE_CONFIG", str(config))
    big = tmp_path / "big.txt"
    big.write_text("word " * 1000, encoding="utf-8")
    code, out = run("ingest", str(big), store=tmp_path / "s.db")
    assert code == 1
    flat = " ".join(out.split())  # the console wraps long lines at its width
    assert "big.txt: 5,000 bytes is over the per-file limit of 1,000 bytes" in flat
    assert "(ingest.max_file_bytes)" in flat


def test_a_huge_single_line_is_chunked_in_linear_time(tmp_path: Path) -> None:
    from ragcite.ingest.chunker import chunk_text

    def seconds(size: int) -> float:
        path = tmp_path / f"line{size}.md"
        words = ("x" * 199 + " ") * (size // 400)  # half words, half one unbroken run
        path.write_text(words + "y" * (size // 2), encoding="utf-8")
        extracted = load_document(path)
        started = time.perf_counter()
        chunks = chunk_text(extracted)
        assert "".join(c.text for c in chunks).replace(" ", "") == extracted.text.replace(" ", "")
        return time.perf_counter() - started

    small, large = seconds(250_000), seconds(2_000_000)
    assert large < 16 * small + 0.5  # 8x the text; quadratic would be 64x


def _long_policy(path: Path, paragraphs: int = 2_000) -> Path:
    path.write_text(
        "# Retention\n\n"
        + "\n\n".join(
            f"Records of kind {i} are kept for {i % 9 + 1} years. They are then deleted."
            for i in range(paragraphs)
        ),
        encoding="utf-8",
    )
    return path


def test_the_time_limit_trips_inside_the_chunker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clock that moves one second per look: with a 200 s limit the file is abandoned
    part-way through chunking (hundreds of checks in), not after it."""
    path = _long_policy(tmp_path / "retention.md")
    ticks = itertools.count()
    monkeypatch.setattr("ragcite.ingest.limits.time.monotonic", lambda: float(next(ticks)))
    indexer = _indexer(tmp_path, IngestSettings(max_seconds_per_file=200))
    [outcome] = indexer.ingest([path]).outcomes
    assert outcome.status == "failed"
    error = outcome.error or ""
    assert error.startswith(str(path)) and "\n" not in error
    assert "took longer than 200 s" in error and "abandoned while chunking" in error
    assert 150 < next(ticks) < 300  # stopped right after the limit, deep inside the loop
    assert indexer.store.counts().versions == 0


def test_the_chunker_checks_throughout_a_long_text(tmp_path: Path) -> None:
    extracted = load_document(_long_policy(tmp_path / "retention.md"))
    calls = 0

    def check() -> None:
        nonlocal calls
        calls += 1
        if calls == 500:
            raise IngestLimitError("retention.md", "time is up")

    with pytest.raises(IngestLimitError, match="time is up"):
        chunk_text(extracted, chunk_size=800, check=check)
    assert calls == 500
    assert len(chunk_text(extracted, chunk_size=800)) > 100  # 500 checks: well inside


def test_a_real_pdf_over_a_tiny_limit_names_the_file_and_page(tmp_path: Path) -> None:
    demo = Path(__file__).resolve().parents[2] / "demo" / "employee-handbook.pdf"
    indexer = _indexer(tmp_path, IngestSettings(max_seconds_per_file=1e-6))
    [outcome] = indexer.ingest([demo]).outcomes
    assert outcome.status == "failed"
    assert "employee-handbook.pdf" in (outcome.error or "")
    assert "abandoned while reading page 1" in (outcome.error or "")
