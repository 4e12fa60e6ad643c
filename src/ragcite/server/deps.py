"""What routes receive: the pipeline the app was created with, and its limits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, cast

from fastapi import Depends, Request

from ragcite.index.store import SearchFilters
from ragcite.models import CitedResponse
from ragcite.pipeline import Ragcite
from ragcite.server.schemas import AskRequest

MiB = 1024 * 1024


@dataclass(frozen=True)
class ServerLimits:
    max_upload_bytes: int = 25 * MiB
    max_json_bytes: int = 1 * MiB


@dataclass(frozen=True)
class ServerState:
    rag: Ragcite
    limits: ServerLimits
    upload_dir: Path


def _state(request: Request) -> ServerState:
    return cast(ServerState, request.app.state.ragcite)


def _rag(request: Request) -> Ragcite:
    return _state(request).rag


State = Annotated[ServerState, Depends(_state)]
Rag = Annotated[Ragcite, Depends(_rag)]


def ask(rag: Ragcite, request: AskRequest) -> CitedResponse:
    """Run the pipeline for an API request (the same options as `ragcite ask`)."""
    filters: SearchFilters = rag.filters(
        corpora=tuple(request.corpora) if request.corpora else None,
        include_superseded=request.include_superseded,
    )
    return rag.ask(request.question, k=request.top_k, filters=filters)
