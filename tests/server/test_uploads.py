"""Uploads: identity (never replacing a document they do not name), no server paths in
what comes back, and nothing left on disk by a refused upload."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ragcite.config import load_settings
from ragcite.pipeline import Ragcite
from ragcite.server.app import create_app

from .test_api import assert_problem


@pytest.fixture
def app_parts(demo_store_path: Path, tmp_path: Path) -> Iterator[tuple[TestClient, Ragcite, Path]]:
    settings = load_settings(store_path=demo_store_path, overrides={"ingest.max_file_bytes": 4096})
    rag = Ragcite.open(settings)
    uploads = tmp_path / "uploads"
    # --open (no keys): these tests are about what an upload may do, not who may upload.
    app = create_app(rag, upload_dir=uploads, open_access=True)
    with TestClient(app, base_url="http://localhost") as client:
        yield client, rag, uploads
    rag.close()


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def _zip_bomb_docx() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", b"\0" * (8 * 1024 * 1024))
    return buffer.getvalue()


def test_an_upload_never_replaces_the_official_document(
    app_parts: tuple[TestClient, Ragcite, Path],
) -> None:
    client, rag, _ = app_parts
    fake = b"# Returns\n\nRefunds are accepted until 31 December 2099.\n"
    added = client.post("/documents", files={"file": ("returns-policy.md", fake)})
    assert added.status_code == 201, added.text
    document = added.json()["document"]
    assert document["document_id"] == "returns-policy-md"
    assert document["source_uri"] == "upload:returns-policy.md"
    official = rag.store.latest_version("returns-policy")
    assert official is not None and official.status == "active" and official.version == 4


def test_an_upload_with_another_sources_id_is_a_409_naming_the_fix(
    app_parts: tuple[TestClient, Ragcite, Path], tmp_path: Path
) -> None:
    client, rag, uploads = app_parts
    local = tmp_path / "docs" / "notes.md"
    local.parent.mkdir()
    local.write_text("# Notes\n\nThe office opens at 9.\n", encoding="utf-8")
    assert rag.ingest([local]).added == 1
    refused = client.post("/documents", files={"file": ("notes.md", b"# Notes\n\nOpens at 6.\n")})
    body = assert_problem(refused, 409, "notes.md", "notes-md", "declare document_id")
    assert body["type"] == "urn:ragcite:problem:document-conflict"
    assert str(tmp_path) not in refused.text
    assert _files(uploads) == []
    assert rag.store.document_text("notes-md").text.endswith("opens at 9.")
    named = client.post(
        "/documents",
        files={"file": ("notes.md", b"# Notes\n\nOpens at 6.\n")},
        data={"document_id": "notes-md"},
    )
    assert named.status_code == 201 and named.json()["document"]["version"] == 2


def test_refused_uploads_leave_nothing_on_disk(
    app_parts: tuple[TestClient, Ragcite, Path],
) -> None:
    client, rag, uploads = app_parts
    kept = client.post("/documents", files={"file": ("kept.md", b"# Kept\n\nA kept file.\n")})
    assert kept.status_code == 201
    before, versions = _files(uploads), rag.store.counts().versions
    refusals = [
        (("broken.pdf", b"%PDF-1.4 not really"), 422),
        (("bomb.docx", _zip_bomb_docx()), 413),
        (("big.txt", b"word " * 2000), 413),
        (("latin1.txt", "Caf\xe9".encode("latin-1")), 422),
        (("empty.md", b"   \n"), 422),
    ]
    for (name, data), status in refusals:
        body = assert_problem(client.post("/documents", files={"file": (name, data)}), status, name)
        assert str(uploads) not in str(body) and "/tmp" not in str(body["detail"])
    assert _files(uploads) == before
    assert rag.store.counts().versions == versions


def test_head_is_allowed_where_get_is(app_parts: tuple[TestClient, Ragcite, Path]) -> None:
    client, _, _ = app_parts
    for route in ("/healthz", "/documents", "/documents/returns-policy/text", "/"):
        got, head = client.get(route), client.head(route)
        assert head.status_code == got.status_code == 200, route
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"]
