"""Load the next files' text in a worker thread while a group of files embeds.

Parsing is Python; the embedder runs in onnxruntime, which releases the GIL and leaves
part of the CPU free between its batches. So while a group embeds, the files that come
next are loaded (read, parsed, their text and page and section maps extracted) on a
worker thread, and the indexer takes each one's text when it reaches the file instead of
loading it then. Nothing else is done ahead: whether a file is unchanged, its document
ID and version, and every write stay on the indexer's thread, in file order.

Only files that may need loading are loaded ahead (the indexer says which, of the next
`AHEAD_FILES`: not stored before with the same bytes), at most `AHEAD_FILES` files and
`AHEAD_BYTES` bytes of them, so re-ingesting an unchanged corpus parses nothing it did not
before. A file's time limit
counts from when its loading began, whichever thread began it.

    >>> with LoadAhead(settings.ingest, metadata) as ahead:
    ...     ahead.queue([(path_2, root), (path_3, root)], wanted)  # as a group embeds
    ...     text = ahead.take(path_2, limits)  # loaded already, or loaded now
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import TracebackType

from ragcite.config import IngestSettings
from ragcite.ingest.limits import LoadLimits
from ragcite.ingest.loaders import load_document
from ragcite.ingest.types import DocumentMetadata, ExtractedText

Wanted = Callable[[Path, Path, DocumentMetadata], bool]  # worth loading ahead

AHEAD_FILES = 32
AHEAD_BYTES = 64 * 1024 * 1024

__all__ = ["AHEAD_BYTES", "AHEAD_FILES", "LoadAhead"]


class LoadAhead:
    """A worker thread that loads queued files; `take` returns a file's text."""

    def __init__(self, settings: IngestSettings, metadata: DocumentMetadata) -> None:
        self._settings = settings
        self._metadata = metadata
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragcite-load")
        self._loading: dict[Path, Future[ExtractedText]] = {}
        self._started: dict[Path, float] = {}

    def queue(self, files: Iterable[tuple[Path, Path]], wanted: Wanted) -> None:
        """Load these (file, root) pairs ahead, in order, those `wanted` (asked with the
        ingest's metadata), up to the limits on files and bytes waiting."""
        waiting = sum(_size(p) for p in self._loading)
        for path, root in files:
            if len(self._loading) >= AHEAD_FILES:
                return
            if path in self._loading or not wanted(path, root, self._metadata):
                continue
            waiting += _size(path)
            if waiting > AHEAD_BYTES and self._loading:
                return
            self._loading[path] = self._pool.submit(self._load, path)

    def started(self, path: Path) -> float | None:
        """When loading `path` began on the worker, if it has."""
        return self._started.get(path)

    def take(self, path: Path, limits: LoadLimits) -> ExtractedText:
        """`path`'s text, loaded ahead (its errors raised here) or loaded now under
        `limits`."""
        loading = self._loading.pop(path, None)
        self._started.pop(path, None)
        if loading is None or (not loading.running() and loading.cancel()):
            return load_document(path, metadata=self._metadata, limits=limits)
        return loading.result()

    def _load(self, path: Path) -> ExtractedText:
        started = time.monotonic()
        self._started[path] = started
        limits = LoadLimits.from_settings(self._settings, started=started)
        return load_document(path, metadata=self._metadata, limits=limits)

    def close(self) -> None:
        """Drop what was queued and not begun; wait for the file being loaded."""
        for loading in self._loading.values():
            loading.cancel()
        self._pool.shutdown(wait=True)
        self._loading.clear()

    def __enter__(self) -> LoadAhead:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
