"""`ragcite corpora` and `corpora set-access`: corpus access groups, on each store kind,
and for a corpus that `[corpora.NAME]` places in another store."""

from __future__ import annotations

import json
from pathlib import Path

from ragcite.index.corpus_access import corpus_access_store
from ragcite.index.sqlite_store import SQLiteStore

from .test_cli import run

QUESTION = "How long are full system backups kept?"


def test_set_access_lists_and_hides_the_corpus(demo_store: str) -> None:
    code, out = run("corpora", "set-access", "default", "--groups", "hr,legal", store=demo_store)
    assert code == 0 and "readers in hr, legal" in out
    code, out = run("corpora", "--json", store=demo_store)
    assert code == 0
    # The demo's 11 documents (12 files: two versions of the data retention policy).
    assert json.loads(out) == [{"corpus": "default", "documents": 11, "groups": ["hr", "legal"]}]
    _, out = run("ask", QUESTION, "--json", "--as-groups", "staff", store=demo_store)
    assert not json.loads(out)["answerable"] and json.loads(out)["sources"] == []
    _, out = run("ask", QUESTION, "--json", "--as-groups", "legal", store=demo_store)
    assert "35 days" in json.loads(out)["answer"]
    code, out = run("corpora", "set-access", "default", "--groups", "", store=demo_store)
    assert code == 0 and "public" in out
    _, out = run("ask", QUESTION, "--json", "--as-groups", "staff", store=demo_store)
    assert "35 days" in json.loads(out)["answer"]
    code, out = run("corpora", store=demo_store)
    assert code == 0 and "public" in out


def test_a_corpus_in_another_store_is_set_there(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "nda.md").write_text("# NDA\n\nThe NDA lasts five years.\n")
    other = tmp_path / "contracts.db"
    assert run("ingest", str(tmp_path / "docs"), "--corpus", "legal", store=other)[0] == 0
    config = tmp_path / "ragcite.toml"
    config.write_text(f'[corpora.contracts]\nstore = "{other}"\ncorpus = "legal"\n')
    main = tmp_path / "main.db"
    code, out = run(
        "--config",
        str(config),
        "corpora",
        "set-access",
        "contracts",
        "--groups",
        "lawyers",
        store=main,
    )
    assert code == 0, out
    store = SQLiteStore(other)
    try:
        assert corpus_access_store(store).corpus_access() == {"legal": ("lawyers",)}
    finally:
        store.close()
