"""`ragcite report feedback`: what feedback says about the corpus."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from ragcite.cli.context import AppContext
from ragcite.lifecycle.feedback_report import FeedbackReport, feedback_report, labelled_gaps


@click.group()
def report() -> None:
    """Reports on the collection."""


@report.command()
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--export",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the unanswerable questions as labelled questions for `ragcite eval` (JSONL).",
)
@click.option(
    "--min-count",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="How often a question must have gone unanswered or unhelped to count as a gap.",
)
@click.option("--limit", type=click.IntRange(1), default=20, show_default=True)
@click.pass_obj
def feedback(
    app: AppContext, as_json: bool, export: Path | None, min_count: int, limit: int
) -> None:
    """Chunks and documents most often flagged wrong; questions repeatedly unanswerable
    or rated unhelpful (corpus gaps)."""
    found = feedback_report(app.rag, min_count=min_count, limit=limit)
    if export is not None:
        lines = [json.dumps(q, ensure_ascii=False) for q in labelled_gaps(found)]
        export.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    if as_json:  # the JSON alone, so it can be piped
        click.echo(json.dumps(found.as_json(), indent=2, ensure_ascii=False))
        return
    _print(found, app)
    if export is not None:
        app.console.print(f"{len(lines)} labelled question(s) written to {escape(str(export))}")


def _print(found: FeedbackReport, app: AppContext) -> None:
    console = app.console
    console.print(
        f"{found.feedback_records} feedback record(s), {found.saved_answers} saved answer(s)"
    )
    chunks = Table(title="Chunks most often flagged as wrong citations", title_justify="left")
    for column in ("count", "chunk", "document", "claims flagged"):
        chunks.add_column(column, overflow="fold")
    for c in found.chunks:
        where = f"{c.document_id} ({c.title})" if c.document_id else "(no longer stored)"
        chunks.add_row(str(c.count), c.chunk_id, escape(where), escape(" | ".join(c.claims[:3])))
    documents = Table(title="Documents most often flagged", title_justify="left")
    for column in ("count", "document", "title"):
        documents.add_column(column)
    for d in found.documents:
        documents.add_row(str(d.count), d.document_id, escape(d.title))
    gaps = Table(title="Corpus gaps: questions without a good answer", title_justify="left")
    for column in ("count", "question", "unanswerable", "unhelpful", "wordings"):
        gaps.add_column(column, overflow="fold")
    for g in found.gaps:
        gaps.add_row(
            str(g.count),
            escape(g.question),
            str(g.unanswerable),
            str(g.unhelpful),
            str(len(g.wordings)),
        )
    for table in (chunks, documents, gaps):
        console.print(table if table.row_count else f"{table.title}: none")


COMMANDS = [report]
