"""GET /healthz: the store answers, and what it holds."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ragcite import __version__
from ragcite.server import deps

router = APIRouter(tags=["service"])


@router.get("/healthz", summary="Liveness and what the store holds")
def healthz(rag: deps.Rag) -> dict[str, Any]:
    counts = rag.store.counts()
    return {
        "status": "ok",
        "version": __version__,
        "documents": counts.documents,
        "versions": counts.versions,
        "chunks": counts.chunks,
        "corpus_version": counts.corpus_version,
    }
