"""`ragcite corpora`: the corpora in the store, and who may read each (set-access)."""

from __future__ import annotations

import json
from collections import Counter

import click
from rich.table import Table

from ragcite.cli.context import AppContext
from ragcite.compose import make_store
from ragcite.index.corpus_access import corpus_access_store
from ragcite.index.keys import parse_groups
from ragcite.models import DocumentStatus


@click.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def corpora(ctx: click.Context, as_json: bool) -> None:
    """List the corpora: documents, and the groups that may read each (none: public)."""
    if ctx.invoked_subcommand is not None:
        return
    app: AppContext = ctx.obj
    store = app.rag.store
    counts = Counter(d.corpus for d in store.list_documents() if d.status is DocumentStatus.ACTIVE)
    groups = corpus_access_store(store).corpus_access()
    names = sorted(set(counts) | set(groups))
    if as_json:
        rows = [
            {"corpus": n, "documents": counts.get(n, 0), "groups": list(groups.get(n, ()))}
            for n in names
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    table = Table()
    for column in ("corpus", "documents", "groups"):
        table.add_column(column)
    for name in names:
        shown = ",".join(groups.get(name, ())) or "public"
        table.add_row(name, str(counts.get(name, 0)), shown)
    app.console.print(table)


@corpora.command("set-access")
@click.argument("corpus")
@click.option(
    "--groups",
    required=True,
    metavar="G1,G2",
    help="Groups that may read the corpus, comma-separated; '' makes it public again. "
    "A reader also needs a group of each restricted document in it.",
)
@click.pass_obj
def set_access(app: AppContext, corpus: str, groups: str) -> None:
    """Restrict CORPUS to readers sharing one of GROUPS (applied in every query)."""
    chosen = parse_groups(groups)
    elsewhere = app.settings.corpora.get(corpus)
    if elsewhere is None:
        corpus_access_store(app.rag.store).set_corpus_access(corpus, chosen)
    else:  # `[corpora.NAME]` in another store: its own list, under its name there
        store = make_store(elsewhere.store, dimension=None)
        try:
            corpus_access_store(store).set_corpus_access(elsewhere.corpus or corpus, chosen)
        finally:
            store.close()
    who = f"readers in {', '.join(chosen)}" if chosen else "everyone (public)"
    click.echo(f"Corpus '{corpus}' is readable by {who}.")


COMMANDS = [corpora]
