"""Free-text version names from `ragcite ingest --version`: kept, numbered next in
sequence, shown in the one version label, and carried over by `ragcite migrate`."""

from __future__ import annotations

import json
from pathlib import Path

from ragcite.compose import existing_store

from .test_cli import run

PLAN = "# Pump plan\n\nThe pump is serviced every {months} months by the facilities team.\n"


def _plan(tmp_path: Path, months: int) -> Path:
    path = tmp_path / f"plan-{months}.md"
    path.write_text(PLAN.format(months=months), encoding="utf-8")
    return path


def _ingest(store: Path | str, path: Path, version: str, date: str) -> tuple[int, str]:
    return run(
        "ingest",
        str(path),
        "--document-id",
        "pump-plan",
        "--version",
        version,
        "--effective-date",
        date,
        store=store,
    )


def _versions(location: Path | str) -> list[tuple[int, str | None, str]]:
    store = existing_store(str(location))
    try:
        return [
            (v.document.version, v.document.version_name, v.document.version_label)
            for v in store.export_versions()
        ]
    finally:
        store.close()


def test_named_versions_are_kept_shown_and_migrated(tmp_path: Path, postgres_url: str) -> None:
    store = tmp_path / "named.db"
    code, out = _ingest(store, _plan(tmp_path, 3), "v2025", "2025-01-01")
    assert code == 0, out
    assert "pump-plan v2025 (1 chunks)" in out  # a number keeps its place in the order
    code, out = _ingest(store, _plan(tmp_path, 4), "2025-Q3", "2025-07-01")
    assert code == 0, out
    assert "pump-plan 2025-Q3 (1 chunks)" in out
    code, out = _ingest(store, _plan(tmp_path, 6), "Rev B", "2025-09-01")
    assert code == 0, out
    expected = [
        (2025, None, "v2025 · 2025-01-01"),
        (2026, "2025-Q3", "2025-Q3 · 2025-07-01"),
        (2027, "Rev B", "Rev B · 2025-09-01"),
    ]
    assert _versions(store) == expected

    code, out = run("documents", "--json", store=store)
    assert code == 0, out
    assert {d["version"]: d["version_name"] for d in json.loads(out)} == {
        2027: "Rev B",
        2026: "2025-Q3",
        2025: None,
    }
    code, out = run("search", "How often is the pump serviced?", "--json", store=store)
    assert code == 0, out
    (hit,) = json.loads(out)["chunks"]
    assert hit["version_label"] == "Rev B · 2025-09-01"
    assert hit["display"] == "Pump plan Rev B · 2025-09-01 → Pump plan"

    code, out = run("migrate", "--from", str(store), "--to", postgres_url)
    assert code == 0, out
    back = tmp_path / "back.db"
    code, out = run("migrate", "--from", postgres_url, "--to", str(back))
    assert code == 0, out
    assert _versions(postgres_url) == _versions(back) == expected


def test_a_bad_version_is_refused_naming_it(tmp_path: Path) -> None:
    store, path = tmp_path / "bad.db", _plan(tmp_path, 3)
    for bad, said in (
        (" ", "--version is empty"),
        ("r" * 65, "65 characters long; a version name may have at most 64"),
        ("Rev\x07B", "holds control characters"),
        ("v0", "'v0' is not a version number"),
    ):
        code, out = _ingest(store, path, bad, "2025-01-01")
        assert code == 2, out
        assert "--version" in out and said in " ".join(out.split()), out
    assert not store.exists() or _versions(store) == []
