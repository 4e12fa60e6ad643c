"""GET /answers/{id} and POST /answers/{id}/recheck: saved answers, read back and re-checked.

Every answer the API gives is saved (`lifecycle.answer_retention_days`). A caller gets a
saved answer only when they may read every document version it shows; any other is not
found, exactly like a missing one.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ragcite.index.answers import answers_store
from ragcite.lifecycle.recheck import recheck_answers
from ragcite.render.api import response_json
from ragcite.server import deps

router = APIRouter(tags=["answers"])


@router.get("/answers/{answer_id}", summary="A saved answer, as it was given")
def get_answer(answer_id: str, rag: deps.Rag, caller: deps.Caller) -> dict[str, Any]:
    """The response JSON of POST /ask, with when it was saved and for which key; erased
    sources show as `[erased]`."""
    saved = answers_store(rag.store).get_answer(answer_id, access_groups=caller.access_groups)
    return {
        "answer_id": saved.answer_id,
        "saved_at": saved.created_at.isoformat(),
        "key_name": saved.key_name,
        "erased_documents": list(saved.erased_documents),
        "response": response_json(saved.response),
    }


@router.post("/answers/{answer_id}/recheck", summary="Re-check a saved answer, claim by claim")
def recheck_answer(answer_id: str, rag: deps.Rag, caller: deps.Caller) -> dict[str, Any]:
    """Each claim: still verified, source superseded or changed (with the new version's
    text, and whether it still supports the claim), deleted or erased."""
    groups = caller.access_groups
    saved = answers_store(rag.store).get_answer(answer_id, access_groups=groups)
    report = recheck_answers(rag, [saved], access_groups=groups).as_json()
    return {**report["answers"][0], "seconds": report["seconds"]}
