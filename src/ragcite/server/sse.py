"""Server-sent events for /ask/stream: `started`, `answer` pieces, each `claim`, `response`.

Claims arrive only after the gate has verified them; each carries its citations by
stable chunk ID, so a page's markers never renumber when the final response lands.
An error after the stream began arrives as an `error` event with problem details.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import anyio

from ragcite.errors import RagciteError
from ragcite.pipeline import Ragcite
from ragcite.render.api import response_json
from ragcite.server import deps
from ragcite.server.auth import Caller
from ragcite.server.problems import error_problem_body
from ragcite.server.schemas import AskRequest

_SENTENCE_END = re.compile(r"(?<=[.!?:])\s+")


def sse_event(event: str, data: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def answer_pieces(text: str) -> list[str]:
    """`text` cut after each sentence, whitespace kept, so the pieces join back exactly."""
    pieces, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        pieces.append(text[start : match.end()])
        start = match.end()
    return [*pieces, text[start:]] if start < len(text) else pieces


async def answer_events(rag: Ragcite, request: AskRequest, caller: Caller) -> AsyncIterator[bytes]:
    yield sse_event("started", {"query": request.question})
    try:
        response = await anyio.to_thread.run_sync(partial(deps.ask, rag, request, caller))
    except RagciteError as exc:
        yield sse_event("error", error_problem_body(exc))
        return
    rendered = response_json(response)
    for piece in answer_pieces(rendered["answer"]):
        yield sse_event("answer", {"text": piece})
    for index, claim in enumerate(rendered["claims"]):
        yield sse_event("claim", {"index": index, **claim})
    yield sse_event("response", rendered)
