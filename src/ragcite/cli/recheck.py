"""`ragcite recheck`: saved answers checked again against the store as it is now."""

from __future__ import annotations

import json
from datetime import datetime

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragcite.cli.context import AppContext, as_groups_option
from ragcite.lifecycle.recheck import ClaimStatus, RecheckReport, recheck_answers
from ragcite.lifecycle.saved import answers_to_recheck

STYLE = {
    ClaimStatus.VERIFIED: "green",
    ClaimStatus.SUPERSEDED_SUPPORTED: "yellow",
    ClaimStatus.CHANGED_SUPPORTED: "yellow",
}


@click.command()
@click.argument("answer_id", required=False)
@click.option("--all", "all_answers", is_flag=True, help="Re-check every saved answer.")
@click.option(
    "--since",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="Only answers showing a document changed (ingested, deleted, erased) since YYYY-MM-DD.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@as_groups_option
@click.pass_obj
def recheck(
    app: AppContext,
    answer_id: str | None,
    all_answers: bool,
    since: datetime | None,
    as_json: bool,
    access_groups: tuple[str, ...] | None,
) -> None:
    """Re-run the gate on saved answers against the current store, claim by claim."""
    if answer_id is None and not all_answers and since is None:
        raise click.UsageError("name an answer ID, or give --all or --since YYYY-MM-DD")
    if answer_id is not None and all_answers:
        raise click.UsageError("give an answer ID or --all, not both")
    rag = app.rag
    answers = answers_to_recheck(
        rag, answer_id, since=since.date() if since else None, access_groups=access_groups
    )
    report = recheck_answers(rag, answers, access_groups=access_groups)
    if as_json:
        click.echo(json.dumps(report.as_json(), indent=2, ensure_ascii=False))
    else:
        print_recheck(report, app.console)


def print_recheck(report: RecheckReport, console: Console) -> None:
    """A table per answer, claim by claim, then the counts."""
    for answer in report.answers:
        verdict = "[green]still verified[/]" if answer.still_verified else "[red]needs review[/]"
        table = Table(
            title=f"{answer.answer_id}  {escape(answer.query)}  ({verdict})",
            title_justify="left",
            show_lines=True,
        )
        for column in ("claim", "status", "now"):
            table.add_column(column, overflow="fold")
        for claim in answer.claims:
            style = STYLE.get(claim.status, "red")
            now = escape(claim.new_text or "")
            if claim.new_version is not None:
                now = f"v{claim.new_version}: {now}"
            table.add_row(escape(claim.claim_text), f"[{style}]{claim.detail}[/]", now)
        console.print(table)
    counts = ", ".join(f"{n} {s}" for s, n in report.counts().items()) or "no claims"
    console.print(
        f"{len(report.answers)} answer(s) re-checked in {report.seconds:.2f}s "
        f"({report.answers_per_second:.1f} answers/s): {counts}"
    )


COMMANDS = [recheck]
