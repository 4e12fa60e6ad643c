"""The `ragcite` command. Errors are mapped to messages and exit codes here, once."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import click

from ragcite import __version__
from ragcite.cli.context import AppContext
from ragcite.errors import RagciteError

EXIT_ERROR = 1
EXIT_USAGE = 2


class RagciteGroup(click.Group):
    """A click group that turns every RagciteError into a one-line message and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RagciteError as exc:
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(EXIT_ERROR)
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            ctx.exit(130)


@click.group(cls=RagciteGroup)
@click.version_option(__version__, prog_name="ragcite")
@click.option(
    "--store",
    metavar="PATH|URL",
    envvar="RAGCITE_STORE",
    help="The store: a SQLite file (or sqlite:///PATH), or a URL whose scheme names an "
    "installed store backend. Default: the user data dir, or $RAGCITE_STORE.",
)
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="RAGCITE_CONFIG",
    help="A TOML settings file. Default: ./ragcite.toml if present, or $RAGCITE_CONFIG.",
)
@click.pass_context
def cli(ctx: click.Context, store: str | None, config: Path | None) -> None:
    """Answers from your documents where every claim cites a verified passage."""
    # pypdf logs every defect it works around in a real-world PDF ("EOF marker not found",
    # "Ignoring wrong pointing object"); ingest says itself when a file cannot be read.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    ctx.obj = AppContext(store=store, config_path=config)
    ctx.call_on_close(ctx.obj.close)


def _register() -> None:
    """Add the commands of every module in this package that lists them in COMMANDS."""
    import importlib
    import pkgutil

    import ragcite.cli

    for info in pkgutil.iter_modules(ragcite.cli.__path__):
        if info.name in ("main", "context"):
            continue
        module = importlib.import_module(f"ragcite.cli.{info.name}")
        for command in getattr(module, "COMMANDS", []):
            cli.add_command(command)


_register()


def main() -> None:
    cli(prog_name="ragcite")


if __name__ == "__main__":
    main()
