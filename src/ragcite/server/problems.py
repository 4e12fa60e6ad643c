"""Errors as JSON problem details (RFC 9457): `type`, `title`, `status`, `detail`.

The one place where ragcite's error tree meets HTTP status codes; every route lets its
RagciteError rise and the handlers below answer it, never with a traceback.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ragcite.errors import (
    ConfigError,
    DocumentConflictError,
    GenerationError,
    IngestError,
    IngestLimitError,
    InputError,
    ModelError,
    NotFoundError,
    RagciteError,
    StoreError,
    UnsupportedFormatError,
)

PROBLEM_MEDIA_TYPE = "application/problem+json"
log = logging.getLogger("ragcite.server")

# Most specific first: the first class the error is an instance of decides.
STATUS_FOR_ERROR: list[tuple[type[RagciteError], int, str]] = [
    (UnsupportedFormatError, 415, "unsupported-format"),
    (IngestLimitError, 413, "file-over-limit"),
    (DocumentConflictError, 409, "document-conflict"),
    (IngestError, 422, "ingest-failed"),
    (InputError, 422, "invalid-input"),
    (NotFoundError, 404, "not-found"),
    (StoreError, 503, "store-unavailable"),
    (ModelError, 503, "model-unavailable"),
    (GenerationError, 502, "generation-failed"),
    (ConfigError, 500, "configuration"),
    (RagciteError, 500, "internal"),
]


class BodyTooLarge(HTTPException):
    """A request body over its route's size limit (raised while the body is read)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is over the limit of {limit:,} bytes; send less")


def problem_body(
    status: int, detail: str, *, slug: str | None = None, **extra: Any
) -> dict[str, Any]:
    title = HTTPStatus(status).phrase
    kind = slug or title.lower().replace(" ", "-").replace("'", "")
    return {
        "type": f"urn:ragcite:problem:{kind}",
        "title": title,
        "status": status,
        "detail": detail,
        **extra,
    }


def problem(status: int, detail: str, *, slug: str | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse(
        problem_body(status, detail, slug=slug, **extra),
        status_code=status,
        media_type=PROBLEM_MEDIA_TYPE,
    )


# A server-side failure's own message names file paths, store URLs and hosts: it goes to
# the log, and the client gets one of these instead.
SERVER_SIDE_DETAIL = {
    "store-unavailable": "the store could not be read or written",
    "model-unavailable": "a model could not be loaded or run",
    "generation-failed": "the language model did not produce an answer",
    "configuration": "the server's settings are not valid",
}


def error_problem_body(exc: RagciteError) -> dict[str, Any]:
    """The problem details for a RagciteError (also sent as an SSE `error` event). A
    server-side failure (5xx) is logged in full and answered without its details."""
    status, slug = next((s, k) for kind, s, k in STATUS_FOR_ERROR if isinstance(exc, kind))
    if status < 500:
        return problem_body(status, str(exc), slug=slug)
    log.error("%s: %s", type(exc).__name__, exc)
    what = SERVER_SIDE_DETAIL.get(slug, "an unexpected error occurred")
    return problem_body(status, f"{what}; the server log has the details", slug=slug)


def install_problem_handlers(app: FastAPI) -> None:
    """Answer every error, ours or the framework's, as problem details."""

    async def ragcite_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RagciteError)
        body = error_problem_body(exc)
        return JSONResponse(body, status_code=body["status"], media_type=PROBLEM_MEDIA_TYPE)

    async def validation_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = list(exc.errors())
        if any(e.get("type") == "json_invalid" for e in errors):
            first = errors[0].get("ctx", {}).get("error", "")
            return problem(
                400,
                f"the request body is not valid JSON ({first})".replace(" ()", ""),
                slug="malformed-json",
            )
        lines = [_error_line(e) for e in errors]
        return problem(
            422,
            "; ".join(lines),
            slug="invalid-request",
            errors=[{"field": _field(e), "message": _message(e)} for e in errors],
        )

    async def http_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
        if exc.status_code == 404 and detail == "Not Found":
            detail = "no such route; the API is described at /openapi.json"
        return problem(exc.status_code, detail)

    async def unexpected_error(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return problem(
            500, "an unexpected error occurred; the server log has the details", slug="internal"
        )

    app.add_exception_handler(RagciteError, ragcite_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, unexpected_error)


def _field(error: Any) -> str:
    return ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "body"


def _message(error: Any) -> str:
    return str(error.get("msg", "invalid")).removeprefix("Value error, ")


def _error_line(error: Any) -> str:
    field = _field(error)
    message = _message(error)
    return (
        message
        if field in ("body", "question") and message.startswith("the ")
        else (f"{field}: {message}")
    )
