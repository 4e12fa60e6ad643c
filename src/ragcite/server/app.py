"""The app factory: the API and the web page over one pipeline.

>>> app = create_app(Ragcite.open(load_settings()))
>>> uvicorn.run(app, host="127.0.0.1", port=8000)
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from ragcite import __version__
from ragcite.compose import local_data_dir
from ragcite.index.keys import key_store
from ragcite.pipeline import Ragcite
from ragcite.server.auth import AccessGuard
from ragcite.server.deps import ServerLimits, ServerState
from ragcite.server.limits import BodySizeLimit, HeadAsGet, LoadLimit
from ragcite.server.problems import install_problem_handlers
from ragcite.server.routes import answers, ask, documents, feedback, health, verify

STATIC = Path(__file__).parent / "static"


def create_app(
    rag: Ragcite,
    *,
    limits: ServerLimits | None = None,
    upload_dir: Path | None = None,
    open_access: bool = False,
    allowed_hosts: tuple[str, ...] | None = None,
) -> FastAPI:
    """The FastAPI app serving `rag`: the JSON API (schema at /openapi.json) and the page at /.

    Every route but the page, /healthz and the schema needs an API key from the store
    (`ragcite keys create`); `open_access` serves without keys, everyone as an admin (the
    CLI allows it on loopback only). `allowed_hosts` (default `server.allowed_hosts`) are
    the names clients may use (server/auth.py). Uploads are kept under `upload_dir`
    (default: `uploads/` next to the store file, or in the user data dir for a server store).
    """
    limits = limits or ServerLimits()
    app = FastAPI(
        title="ragcite",
        version=__version__,
        summary="Answers from your documents; every claim cites a verified verbatim quote.",
        docs_url=None,  # FastAPI's own docs pages load scripts from a CDN: see _offline_docs
        redoc_url=None,
    )
    app.state.ragcite = ServerState(
        rag=rag,
        limits=limits,
        upload_dir=upload_dir or local_data_dir(rag.settings) / "uploads",
    )
    install_problem_handlers(app)
    for module in (ask, answers, verify, documents, feedback, health):
        app.include_router(module.router)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    _offline_docs(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(
        BodySizeLimit,
        default_limit=limits.max_json_bytes,
        limits={"/documents": limits.max_upload_bytes},
    )
    app.add_middleware(LoadLimit, settings=rag.settings.server)
    app.add_middleware(HeadAsGet)
    app.add_middleware(  # added last, so it runs first: nothing is read before it passes
        AccessGuard,
        keys=None if open_access else key_store(rag.store),
        allowed_hosts=allowed_hosts or rag.settings.server.allowed_hosts,
    )
    return app


def _offline_docs(app: FastAPI) -> None:
    """The interactive API docs at /docs, with Swagger UI's files from the installed
    `fastapi-offline` package (the server extra; Swagger UI 5 reads OpenAPI 3.1), never from
    a CDN. Without the package there is no /docs; the schema stays at /openapi.json."""
    try:
        import fastapi_offline
    except ImportError:
        return
    assets = Path(fastapi_offline.__file__).parent / "static"
    app.mount("/static/swagger-ui", StaticFiles(directory=assets), name="swagger-ui")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="ragcite API",
            swagger_js_url="/static/swagger-ui/swagger-ui-bundle.js",
            swagger_css_url="/static/swagger-ui/swagger-ui.css",
            swagger_favicon_url="/static/favicon.svg",
        )
