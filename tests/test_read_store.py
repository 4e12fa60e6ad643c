"""`store_read`: ask and search retrieve from a read-only copy of the store (a PostgreSQL
streaming replica in production), while writes and listings use the store itself."""

from __future__ import annotations

import shutil
from pathlib import Path

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite


def test_ask_and_search_read_from_the_read_store(demo_store_path: Path, tmp_path: Path) -> None:
    replica = tmp_path / "replica.db"
    shutil.copy(demo_store_path, replica)
    lagging = Ragcite.open(load_settings(store=replica))
    lagging.store.delete_document("data-retention-policy")  # the copy differs from the store
    lagging.close()

    rag = Ragcite.open(load_settings(store=demo_store_path, overrides={"store_read": str(replica)}))
    assert rag.read_store is not None and rag.retriever.store is rag.read_store
    chunks, _ = rag.search("How long are system backups kept?")
    assert chunks and all(c.document_id != "data-retention-policy" for c in chunks)
    response = rag.ask("How long are system backups kept?")
    assert "35 days" not in response.answer_text
    statuses = {d.status for d in rag.store.list_documents() if d.document_id.startswith("data-")}
    assert "active" in statuses  # listings read the store itself
    rag.close()

    direct = Ragcite.open(load_settings(store=demo_store_path))
    assert any(
        c.document_id == "data-retention-policy"
        for c in direct.search("How long are system backups kept?")[0]
    )
    direct.close()
