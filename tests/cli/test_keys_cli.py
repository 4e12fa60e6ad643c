"""`ragcite keys` and `--as-groups`: keys printed once and stored hashed; the CLI reads
everything as the local admin unless told to read as some groups."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from ragcite.cli.main import cli


def run(*args: str, store: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--store", str(store), *args])
    return result.exit_code, result.stdout, result.stderr


def test_keys_create_list_revoke(tmp_path: Path) -> None:
    store = tmp_path / "k.db"
    code, out, err = run("keys", "create", "--name", "alice", "--groups", "hr,legal", store=store)
    assert code == 0, err
    token = out.strip()
    assert token.startswith("rck_") and "shown only once" in err
    _, out, _ = run("keys", "create", "--name", "root", "--admin", store=store)
    admin_token = out.strip()
    _, listed, _ = run("keys", "list", "--json", store=store)
    rows = json.loads(listed)
    assert [(r["name"], r["groups"], r["admin"]) for r in rows] == [
        ("alice", ["hr", "legal"], False),
        ("root", [], True),
    ]
    _, table, _ = run("keys", "list", store=store)
    assert "alice" in table and "hr,legal" in table
    for shown in (listed, table):
        assert token not in shown and admin_token not in shown
    stored = sqlite3.connect(store).execute("SELECT * FROM api_keys").fetchall()
    assert token not in repr(stored) and token[4:] not in repr(stored)
    code, out, _ = run("keys", "revoke", "alice", store=store)
    assert code == 0 and "revoked" in out
    code, out, err = run("keys", "revoke", "alice", store=store)
    assert code == 1 and "no active key named 'alice'" in err
    code, _, err = run("keys", "create", "--name", "root", store=store)
    assert code == 1 and "already named 'root'" in err
    code, _, err = run("keys", "create", "--name", "bob", "--groups", "two words", store=store)
    assert code == 1 and "'two words'" in err


def test_as_groups_reads_like_a_key_with_those_groups(tmp_path: Path) -> None:
    store = tmp_path / "g.db"
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pay.md").write_text(
        "---\ntitle: Pay Bands\naccess: [hr]\n---\n\nEngineers earn between 90 and 120 zorbs.\n"
    )
    (docs / "leave.md").write_text("# Leave\n\nEveryone gets 25 days of annual leave.\n")
    assert run("ingest", str(docs), store=store)[0] == 0
    _, out, _ = run("documents", "--json", store=store)
    assert {d["document_id"] for d in json.loads(out)} == {"pay-md", "leave-md"}  # the local admin
    _, out, _ = run("documents", "--json", "--as-groups", "", store=store)
    assert {d["document_id"] for d in json.loads(out)} == {"leave-md"}
    _, out, _ = run("documents", "--json", "--as-groups", "hr", store=store)
    assert {d["document_id"] for d in json.loads(out)} == {"pay-md", "leave-md"}
    question = "How much do engineers earn?"
    code, out, _ = run("search", question, "--json", "--as-groups", "staff", store=store)
    assert code == 0 and {c["document_id"] for c in json.loads(out)["chunks"]} == {"leave-md"}
    code, out, _ = run("ask", question, "--json", "--as-groups", "staff", store=store)
    sources = {s["document_id"] for s in json.loads(out)["sources"]}
    assert code == 0 and "zorbs" not in out and "pay-md" not in sources
    code, out, _ = run("ask", question, "--json", "--as-groups", "hr,staff", store=store)
    assert code == 0 and "zorbs" in out
