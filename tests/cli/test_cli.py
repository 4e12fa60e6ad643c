"""The `ragcite` command end to end (real models, each test its own store), once on each
store: the embedded SQLite file and a real PostgreSQL + pgvector server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from ragcite.cli.main import cli

from ..conftest import DEMO


def run(*args: str, store: Path | str | None = None) -> tuple[int, str]:
    runner = CliRunner()
    prefix = ["--store", str(store)] if store else []
    result = runner.invoke(cli, [*prefix, *args], catch_exceptions=False)
    return result.exit_code, result.output


def test_ingest_then_reingest(empty_store: str) -> None:
    store = empty_store
    code, out = run("ingest", str(DEMO), store=store)
    assert code == 0 and "12 added" in out
    code, out = run("ingest", str(DEMO), store=store)
    assert code == 0 and "0 added" in out and "12 unchanged" in out


def test_ask_json_and_terminal(demo_store: str) -> None:
    code, out = run(
        "ask",
        "How much parental leave does the primary caregiver get?",
        "--json",
        store=demo_store,
    )
    assert code == 0
    payload = json.loads(out)
    assert payload["answerable"] and payload["claims"]
    citation = payload["claims"][0]["citations"][0]
    assert citation["display"].startswith("Employee Handbook") and citation["page"] == 3
    assert citation["quote"] and citation["quote_status"] == "exact"
    assert payload["confidence_label"] in {"HIGH", "MEDIUM", "LOW", "VERY_LOW"}
    code, out = run(
        "ask", "How much parental leave does the primary caregiver get?", store=demo_store
    )
    assert code == 0 and "Employee Handbook" in out and "Answer confidence" in out


def test_search_shows_scores(demo_store: str) -> None:
    code, out = run("search", "backup retention", "--json", "-k", "3", store=demo_store)
    assert code == 0
    chunks = json.loads(out)["chunks"]
    assert len(chunks) == 3 and set(chunks[0]["scores"]) == {
        "vector_similarity",
        "keyword",
        "reranker",
        "composite_confidence",
    }


def test_bad_input_is_one_line_and_exit_code(tmp_path: Path, empty_store: str) -> None:
    store = empty_store
    code, out = run("ask", "  ", store=store)
    assert code == 1 and out.strip().startswith("Error: the question is empty")
    assert "Traceback" not in out
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe\xfa not utf8")
    code, out = run("ingest", str(tmp_path / "bad.txt"), str(tmp_path / "nope"), store=store)
    assert code == 1
    assert "bad.txt" in out and "UTF-8" in out and "nope" in out
    assert "Traceback" not in out


def test_empty_store_ask(empty_store: str) -> None:
    code, out = run("ask", "What is the leave policy?", store=empty_store)
    assert code == 0 and "ragcite ingest" in out


def test_documents_lists_versions(demo_store: str) -> None:
    code, out = run("documents", "--json", store=demo_store)
    docs = json.loads(out)
    assert code == 0
    retention = sorted(
        (d["version"], d["status"]) for d in docs if d["document_id"] == "data-retention-policy"
    )
    assert retention == [(1, "superseded"), (2, "active")]


def test_eval_on_an_empty_store_says_to_ingest_first(tmp_path: Path, empty_store: str) -> None:
    questions = Path(__file__).parents[2] / "eval" / "demo.jsonl"
    for args in (("eval", "all", str(questions)), ("eval", "tune", str(questions), "--dry-run")):
        out_dir = tmp_path / "run"
        code, out = run(*args, "--out", str(out_dir), store=empty_store)
        assert code == 1
        assert "holds no documents" in out and "ragcite ingest" in out
        assert not out_dir.exists()


def test_delete_then_documents_and_search_leave_it_out(demo_store: str) -> None:
    code, out = run("delete", "data-retention-policy", store=demo_store)
    assert code == 0 and "2 version(s) marked deleted" in out
    code, out = run("documents", "--json", store=demo_store)
    statuses = {d["status"] for d in json.loads(out) if d["document_id"] == "data-retention-policy"}
    assert code == 0 and statuses == {"deleted"}
    code, out = run("search", "backup retention", "--json", store=demo_store)
    assert code == 0
    assert all(c["document_id"] != "data-retention-policy" for c in json.loads(out)["chunks"])
    code, out = run("delete", "never-was", store=demo_store)
    assert code == 1 and "never-was" in out


def test_a_store_password_is_never_printed(postgres_url: str, tmp_path: Path) -> None:
    # The test server trusts loopback, so the password is accepted and ignored.
    url = postgres_url.replace("postgresql://postgres@", "postgresql://postgres:s3cret@")
    code, out = run("ingest", str(DEMO / "data-retention-policy-2024.md"), store=url)
    assert code == 0 and "1 added" in out and "postgres:***@" in out
    assert "s3cret" not in out
    unreachable = "postgresql://rag:s3cret@127.0.0.1:9/kb?password=s3cret"
    for args in (("ingest", str(DEMO)), ("ask", "How long are backups kept?"), ("documents",)):
        code, out = run(*args, store=unreachable)
        assert code == 1 and "127.0.0.1" in out and "Traceback" not in out
        assert "s3cret" not in out, out
    missing_database = url.replace("/ragcite_tests?", "/no_such_db?")
    code, out = run("documents", store=missing_database)
    assert code == 1 and "no_such_db" in out and "s3cret" not in out


def test_a_damaged_pdf_gets_one_clear_line_not_pypdfs_log(tmp_path: Path) -> None:
    """Outside pytest's log capture, as a user runs it: pypdf's own warnings about the
    defects it meets stay quiet, ragcite's line names the file and the problem."""
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.4 truncated by a failed download")
    command = "from ragcite.cli.main import cli; cli()"
    run = subprocess.run(
        [sys.executable, "-c", command, "--store", str(tmp_path / "s.db"), "ingest", str(damaged)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stderr
    said = " ".join((run.stdout + run.stderr).split())  # the terminal wraps long lines
    assert "damaged.pdf: not a readable PDF" in said
    assert "EOF marker" not in said
    assert "Traceback" not in run.stderr
