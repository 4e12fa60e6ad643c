"""POST /feedback: kept in the store, next to the documents it judges."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter

from ragcite.errors import NotFoundError
from ragcite.index.feedback import feedback_store
from ragcite.server import deps
from ragcite.server.schemas import FeedbackRequest
from ragcite.server.views import feedback_json

router = APIRouter(tags=["feedback"])


@router.post("/feedback", status_code=201, summary="Record feedback on an answer or citation")
def add_feedback(body: FeedbackRequest, rag: deps.Rag, caller: deps.Caller) -> dict[str, Any]:
    """Feedback on a chunk needs a chunk the caller may read (404 otherwise, as if missing)."""
    groups = caller.access_groups
    if body.chunk_id is not None and not rag.store.get_chunks(
        [body.chunk_id], access_groups=groups
    ):
        raise NotFoundError(f"no chunk with id '{body.chunk_id}' in the store")
    record = feedback_store(rag.store).add_feedback(
        body.query,
        body.rating,
        chunk_id=body.chunk_id,
        claim_text=body.claim_text,
        comment=body.comment,
        response_json=json.dumps(body.response, ensure_ascii=False) if body.response else None,
        key_name=caller.name,
    )
    return feedback_json(record)
