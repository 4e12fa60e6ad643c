"""Who is calling: API keys, the open loopback mode, and cross-site request checks.

`AccessGuard` runs before any route reads a body (pure ASGI middleware):
1. the `Host` header must name an allowed host (`server.allowed_hosts`; DNS rebinding);
2. every route but `PUBLIC_PATHS` needs `Authorization: Bearer KEY` with an active key
   (401 with `WWW-Authenticate: Bearer` otherwise), unless the server runs `--open`;
3. a state-changing request must be JSON or multipart, and its `Origin` (when a browser
   sends one) must be the server itself or an allowed host: a form on another site
   cannot post here.
The caller it found is `request.state.caller`; routes read it through `deps.Caller`.

    >>> app.add_middleware(AccessGuard, keys=key_store(rag.store), allowed_hosts=("localhost",))
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import partial
from urllib.parse import urlsplit

import anyio
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ragcite.errors import ConfigError
from ragcite.index.keys import ApiKey, KeyStore, authenticate
from ragcite.server.problems import problem

PUBLIC_PATHS = ("/", "/healthz", "/openapi.json", "/docs")
"""Served without a key: the page (and `/static/…`), the liveness check, the API schema.
None of them returns document text or metadata."""

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
BODY_TYPES = ("application/json", "multipart/form-data")


@dataclass(frozen=True)
class Caller:
    """Who made a request: a key's name and groups, and whether it may write."""

    name: str
    groups: tuple[str, ...]
    admin: bool

    @property
    def access_groups(self) -> tuple[str, ...] | None:
        """The groups store queries read with: None (everything) for an admin."""
        return None if self.admin else self.groups

    @classmethod
    def of(cls, key: ApiKey) -> Caller:
        return cls(key.name, key.groups, key.admin)


OPEN_CALLER = Caller("open", (), admin=True)
"""Everyone, on a server started with `--open` (loopback only): the local user."""


def check_open_host(host: str) -> None:
    """`--open` serves without keys, so only on a loopback interface; ConfigError otherwise.

    >>> check_open_host("0.0.0.0")
    ConfigError: --open serves without API keys, so it listens only on loopback ...
    """
    if is_loopback(host):
        return
    raise ConfigError(
        f"--open serves without API keys, so it listens only on loopback (127.0.0.1, ::1, "
        f"localhost), not on {host!r}; to serve a team, create keys (ragcite keys create "
        "--name NAME --groups GROUPS [--admin]) and serve without --open"
    )


def is_loopback(host: str) -> bool:
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_name(netloc: str) -> str:
    """'[::1]:8000' -> '::1', 'Example.com:80' -> 'example.com'."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        return netloc[1:].split("]", 1)[0]
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


def host_allowed(name: str, allowed: tuple[str, ...]) -> bool:
    """`name` is listed, is under a listed `.domain`, or the list has `*`."""
    return any(
        a == "*" or name == a or (a.startswith(".") and (name.endswith(a) or name == a[1:]))
        for a in allowed
    )


class AccessGuard:
    """The checks in the module docstring, before a route runs. `keys` None: `--open`."""

    def __init__(
        self, app: ASGIApp, *, keys: KeyStore | None, allowed_hosts: tuple[str, ...]
    ) -> None:
        self.app = app
        self.keys = keys
        self.allowed = tuple(host_name(h) if h != "*" else h for h in allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self._refusal(scope, headers)
        if refusal is None:
            caller = await self._caller(scope["path"], headers)
            if caller is None:
                refusal = problem(
                    401,
                    "this route needs an API key: send 'Authorization: Bearer KEY' with a key "
                    "from 'ragcite keys create' (a missing, unknown or revoked key is refused)",
                    slug="unauthorized",
                )
                refusal.headers["WWW-Authenticate"] = 'Bearer realm="ragcite"'
            else:
                scope.setdefault("state", {})["caller"] = caller
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope, headers: Headers) -> JSONResponse | None:
        path, method = scope["path"], scope["method"]
        host = host_name(headers.get("host", ""))
        if path != "/healthz" and not host_allowed(host, self.allowed):
            return problem(
                400,
                f"the Host header {host!r} is not an allowed host; add the name clients use "
                "to server.allowed_hosts in the settings",
                slug="host-not-allowed",
            )
        if method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None and not self._same_site(origin, headers):
            return problem(
                403,
                f"cross-site request refused: Origin {origin!r} is neither this server nor "
                "in server.allowed_hosts",
                slug="cross-site-request",
            )
        if headers.get("sec-fetch-site") == "cross-site":
            return problem(403, "cross-site request refused", slug="cross-site-request")
        content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if method != "DELETE" and content_type not in BODY_TYPES:
            return problem(
                415,
                f"a request that changes something must be application/json or "
                f"multipart/form-data, not {content_type or 'without a content type'}",
                slug="unsupported-media-type",
            )
        return None

    def _same_site(self, origin: str, headers: Headers) -> bool:
        parts = urlsplit(origin)
        if not parts.scheme or not parts.netloc:
            return False  # "null" (a sandboxed frame, a file) or garbage
        same = parts.netloc.lower() == headers.get("host", "").lower()
        return same or host_allowed(host_name(parts.netloc), self.allowed)

    async def _caller(self, path: str, headers: Headers) -> Caller | None:
        if self.keys is None:
            return OPEN_CALLER
        if path in PUBLIC_PATHS or path.startswith("/static/"):
            return Caller("anonymous", (), admin=False)
        scheme, _, token = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            return None
        key = await anyio.to_thread.run_sync(partial(authenticate, self.keys, token.strip()))
        return Caller.of(key) if key is not None else None
