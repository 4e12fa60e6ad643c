"""`ragcite ingest`: add files and folders to the store."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ragcite.cli.context import AppContext
from ragcite.cli.recheck import print_recheck
from ragcite.compose import shown_store
from ragcite.errors import InputError
from ragcite.index.ingest_outcomes import FileOutcome, IngestReport
from ragcite.ingest.types import DocumentMetadata
from ragcite.ingest.versions import VersionInput, parse_version
from ragcite.lifecycle.recheck import recheck_answers
from ragcite.lifecycle.saved import answers_to_recheck


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--corpus", help="Put the documents in this corpus (default: 'default').")
@click.option("--title", help="Title for a single file (overrides front matter and sidecars).")
@click.option("--url", help="URL for a single file.")
@click.option("--document-id", help="Stable document ID for a single file.")
@click.option(
    "--version",
    "version_text",
    help="Version of a single file: a number (5 or v5) or a name (2024-Q3, 'Rev B'); "
    "a named version is numbered next in sequence.",
)
@click.option(
    "--effective-date",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="Effective date (YYYY-MM-DD) for a single file.",
)
@click.option(
    "--recheck",
    is_flag=True,
    help="Then re-check the saved answers that show a document this ingest changed.",
)
@click.option(
    "--reread",
    is_flag=True,
    help="Read unchanged files again too: one this ragcite reads or chunks differently "
    "(a newer loader, other chunk settings) replaces its version's text and chunks.",
)
@click.pass_obj
def ingest(
    app: AppContext,
    paths: tuple[Path, ...],
    corpus: str | None,
    title: str | None,
    url: str | None,
    document_id: str | None,
    version_text: str | None,
    effective_date: datetime | None,
    recheck: bool = False,
    reread: bool = False,
) -> None:
    """Ingest files and folders (PDF, HTML, Markdown, DOCX, text); unchanged files are skipped."""
    per_file = any(v is not None for v in (title, url, document_id, version_text, effective_date))
    if per_file and (len(paths) != 1 or paths[0].is_dir()):
        raise click.UsageError(
            "--title/--url/--document-id/--version/--effective-date apply to "
            "one file: name exactly one file"
        )
    try:
        version = (
            VersionInput()
            if version_text is None
            else parse_version(version_text, what="--version")
        )
    except InputError as exc:
        raise click.BadParameter(str(exc), param_hint="'--version'") from None
    metadata = DocumentMetadata(
        title=title,
        url=url,
        document_id=document_id,
        version=version.number,
        effective_date=effective_date.date() if effective_date else None,
        version_name=version.name,
    )
    console = app.console
    report, reported = _ingest_with_progress(app, list(paths), metadata, corpus, reread)
    for outcome in report.outcomes:  # missing paths and skipped files never reached the bar
        if outcome.path not in reported:
            console.print(_outcome_line(outcome))
    rate = report.chunks / report.seconds if report.seconds > 0 else 0.0
    console.print(
        f"{report.added} added ({report.chunks} chunks, {rate:.0f} chunks/s), "
        f"{report.unchanged} unchanged, {len(report.failed)} failed "
        f"in {report.seconds:.1f}s → {shown_store(app.settings.store)}"
    )
    if recheck:
        _recheck_changed(app, report)
    if report.failed:
        raise SystemExit(1)


def _recheck_changed(app: AppContext, report: IngestReport) -> None:
    """Re-check the saved answers showing a document this ingest added a version of."""
    changed = tuple(
        sorted({o.document_id for o in report.outcomes if o.status == "added" and o.document_id})
    )
    if not changed:
        app.console.print("No document changed: no saved answer to re-check.")
        return
    answers = answers_to_recheck(app.rag, document_ids=changed)
    print_recheck(recheck_answers(app.rag, answers), app.console)


def _ingest_with_progress(
    app: AppContext,
    paths: list[Path],
    metadata: DocumentMetadata,
    corpus: str | None,
    reread: bool = False,
) -> tuple[IngestReport, set[Path]]:
    """Ingest with a bar over the files and, inside a large file, one over its texts (its
    chunks and their sentences);
    also the paths whose outcome was printed already."""
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=app.console,
        transient=True,
    ) as progress:
        task = progress.add_task("Ingesting", total=None)
        inside = progress.add_task("", total=None, visible=False)
        reported: set[Path] = set()

        def chunks(path: Path, done: int, total: int) -> None:
            progress.update(
                inside,
                description=f"  {escape(path.name)}: texts embedded",
                completed=done,
                total=total,
                visible=done < total,  # hidden again once the file is done
            )

        def done(outcome: FileOutcome) -> None:
            reported.add(outcome.path)
            progress.advance(task)
            progress.console.print(_outcome_line(outcome))

        report = app.rag.ingest(
            paths,
            metadata=metadata,
            corpus=corpus,
            on_start=lambda total: progress.update(task, total=total),
            on_file=done,
            on_chunks=chunks,
            reread=reread,
        )
    return report, reported


def _outcome_line(outcome: FileOutcome) -> str:
    # File names and errors are text, not markup: "[Content_Types].xml" must print as is.
    path, error = escape(str(outcome.path)), escape(outcome.error or "")
    if outcome.status == "added":
        return (
            f"[green]added[/green]     {path}  → {escape(outcome.document_id or '')} "
            f"{escape(outcome.version_name or f'v{outcome.version}')} ({outcome.chunks} chunks)"
        )
    if outcome.status == "unchanged":
        return f"[dim]unchanged[/dim] {path}"
    if outcome.status == "skipped":
        return f"[yellow]skipped[/yellow]   {error}"
    return f"[red]failed[/red]    {error}"


COMMANDS = [ingest]
