"""`ragcite migrate`: copy a collection between stores, vectors included."""

from __future__ import annotations

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ragcite.cli.context import AppContext
from ragcite.compose import existing_store, make_store, shown_store
from ragcite.errors import InputError
from ragcite.index.copy_store import copy_collection
from ragcite.index.store import NewVersion


@click.command()
@click.option("--from", "source", required=True, metavar="PATH|URL", help="The store to read.")
@click.option("--to", "target", required=True, metavar="PATH|URL", help="The store to fill.")
@click.option(
    "--corpus",
    help="Only this corpus (feedback, saved answers and tombstones are copied only without it).",
)
@click.option(
    "--append",
    is_flag=True,
    help="Copy into a store that already holds documents: versions it holds with the same "
    "content are skipped, so running it twice copies nothing twice.",
)
@click.pass_obj
def migrate(app: AppContext, source: str, target: str, corpus: str | None, append: bool) -> None:
    """Copy every document version (status, metadata, text, pages, chunks and vectors, so
    nothing is re-embedded), the feedback, saved answers, tombstones of erased documents
    and corpus access groups from one store to another, then check the counts.
    E.g. ragcite migrate --from ~/hr.db --to postgresql://rag@db/hr"""
    if source == target:
        raise InputError(f"--from and --to are the same store ({shown_store(source)})")
    reading = existing_store(source)
    try:
        if reading.dimension is None:
            raise InputError(f"{shown_store(source)} holds no documents: nothing to migrate")
        writing = make_store(target, dimension=reading.dimension)
        try:
            total = len(reading.list_documents(corpus))
            with Progress(
                TextColumn("Copying versions"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=app.console,
                transient=True,
            ) as progress:
                task = progress.add_task("Copying", total=total)

                def copied(_: NewVersion) -> None:
                    progress.advance(task)

                report = copy_collection(
                    reading, writing, corpus=corpus, append=append, on_version=copied
                )
        finally:
            writing.close()
    finally:
        reading.close()
    counts = report.counts
    click.echo(
        f"{report.versions_added} versions copied ({report.chunks_added} chunks, vectors "
        f"included), {report.versions_skipped} already there; {report.feedback_added} "
        f"feedback records copied, {report.answers_added} saved answers "
        f"({report.answers_skipped} already there), {report.tombstones_added} tombstones, "
        f"{report.corpora_access_set} corpus access lists → {shown_store(target)}\n"
        f"counts checked: {counts.documents} documents, {counts.versions} versions, "
        f"{counts.chunks} chunks"
    )


COMMANDS = [migrate]
