"""`ragcite serve`: the HTTP API and the web page."""

from __future__ import annotations

import click

from ragcite.cli.context import AppContext
from ragcite.compose import shown_store
from ragcite.config import ServerSettings
from ragcite.errors import missing_extra
from ragcite.index.keys import key_store


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on.",
)
@click.option(
    "--open",
    "open_access",
    is_flag=True,
    help="Serve without API keys, everyone as an admin: only on loopback (127.0.0.1, ::1).",
)
@click.pass_obj
def serve(app: AppContext, host: str, port: int, open_access: bool) -> None:
    """Serve the HTTP API (schema at /openapi.json) and the web page at /.

    Every route but the page and /healthz needs an API key (ragcite keys create)."""
    try:
        import uvicorn

        from ragcite.server.app import create_app
        from ragcite.server.auth import check_open_host
        from ragcite.server.limits import guarded_h11_protocol
    except ImportError as exc:
        raise missing_extra(exc.name or "fastapi", "server") from None
    if open_access:
        check_open_host(host)
    store = shown_store(app.settings.store)
    click.echo(f"ragcite: serving {store} on http://{host}:{port}/", err=True)
    for line in access_notes(app, host, open_access):
        click.echo(f"ragcite: {line}", err=True)
    allowed = app.settings.server.allowed_hosts
    if host not in WILDCARD_HOSTS:  # the interface's own name or address reaches it too
        allowed = (*allowed, host)
    server_app = create_app(app.rag, open_access=open_access, allowed_hosts=allowed)
    limits = app.settings.server
    uvicorn.run(
        server_app,
        host=host,
        port=port,
        log_level="info",
        # Idle keep-alive connections close; so do connections whose headers stall, and
        # stalled bodies are answered 408 (server.body_read_timeout_s, in the app).
        timeout_keep_alive=max(1, round(limits.timeout_keep_alive_s)),
        http=guarded_h11_protocol(limits.body_read_timeout_s),
    )


def access_notes(app: AppContext, host: str, open_access: bool) -> list[str]:
    """What a person starting the server should know about who can reach it."""
    if open_access:
        return ["--open: no API keys needed, everyone on this machine is an admin"]
    notes = []
    if not [k for k in key_store(app.rag.store).list_keys() if k.revoked_at is None]:
        notes.append(
            "no API keys yet, so every request is refused: create one with "
            "ragcite keys create --name NAME --admin"
        )
    if host in WILDCARD_HOSTS and app.settings.server.allowed_hosts == LOOPBACK_HOSTS:
        notes.append(
            "only loopback host names are allowed: add the name clients use to "
            "server.allowed_hosts in the settings"
        )
    return notes


LOOPBACK_HOSTS = ServerSettings().allowed_hosts
WILDCARD_HOSTS = ("0.0.0.0", "::", "")

COMMANDS = [serve]
