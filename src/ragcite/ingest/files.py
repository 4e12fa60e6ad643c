"""The files inside a folder to ingest, walked without surprises.

Symbolic links to folders are followed once; a link that leads back into a folder being
walked (a loop), a link to a folder already walked, a broken link and an unreadable folder
are each reported on one line naming the path, never skipped silently. Hidden entries
(".git", ".DS_Store") and metadata sidecars are left out on purpose.

    >>> scan = scan_folder(Path("policies"))
    >>> scan.files[:1], scan.problems[:1]
    ([PosixPath('policies/hr/leave.md')], [(PosixPath('policies/loop'), 'a symlink loop: ...')])
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path

SIDECAR_SUFFIX = ".meta.yaml"


@dataclass
class FolderScan:
    """Files found (sorted), and (path, one-line reason) for what could not be walked."""

    files: list[Path] = field(default_factory=list)
    problems: list[tuple[Path, str]] = field(default_factory=list)


def scan_folder(root: Path) -> FolderScan:
    """Every visible file under `root`, following folder links once, reporting loops."""
    scan = FolderScan()
    walked: dict[tuple[int, int], Path] = {}
    stack: list[tuple[Path, tuple[tuple[int, int], ...]]] = [(root, ())]
    while stack:
        folder, ancestors = stack.pop()
        try:
            info = folder.stat()
        except OSError as exc:
            scan.problems.append((folder, _unreadable(exc)))
            continue
        key = (info.st_dev, info.st_ino)
        if key in ancestors:
            scan.problems.append(
                (folder, "a symlink loop: it leads back to a folder that contains it; not followed")
            )
            continue
        if key in walked:
            scan.problems.append(
                (folder, f"the same folder as {walked[key]}; its files are ingested once, there")
            )
            continue
        walked[key] = folder
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            scan.problems.append((folder, _unreadable(exc)))
            continue
        for entry in entries:
            path = folder / entry.name
            if entry.name.startswith(".") or entry.name.endswith(SIDECAR_SUFFIX):
                continue
            if _is_dir(entry):
                stack.append((path, (*ancestors, key)))
            elif _is_file(entry):
                scan.files.append(path)
            elif entry.is_symlink():
                scan.problems.append((path, _bad_link(path)))
    scan.files.sort()
    scan.problems.sort()
    return scan


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=True)
    except OSError:
        return False


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=True)
    except OSError:
        return False


def _bad_link(path: Path) -> str:
    try:
        path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symlink loop: the link leads back to itself; not followed"
        if exc.errno == errno.ENOENT:
            return f"a broken symbolic link: its target {os.readlink(path)} does not exist"
        return _unreadable(exc)
    return "not a regular file or folder; not ingested"


def _unreadable(exc: OSError) -> str:
    return f"cannot read it: {exc.strerror or exc}"
