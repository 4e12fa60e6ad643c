"""What routes receive: the pipeline the app was created with, its limits, and the caller."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, cast

from fastapi import Depends, HTTPException, Request

from ragcite.index.store import SearchFilters
from ragcite.lifecycle.saved import save_answer
from ragcite.models import CitedResponse
from ragcite.pipeline import Ragcite
from ragcite.server.auth import Caller as CallerIdentity
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


def _caller(request: Request) -> CallerIdentity:
    """Who is calling, as `auth.AccessGuard` found it (it refuses a request without a key)."""
    found = request.scope.get("state", {}).get("caller")
    if not isinstance(found, CallerIdentity):
        raise HTTPException(401, "this route needs an API key", {"WWW-Authenticate": "Bearer"})
    return found


def _admin(caller: Annotated[CallerIdentity, Depends(_caller)]) -> CallerIdentity:
    if not caller.admin:
        raise HTTPException(
            403,
            f"the key '{caller.name}' may read but not change documents; uploading, deleting "
            "and erasing need an admin key (ragcite keys create --name NAME --admin)",
        )
    return caller


State = Annotated[ServerState, Depends(_state)]
Rag = Annotated[Ragcite, Depends(_rag)]
Caller = Annotated[CallerIdentity, Depends(_caller)]
Admin = Annotated[CallerIdentity, Depends(_admin)]


def ask(rag: Ragcite, request: AskRequest, caller: CallerIdentity) -> CitedResponse:
    """Run the pipeline for an API request (the same options as `ragcite ask`), reading
    only what the caller may read; the answer is saved under its ID (GET /answers/{id})."""
    filters: SearchFilters = rag.filters(
        corpora=tuple(request.corpora) if request.corpora else None,
        access_groups=caller.access_groups,
        include_superseded=request.include_superseded,
        as_of=request.as_of,
    )
    if request.document_ids is not None:
        filters = replace(filters, document_ids=tuple(request.document_ids))
    response = rag.ask(request.question, k=request.top_k, filters=filters)
    save_answer(rag, response, key_name=caller.name, groups=caller.access_groups)
    return response
