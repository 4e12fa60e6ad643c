"""The terminal view of an answer and of search results (rich)."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ragcite.models import CitedResponse, ConfidenceLabel, SourceChunk
from ragcite.score.confidence import label_for
from ragcite.text.table_rows import is_table_row, row_cells

LABEL_STYLES = {
    ConfidenceLabel.HIGH: "bold green",
    ConfidenceLabel.MEDIUM: "bold yellow",
    ConfidenceLabel.LOW: "bold dark_orange",
    ConfidenceLabel.VERY_LOW: "bold red",
}


def print_response(response: CitedResponse, console: Console) -> None:
    """Each claim with its sources as display metadata and the quote beneath; then warnings."""
    console.print(Text(response.query, style="bold"))
    console.print()
    if not response.answerable:
        console.print(Text(response.answer_text, style="italic"))
        for chunk in response.source_chunks:
            console.print(Text(f"  • {chunk.display}", style="cyan"))
            console.print(Text(f"    {_excerpt(chunk.chunk_text)}", style="dim"))
    for number, claim in enumerate(response.cited_claims, start=1):
        label = claim.confidence_label or label_for(claim.attribution_confidence)
        head = Text(f"{number}. ", style="bold")
        head.append(claim.claim_text)
        head.append(f"  [{label} {claim.attribution_confidence:.2f}]", style=LABEL_STYLES[label])
        if not claim.verified:
            head.append("  (unverified)", style="bold red")
        console.print(head)
        for citation in claim.citations:
            console.print(Text(f"   ↳ {citation.display}", style="cyan"))
            if citation.quote:
                support = (
                    f" · support: {citation.support}" if citation.support_score is not None else ""
                )
                if is_table_row(citation.quote):
                    console.print(table_row(citation.quote))
                else:
                    # Shown on one line; the stored quote keeps the source's own line breaks.
                    quote = " ".join(citation.quote.split())
                    console.print(Text(f'     "{quote}"', style="italic"))
                console.print(Text(f"     quote: {citation.quote_status}{support}", style="dim"))
        console.print()
    if response.answerable:
        label = response.confidence_label
        console.print(
            Text("Answer confidence: ", style="bold")
            + Text(f"{label} ({response.overall_confidence:.2f})", style=LABEL_STYLES[label])
        )
    if response.warning_flags:
        lines = [Text(f"⚠ {f.message}  [{f.code}]") for f in response.warning_flags]
        console.print(Panel(Group(*lines), title="Warnings", border_style="yellow", expand=False))


def table_row(quote: str) -> Table:
    """A quoted table row as its label over header/value pairs, one a line:

    Team
      Storage  100 GB
      Users    25
    """
    label, cells = row_cells(" ".join(quote.split()))
    grid = Table.grid(padding=(0, 2), pad_edge=False)
    grid.add_column(style="dim")
    grid.add_column(style="italic")
    grid.add_row(Text(f"     {label}", style="bold italic"), "")
    for cell in cells:
        header, _, value = cell.partition(": ")
        grid.add_row(f"       {header}", value)
    return grid


def print_chunks(chunks: list[SourceChunk], console: Console) -> None:
    """Retrieved chunks with every score."""
    table = Table(show_lines=True)
    for column in ("#", "source", "vector", "keyword", "reranker", "composite", "text"):
        table.add_column(column, overflow="fold")
    for rank, chunk in enumerate(chunks, start=1):
        table.add_row(
            str(rank),
            f"{chunk.display}\n[dim]{chunk.chunk_id}[/dim]",
            f"{chunk.vector_similarity_score:.3f}",
            f"{chunk.keyword_score:.2f}",
            f"{chunk.reranker_score:.3f}",
            f"{chunk.composite_confidence:.3f}",
            _excerpt(chunk.chunk_text, 240),
        )
    console.print(table)


def _excerpt(text: str, limit: int = 160) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"
