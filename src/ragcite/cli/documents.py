"""`ragcite documents` and `ragcite delete`: what the store holds."""

from __future__ import annotations

import json

import click
from rich.table import Table

from ragcite.cli.context import AppContext, as_groups_option


@click.command()
@click.option("--corpus", help="Only this corpus.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@as_groups_option
@click.pass_obj
def documents(
    app: AppContext, corpus: str | None, as_json: bool, access_groups: tuple[str, ...] | None
) -> None:
    """List documents with their versions and status."""
    docs = app.rag.store.list_documents(corpus, access_groups=access_groups)
    if as_json:
        click.echo(json.dumps([d.model_dump(mode="json") for d in docs], indent=2))
        return
    table = Table()
    for column in ("document_id", "version", "title", "effective", "status", "corpus"):
        table.add_column(column)
    for d in docs:
        table.add_row(
            d.document_id,
            str(d.version),
            d.title,
            d.effective_date.isoformat() if d.effective_date else "",
            str(d.status),
            d.corpus,
        )
    app.console.print(table)
    counts = app.rag.store.counts()
    app.console.print(
        f"{counts.documents} documents, {counts.versions} versions, "
        f"{counts.chunks} chunks (corpus version {counts.corpus_version})"
    )


@click.command()
@click.argument("document_id")
@click.pass_obj
def delete(app: AppContext, document_id: str) -> None:
    """Mark a document (every version) deleted: it is kept for audit but never searched."""
    count = app.rag.store.delete_document(document_id)
    app.console.print(f"{document_id}: {count} version(s) marked deleted")


COMMANDS = [documents, delete]
