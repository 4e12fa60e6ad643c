"""`ragcite documents` (and `documents verify`, `documents erase`) and `ragcite delete`:
what the store holds."""

from __future__ import annotations

import getpass
import json
from datetime import UTC, datetime

import click
from rich.table import Table

from ragcite.cli.context import AppContext, as_groups_option
from ragcite.index.answers import erasing_store
from ragcite.lifecycle.saved import erase_document
from ragcite.score.staleness import age_basis, stale_documents


@click.group(invoke_without_command=True)
@click.option("--corpus", help="Only this corpus.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.option(
    "--stale",
    is_flag=True,
    help="Only active documents not verified for lifecycle.stale_after_days days.",
)
@click.option("--erased", is_flag=True, help="List the tombstones of erased documents.")
@as_groups_option
@click.pass_context
def documents(
    ctx: click.Context,
    corpus: str | None,
    as_json: bool,
    stale: bool,
    access_groups: tuple[str, ...] | None,
    erased: bool = False,
) -> None:
    """List documents with their versions and status."""
    if ctx.invoked_subcommand is not None:
        return
    app: AppContext = ctx.obj
    if erased:
        print_tombstones(app, as_json)
        return
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
            f"{d.version} ({d.version_name})" if d.version_name else str(d.version),
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
    tombstones = erasing_store(app.rag.store).tombstones()
    if tombstones and access_groups is None:
        app.console.print(f"{len(tombstones)} erased document(s): ragcite documents --erased")


@documents.command()
@click.argument("document_id")
@click.pass_obj
def verify(app: AppContext, document_id: str) -> None:
    """Mark a document re-verified today (its version in force)."""
    document = app.rag.store.mark_verified(document_id, datetime.now(UTC))
    when = document.last_verified.date().isoformat() if document.last_verified else "today"
    app.console.print(f"{document_id} v{document.version}: verified on {when}")


@documents.command()
@click.argument("document_id")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_obj
def erase(app: AppContext, document_id: str, yes: bool) -> None:
    """Erase a document for good: text, chunks, vectors, keyword rows, cached answers and
    saved answers' quotes of it, in one transaction; a tombstone remains."""
    if not yes:
        click.confirm(
            f"Erase '{document_id}' and every version of it for good? This cannot be undone",
            abort=True,
        )
    report = erase_document(app.rag, document_id, erased_by=f"cli ({_user()})")
    app.console.print(
        f"{document_id}: erased {report.versions} version(s), {report.chunks} chunk(s), "
        f"{report.cached_answers} cached answer(s); {report.saved_answers} saved answer(s) "
        "redacted. A tombstone remains (ragcite documents --erased)."
    )


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in some containers
        return "unknown user"


def print_tombstones(app: AppContext, as_json: bool) -> None:
    found = erasing_store(app.rag.store).tombstones()
    if as_json:
        rows = [
            {
                "document_id": t.document_id,
                "title": t.title,
                "erased_at": t.erased_at.isoformat(),
                "erased_by": t.erased_by,
            }
            for t in found
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    table = Table(title="Erased documents")
    for column in ("document_id", "title", "erased at", "erased by"):
        table.add_column(column)
    for t in found:
        table.add_row(
            t.document_id, t.title, t.erased_at.isoformat(timespec="seconds"), t.erased_by
        )
    app.console.print(table)


@click.command()
@click.argument("document_id")
@click.pass_obj
def delete(app: AppContext, document_id: str) -> None:
    """Mark a document (every version) deleted: it is kept for audit but never searched."""
    count = app.rag.store.delete_document(document_id)
    app.console.print(f"{document_id}: {count} version(s) marked deleted")


COMMANDS = [documents, delete]
