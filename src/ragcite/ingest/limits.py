"""Limits a loader enforces while it reads one file, so a hostile file fails fast and small.

>>> limits = LoadLimits.from_settings(IngestSettings(), started=time.monotonic())
>>> limits.check_time(Path("big.pdf"))  # raises IngestLimitError once the time is up
"""

from __future__ import annotations

import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ragcite.config import IngestSettings
from ragcite.errors import IngestError, IngestLimitError

MiB = 1024 * 1024
# Only parts at least this large are held to the compression-ratio limit: small XML parts
# compress very well and are harmless.
_RATIO_CHECK_FROM = 1 * MiB


@dataclass(frozen=True)
class LoadLimits:
    """The `ingest.*` limits for one file, with the moment its time runs out."""

    max_file_bytes: int = 50 * MiB
    max_unpacked_bytes: int = 256 * MiB
    max_compression_ratio: float = 200.0
    max_pdf_pages: int = 5_000
    max_pdf_objects: int = 500_000
    max_seconds: float | None = None
    deadline: float | None = None  # time.monotonic() value

    @classmethod
    def from_settings(cls, settings: IngestSettings, *, started: float | None = None) -> LoadLimits:
        """The settings' limits; the time limit counts from `started` when given."""
        deadline = None if started is None else started + settings.max_seconds_per_file
        return cls(
            max_file_bytes=settings.max_file_bytes,
            max_unpacked_bytes=settings.max_unpacked_bytes,
            max_compression_ratio=settings.max_compression_ratio,
            max_pdf_pages=settings.max_pdf_pages,
            max_pdf_objects=settings.max_pdf_objects,
            max_seconds=settings.max_seconds_per_file,
            deadline=deadline,
        )

    def check_size(self, path: Path) -> None:
        """Refuse a file over `ingest.max_file_bytes` before reading it."""
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise IngestError(str(path), f"cannot read the file: {exc.strerror or exc}") from None
        if size > self.max_file_bytes:
            raise IngestLimitError(
                str(path),
                f"{size:,} bytes is over the per-file limit of {self.max_file_bytes:,} bytes "
                "(ingest.max_file_bytes); split the file or raise the limit",
            )

    def check_time(self, path: Path, during: str = "") -> None:
        """Abandon the file once its time limit (`ingest.max_seconds_per_file`) has passed;
        `during` names the step in the message ("while chunking")."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            step = f" {during}" if during else ""
            raise IngestLimitError(
                str(path),
                f"took longer than {self.max_seconds:g} s (ingest.max_seconds_per_file) and was "
                f"abandoned{step}; nothing of it was stored; split the file or raise the limit",
            )

    def check_zip(self, path: Path, what: str) -> None:
        """Refuse a zip package (DOCX) whose parts would unpack too large, from its directory
        alone: nothing is decompressed. (Python's zipfile never inflates a part past the
        size its directory declares, so the declared sizes bound what parsing can use.)"""
        try:
            with zipfile.ZipFile(path) as archive:
                parts = archive.infolist()
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise IngestError(str(path), f"not a readable {what}: {exc}") from None
        total = sum(part.file_size for part in parts)
        if total > self.max_unpacked_bytes:
            raise IngestLimitError(
                str(path),
                f"unpacks to {total:,} bytes, over the limit of {self.max_unpacked_bytes:,} "
                "bytes (ingest.max_unpacked_bytes); refused without unpacking",
            )
        for part in parts:
            ratio = part.file_size / max(part.compress_size, 1)
            if part.file_size >= _RATIO_CHECK_FROM and ratio > self.max_compression_ratio:
                raise IngestLimitError(
                    str(path),
                    f"part '{part.filename}' is compressed {ratio:,.0f}:1, over the limit of "
                    f"{self.max_compression_ratio:g}:1 (ingest.max_compression_ratio); "
                    "refused as a possible zip bomb",
                )


DEFAULT_LIMITS = LoadLimits()
