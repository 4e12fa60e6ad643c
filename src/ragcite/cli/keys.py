"""`ragcite keys`: API keys for `ragcite serve` (create, list, revoke); only hashes are stored."""

from __future__ import annotations

import json

import click
from rich.table import Table

from ragcite.cli.context import AppContext
from ragcite.index.keys import ApiKey, create_key, key_store, parse_groups


@click.group()
def keys() -> None:
    """API keys for the server: each has a name, access groups, and may be admin."""


@keys.command("create")
@click.option("--name", required=True, help="Who or what holds the key (e.g. alice, hr-bot).")
@click.option(
    "--groups",
    default="",
    metavar="G1,G2",
    help="Access groups, comma-separated: the key reads public documents and those sharing "
    "a group. Default: none (public documents only).",
)
@click.option("--admin", is_flag=True, help="May upload, delete and erase; reads everything.")
@click.pass_obj
def create(app: AppContext, name: str, groups: str, admin: bool) -> None:
    """Create a key and print it, once: only its hash is kept."""
    key, token = create_key(key_store(app.rag.store), name, parse_groups(groups), admin=admin)
    click.echo(token)
    click.echo(
        f"Key '{key.name}' created ({_what(key)}). Keep it now: it is shown only once. "
        "Send it as 'Authorization: Bearer KEY'.",
        err=True,
    )


@keys.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_obj
def list_keys(app: AppContext, as_json: bool) -> None:
    """List keys (names, groups, dates; never the keys themselves)."""
    found = key_store(app.rag.store).list_keys()
    if as_json:
        rows = [
            {
                "name": k.name,
                "groups": list(k.groups),
                "admin": k.admin,
                "created_at": k.created_at.isoformat(),
                "revoked_at": k.revoked_at.isoformat() if k.revoked_at else None,
            }
            for k in found
        ]
        click.echo(json.dumps(rows, indent=2))
        return
    table = Table()
    for column in ("name", "groups", "admin", "created", "revoked"):
        table.add_column(column)
    for k in found:
        revoked = k.revoked_at.strftime("%Y-%m-%d %H:%M") if k.revoked_at else ""
        table.add_row(
            k.name,
            ",".join(k.groups),
            "yes" if k.admin else "",
            k.created_at.strftime("%Y-%m-%d %H:%M"),
            revoked,
        )
    app.console.print(table)


@keys.command("revoke")
@click.argument("name")
@click.pass_obj
def revoke(app: AppContext, name: str) -> None:
    """Revoke the active key NAME: refused from the next request on."""
    key = key_store(app.rag.store).revoke_key(name)
    click.echo(f"Key '{key.name}' revoked.")


def _what(key: ApiKey) -> str:
    if key.admin:
        return "admin: reads everything, may upload and delete"
    if key.groups:
        return f"reads public documents and those of {', '.join(key.groups)}"
    return "reads public documents only"


COMMANDS = [keys]
