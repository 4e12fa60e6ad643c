"""Request size limits, enforced before a body is buffered (pure ASGI middleware)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ragcite.server.problems import BodyTooLarge, problem


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
