"""`ragcite cache clear`: forget every cached answer."""

from __future__ import annotations

import click

from ragcite.cli.context import AppContext


@click.group()
def cache() -> None:
    """The answer cache (cache.* settings)."""


@cache.command()
@click.pass_obj
def clear(app: AppContext) -> None:
    """Remove every cached answer (e.g. after replacing a model file)."""
    answers = app.rag.answer_cache
    if answers is None:
        app.console.print("The answer cache is off (cache.enabled = false): nothing to clear.")
        return
    app.console.print(f"{answers.clear()} cached answer(s) removed")


COMMANDS = [cache]
