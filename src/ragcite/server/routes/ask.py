"""POST /ask and POST /ask/stream."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from ragcite.server import deps
from ragcite.server.schemas import AskRequest
from ragcite.server.sse import answer_events
from ragcite.server.views import answer_json

router = APIRouter(tags=["answers"])


@router.post("/ask", summary="Answer a question with verified, cited claims")
def ask(body: AskRequest, rag: deps.Rag, caller: deps.Caller) -> dict[str, Any]:
    """The rendered CitedResponse: claims, citations with verbatim quotes, sources, warnings."""
    return answer_json(deps.ask(rag, body, caller))


@router.post(
    "/ask/stream",
    summary="Answer a question as server-sent events",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
def ask_stream(body: AskRequest, rag: deps.Rag, caller: deps.Caller) -> StreamingResponse:
    """Events: `started`, `stage` (`searching`; `passages`, `checking` and `verified` with
    a `count`), `claim` (each claim as it passes the gate, with its citations and quotes;
    `confidence` null until the answer is scored), `answer` (text pieces), `response` (the
    same JSON as POST /ask); `error` (problem details)."""
    return StreamingResponse(
        answer_events(rag, body, caller),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
