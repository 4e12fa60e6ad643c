"""POST /verify: the gate for answers that any system produced."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ragcite.server import deps
from ragcite.server.schemas import VerifyRequest
from ragcite.verify.any_answer import verify_citations

router = APIRouter(tags=["answers"])


@router.post("/verify", summary="Verify any answer's citations against the given sources")
def verify(body: VerifyRequest, rag: deps.Rag) -> dict[str, Any]:
    """Each claim and citation through the same gate as ragcite's own answers: IDs must name
    a given source, quotes must be in that source, the cited text must support the claim."""
    return verify_citations(body.answer, body.sources, support_checker=rag.support_checker)
