"""Request limits as pure ASGI middleware: body size (before a body is buffered), a bounded
request queue with 503 + Retry-After, stalled bodies, HEAD; and a uvicorn protocol that
closes connections whose headers never arrive."""

from __future__ import annotations

import asyncio

import anyio
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ragcite.config import ServerSettings
from ragcite.server.problems import PROBLEM_MEDIA_TYPE, BodyTooLarge, problem, problem_body


class BodySizeLimit:
    """Refuse bodies over a limit: by Content-Length at once, else while they stream in."""

    def __init__(self, app: ASGIApp, *, default_limit: int, limits: dict[str, int]) -> None:
        self.app = app
        self.default_limit = default_limit
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(scope["path"], self.default_limit)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            response = problem(413, BodyTooLarge(limit).detail, slug="body-too-large")
            await response(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        await self.app(scope, limited_receive, send)


class HeadAsGet:
    """HEAD is allowed wherever GET is: the GET route answers, and its body is dropped
    (status and headers, Content-Length included, stay as for GET)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


class SlowBody(HTTPException):
    """A request body that stalled (raised while the body is read)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            408, f"the request body stalled for over {seconds:g} s; send it without pauses"
        )


class LoadLimit:
    """A bounded queue in front of the app: `max_in_flight` requests run at once, up to
    `max_queued` more wait (at most `queue_timeout_s`), any beyond are answered 503 with
    Retry-After at once. A request body that stalls for `body_read_timeout_s` between
    pieces is answered 408 (and its connection closed). /healthz is never queued."""

    def __init__(self, app: ASGIApp, *, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings
        self._slots: anyio.Semaphore | None = None
        self._queued = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] == "/healthz":
            await self.app(scope, receive, send)
            return
        if self._slots is None:
            self._slots = anyio.Semaphore(self.settings.max_in_flight)
        slots = self._slots
        if slots.value == 0:
            if self._queued >= self.settings.max_queued:
                await self._busy(scope, receive, send)
                return
            self._queued += 1
            try:
                with anyio.move_on_after(self.settings.queue_timeout_s) as waited:
                    await slots.acquire()
            finally:
                self._queued -= 1
            if waited.cancelled_caught:
                await self._busy(scope, receive, send)
                return
        else:
            await slots.acquire()
        try:
            await self.app(scope, self._timed(receive), send)
        finally:
            slots.release()

    def _timed(self, receive: Receive) -> Receive:
        """`receive` with a time limit on each piece of the body, and none once the body is
        in (a streaming response waits on `receive` for a disconnect for as long as it runs)."""
        seconds = self.settings.body_read_timeout_s
        body_done = False

        async def timed_receive() -> Message:
            nonlocal body_done
            if body_done:
                return await receive()
            try:
                with anyio.fail_after(seconds):
                    message = await receive()
            except TimeoutError:
                raise SlowBody(seconds) from None
            body_done = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        return timed_receive

    async def _busy(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = problem_body(
            503,
            f"the server is busy ({self.settings.max_in_flight} requests in progress, "
            f"{self._queued} waiting); retry after {self.settings.retry_after_s} s",
            slug="overloaded",
        )
        response = JSONResponse(
            body,
            status_code=503,
            media_type=PROBLEM_MEDIA_TYPE,
            headers={"Retry-After": str(self.settings.retry_after_s)},
        )
        await response(scope, receive, send)


def guarded_h11_protocol(header_timeout_s: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request line and headers do not
    arrive within `header_timeout_s` (slow-header clients: uvicorn alone waits forever)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()  # the headers are in; the body has its own guard

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout_s, self._headers_late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self) -> None:
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()

    return GuardedH11Protocol
