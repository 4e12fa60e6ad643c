"""`ragcite documents` (and `documents verify`) and `ragcite delete`: what the store holds."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import click
from rich.table import Table

from ragcite.cli.context import AppContext, as_groups_option
from ragcite.score.staleness import age_basis, stale_documents


@click.group(invoke_without_command=True)
@click.option("--corpus", help="Only this corpus.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.option(
    "--stale",
    is_flag=True,
    help="Only active documents not verified for lifecycle.stale_after_days days.",
)
@as_groups_option
@click.pass_context
def documents(
    ctx: click.Context,
    corpus: str | None,
    as_json: bool,
    stale: bool,
    access_groups: tuple[str, ...] | None,
) -> None:
    """List documents with their versions and status."""
    if ctx.invoked_subcommand is not None:
        return
    app: AppContext = ctx.obj
    docs = app.rag.store.list_documents(corpus, access_groups=access_groups)
    if stale:
        docs = stale_documents(docs, app.settings.lifecycle.stale_after_days)
    if as_json:
        click.echo(json.dumps([d.model_dump(mode="json") for d in docs], indent=2))
        return
    table = Table()
    columns = ("document_id", "version", "title", "effective", "status", "corpus", "age from")
    for column in columns:
        table.add_column(column)
    for d in docs:
        basis, since = age_basis(d)
        table.add_row(
            d.document_id,
            str(d.version),
            d.title,
            d.effective_date.isoformat() if d.effective_date else "",
            str(d.status),
            d.corpus,
            f"{since.isoformat()} ({basis.removeprefix('was ').removesuffix(' on')})",
        )
    app.console.print(table)
    counts = app.rag.store.counts()
    app.console.print(
        f"{counts.documents} documents, {counts.versions} versions, "
        f"{counts.chunks} chunks (corpus version {counts.corpus_version})"
    )


@documents.command()
@click.argument("document_id")
@click.pass_obj
def verify(app: AppContext, document_id: str) -> None:
    """Mark a document re-verified today (its version in force)."""
    document = app.rag.store.mark_verified(document_id, datetime.now(UTC))
    when = document.last_verified.date().isoformat() if document.last_verified else "today"
    app.console.print(f"{document_id} v{document.version}: verified on {when}")


@click.command()
@click.argument("document_id")
@click.pass_obj
def delete(app: AppContext, document_id: str) -> None:
    """Mark a document (every version) deleted: it is kept for audit but never searched."""
    count = app.rag.store.delete_document(document_id)
    app.console.print(f"{document_id}: {count} version(s) marked deleted")


COMMANDS = [documents, delete]
