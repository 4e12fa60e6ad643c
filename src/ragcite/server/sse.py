"""Server-sent events for /ask/stream: `started`, `stage` (how far the answer has come),
each verified `claim` as it passes the gate, `answer` pieces, `response`.

Stages arrive as the pipeline reaches them: `searching`, then `passages` (with `count`,
the passages found), `checking` (with `count`, the claims the gate is checking) and a
`verified` stage as each claim passes the gate (`count`: how many have passed so far).
Right after each `verified` stage comes that claim as a `claim` event: its text, verdict
and citations with their quotes, in the shape of a claim of the final response, but with
`confidence` and `confidence_label` null (the answer is not scored yet). A claim that
fails the gate is never sent. A retried draft starts again at `checking`: a client drops
the claims it holds then. A cached answer skips the stages; its verified claims arrive as
`claim` events (scored) before the answer text. Citations name chunks by stable ID, so a
page's markers never renumber when the final `response` lands; the response is the word
that counts (a gate-passed claim may still be left out, e.g. when the answer is degraded
to sources). An error after the stream began arrives as an `error` event with problem
details.
"""

from __future__ import annotations

import json
import queue
import re
import threading
from collections.abc import AsyncIterator
from typing import Any

import anyio

from ragcite.errors import RagciteError
from ragcite.models import CitedClaim, CitedResponse, SourceChunk
from ragcite.pipeline import Ragcite
from ragcite.render.api import passed_claim_json
from ragcite.server import deps
from ragcite.server.auth import Caller
from ragcite.server.problems import error_problem_body
from ragcite.server.schemas import AskRequest
from ragcite.server.views import answer_json
from ragcite.trace import claim_hook, progress_hook

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


Outcome = tuple[str, Any]  # ("stage" | "claim", {...}) | ("done", CitedResponse) | ("error", exc)


def _ask_in_thread(rag: Ragcite, request: AskRequest, caller: Caller) -> queue.SimpleQueue[Outcome]:
    """Start answering in a thread of its own; its stages and outcome arrive on the queue."""
    outcomes: queue.SimpleQueue[Outcome] = queue.SimpleQueue()

    def stage(name: str, count: int) -> None:
        outcomes.put(("stage", {"stage": name, "count": count}))

    def passed(claim: CitedClaim, chunks: list[SourceChunk]) -> None:
        outcomes.put(("claim", passed_claim_json(claim, chunks)))

    def work() -> None:
        progress_hook.set(stage)  # this thread's own context
        claim_hook.set(passed)
        try:
            outcomes.put(("done", deps.ask(rag, request, caller)))
        except BaseException as exc:  # handed to the event loop, which re-raises the unexpected
            outcomes.put(("error", exc))

    threading.Thread(target=work, name="ragcite-ask-stream", daemon=True).start()
    return outcomes


async def answer_events(rag: Ragcite, request: AskRequest, caller: Caller) -> AsyncIterator[bytes]:
    yield sse_event("started", {"query": request.question, "question": request.question})
    yield sse_event("stage", {"stage": "searching"})
    outcomes = _ask_in_thread(rag, request, caller)
    passed = 0  # claims sent from the gate since the last `checking` stage
    while True:
        kind, value = await anyio.to_thread.run_sync(outcomes.get, abandon_on_cancel=True)
        if kind == "stage":
            passed = 0 if value["stage"] == "checking" else passed
            yield sse_event("stage", value)
        elif kind == "claim":
            yield sse_event("claim", {"index": passed, **value})
            passed += 1
        elif isinstance(value, RagciteError):
            yield sse_event("error", error_problem_body(value))
            return
        elif isinstance(value, BaseException):
            raise value
        else:
            break
    response: CitedResponse = value
    rendered = answer_json(response)
    if response.cached_at is not None:  # no gate ran: its claims come from the cache
        verified = [claim for claim in rendered["claims"] if claim["verified"]]
        for index, claim in enumerate(verified):
            yield sse_event("claim", {"index": index, **claim})
    for piece in answer_pieces(rendered["answer"]):
        yield sse_event("answer", {"text": piece})
    yield sse_event("response", rendered)
