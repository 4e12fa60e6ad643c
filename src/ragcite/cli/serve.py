"""`ragcite serve`: the HTTP API and the web page."""

from __future__ import annotations

import click

from ragcite.cli.context import AppContext
from ragcite.compose import shown_store
from ragcite.errors import missing_extra


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on.",
)
@click.pass_obj
def serve(app: AppContext, host: str, port: int) -> None:
    """Serve the HTTP API (schema at /openapi.json) and the web page at /."""
    try:
        import uvicorn

        from ragcite.server.app import create_app
        from ragcite.server.limits import guarded_h11_protocol
    except ImportError as exc:
        raise missing_extra(exc.name or "fastapi", "server") from None
    store = shown_store(app.settings.store)
    click.echo(f"ragcite: serving {store} on http://{host}:{port}/", err=True)
    limits = app.settings.server
    uvicorn.run(
        create_app(app.rag),
        host=host,
        port=port,
        log_level="info",
        # Idle keep-alive connections close; so do connections whose headers stall, and
        # stalled bodies are answered 408 (server.body_read_timeout_s, in the app).
        timeout_keep_alive=max(1, round(limits.timeout_keep_alive_s)),
        http=guarded_h11_protocol(limits.body_read_timeout_s),
    )


COMMANDS = [serve]
