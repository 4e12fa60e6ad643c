"""`ragcite ask` and `ragcite search`."""

from __future__ import annotations

import json
from datetime import datetime

import click

from ragcite.cli.context import AppContext, as_groups_option
from ragcite.lifecycle.saved import save_answer
from ragcite.render.api import response_json, source_json
from ragcite.render.terminal import print_chunks, print_response

reranker_option = click.option(
    "--reranker",
    metavar="SPEC",
    help="Reranker: learned (default), cross-encoder:DIR, cohere:MODEL, llm:LLM-SPEC "
    "(e.g. llm:local:smollm2).",
)


@click.command()
@click.argument("question")
@click.option("--json", "as_json", is_flag=True, help="Print the response as JSON.")
@click.option("-k", "--top-k", type=click.IntRange(1, 200), help="Chunks to retrieve (default 8).")
@click.option(
    "--corpus",
    "corpora",
    multiple=True,
    help="Only this corpus; repeat it to search several, each on its own and concurrently.",
)
@click.option("--include-superseded", is_flag=True, help="Also search superseded versions.")
@click.option(
    "--as-of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="Answer from the versions in force on this date (YYYY-MM-DD), superseded or not. "
    'A question that names a date or version ("in 2019", "v1") does this by itself.',
)
@click.option(
    "--llm",
    metavar="SPEC",
    help="Generator: extractive (default), openai:MODEL, anthropic:MODEL, "
    "local:PATH.gguf, local:smollm2, openai-compatible:URL#MODEL.",
)
@click.option(
    "--support-judge",
    metavar="SPEC",
    help="Let an LLM (a spec as for --llm, not extractive) judge claims whose support "
    "score is borderline.",
)
@click.option(
    "--save",
    is_flag=True,
    help="Save the answer under its ID, to re-check later (ragcite recheck ID).",
)
@reranker_option
@as_groups_option
@click.pass_obj
def ask(
    app: AppContext,
    question: str,
    as_json: bool,
    top_k: int | None,
    corpora: tuple[str, ...],
    include_superseded: bool,
    as_of: datetime | None,
    llm: str | None,
    reranker: str | None,
    support_judge: str | None,
    access_groups: tuple[str, ...] | None,
    save: bool = False,
) -> None:
    """Answer a question; every claim cites a verified quote from the documents."""
    if llm:
        app.overrides["generate.llm"] = llm
    if reranker:
        app.overrides["rerank.backend"] = reranker
    if support_judge:
        app.overrides["gate.support_judge"] = support_judge
    rag = app.rag
    filters = rag.filters(
        corpora=corpora or None,
        access_groups=access_groups,
        include_superseded=include_superseded or None,
        as_of=as_of.date() if as_of else None,
    )
    response = rag.ask(question, k=top_k, filters=filters)
    if save:
        save_answer(rag, response, key_name="cli", groups=access_groups)
    if as_json:
        click.echo(json.dumps(response_json(response), indent=2, ensure_ascii=False))
    else:
        print_response(response, app.console)
        if save:
            app.console.print(
                f"[dim]Saved as answer {response.answer_id}: "
                f"ragcite recheck {response.answer_id}[/dim]"
            )


@click.command()
@click.argument("query")
@click.option("--json", "as_json", is_flag=True, help="Print the chunks as JSON.")
@click.option("-k", "--top-k", type=click.IntRange(1, 200), help="Chunks to return (default 8).")
@click.option(
    "--corpus",
    "corpora",
    multiple=True,
    help="Only this corpus; repeat it to search several, each on its own and concurrently.",
)
@click.option("--include-superseded", is_flag=True, help="Also search superseded versions.")
@click.option(
    "--as-of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="Answer from the versions in force on this date (YYYY-MM-DD), superseded or not. "
    'A question that names a date or version ("in 2019", "v1") does this by itself.',
)
@reranker_option
@as_groups_option
@click.pass_obj
def search(
    app: AppContext,
    query: str,
    as_json: bool,
    top_k: int | None,
    corpora: tuple[str, ...],
    include_superseded: bool,
    as_of: datetime | None,
    reranker: str | None,
    access_groups: tuple[str, ...] | None,
) -> None:
    """Show the retrieved chunks for a query with every score."""
    if reranker:
        app.overrides["rerank.backend"] = reranker
    rag = app.rag
    filters = rag.filters(
        corpora=corpora or None,
        access_groups=access_groups,
        include_superseded=include_superseded or None,
        as_of=as_of.date() if as_of else None,
    )
    chunks, timings = rag.search(query, k=top_k, filters=filters)
    if as_json:
        payload = {
            "query": query,
            "chunks": [source_json(c) for c in chunks],
            "timings_ms": timings,
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print_chunks(chunks, app.console)


COMMANDS = [ask, search]
