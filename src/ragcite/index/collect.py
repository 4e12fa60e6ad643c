"""The files an ingest reads, from the paths a user named, and those it decides at once.

>>> files, decided = collect_files([Path("demo"), Path("missing.md")])
>>> files[0], decided[0].status
((PosixPath('demo/customer-support-sla.md'), PosixPath('demo')), 'failed')
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ragcite.index.ingest_outcomes import FileOutcome
from ragcite.ingest.files import scan_folder
from ragcite.ingest.loaders import SUPPORTED_EXTENSIONS

__all__ = ["collect_files"]


def collect_files(paths: Iterable[Path]) -> tuple[list[tuple[Path, Path]], list[FileOutcome]]:
    """(file, root) pairs to ingest, and outcomes decided already: missing paths fail,
    files of unknown types inside a folder are skipped (named alone, they fail), and
    symlink loops, broken links and unreadable folders are reported as skipped."""
    files: list[tuple[Path, Path]] = []
    decided: list[FileOutcome] = []
    for path in paths:
        if not path.exists():
            decided.append(FileOutcome(path, "failed", error=f"{path}: no such file or folder"))
            continue
        if not path.is_dir():
            files.append((path, path.parent))
            continue
        scan = scan_folder(path)
        for found in scan.files:
            if found.suffix.lower() in SUPPORTED_EXTENSIONS:
                files.append((found, path))
            else:
                decided.append(
                    FileOutcome(found, "skipped", error=f"{found}: not a supported file type")
                )
        decided.extend(
            FileOutcome(where, "skipped", error=f"{where}: {why}") for where, why in scan.problems
        )
    return files, decided
