"""Ingest one folder in this process and print the outcome as JSON (run as a subprocess by
the hostile-corpus test, so its peak memory is this process's alone).

    python -m tests.ingest.hostile.run_batch FOLDER STORE MAX_UNPACKED_BYTES
"""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

from ragcite.config import IngestSettings
from ragcite.embed.static import StaticEmbedder
from ragcite.index.indexer import Indexer
from ragcite.index.sqlite_store import SQLiteStore


def peak_rss_kib() -> int:
    """This process's peak resident memory. VmHWM belongs to the process's own address
    space; ru_maxrss would also count the parent's size at fork time (kept across exec)."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> None:
    folder, store_path, max_unpacked = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    embedder = StaticEmbedder()
    store = SQLiteStore(store_path, dimension=embedder.dimension)
    limits = IngestSettings(max_unpacked_bytes=max_unpacked)
    report = Indexer(store, embedder, limits=limits).ingest([folder])
    counts = store.counts()
    print(
        json.dumps(
            {
                "outcomes": [
                    {"name": o.path.name, "status": o.status, "error": o.error, "id": o.document_id}
                    for o in report.outcomes
                ],
                "documents": counts.documents,
                "versions": counts.versions,
                "chunks": counts.chunks,
                "peak_rss_kib": peak_rss_kib(),
                "seconds": report.seconds,
            }
        )
    )


if __name__ == "__main__":
    main()
