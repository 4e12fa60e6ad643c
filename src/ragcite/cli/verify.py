"""`ragcite verify`: check the citations of an answer from any system."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ragcite.cli.context import AppContext
from ragcite.errors import InputError, ModelError
from ragcite.registry import SUPPORT, installed
from ragcite.verify.any_answer import read_answer, read_sources, verify_citations
from ragcite.verify.support import SupportChecker

EXIT_UNVERIFIED = 3


@click.command()
@click.argument("answer", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--sources",
    "sources_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help='JSON list of the source texts: [{"id": ..., "text": ...}, ...].',
)
@click.option("--no-support", is_flag=True, help="Check IDs and quotes only, not support.")
@click.option(
    "--support-judge",
    metavar="SPEC",
    help="Let an LLM (openai:MODEL, anthropic:MODEL, local:PATH.gguf, local:smollm2, "
    "openai-compatible:URL#MODEL) judge claims whose support score is borderline.",
)
@click.option(
    "--support-semantic",
    type=click.Choice(installed(SUPPORT), case_sensitive=False),
    help="The support checker's semantic layer (default: gate.support_semantic, minilm): "
    "static is several times faster on many claims.",
)
@click.pass_obj
def verify(
    app: AppContext,
    answer: Path,
    sources_path: Path,
    no_support: bool,
    support_judge: str | None,
    support_semantic: str | None,
) -> None:
    """Verify an answer's citations against its sources; exit 3 if any is unverified.

    The support checker is the one `ragcite ask` uses, from the same settings ([gate] in
    the settings file); --support-semantic and --support-judge override them.
    """
    output = _read_json(answer)
    try:
        read_answer(output)
    except InputError as exc:
        raise InputError(f"{answer}: {exc}") from None
    try:
        sources = read_sources(_read_json(sources_path))
    except InputError as exc:
        raise InputError(f"{sources_path}: {exc}") from None
    report = verify_citations(
        output,
        sources,
        support_checker=None
        if no_support
        else _support_checker(app, support_judge, support_semantic),
    )
    click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    if not report["all_verified"]:
        click.echo(f"{answer}: not every citation could be verified", err=True)
        raise SystemExit(EXIT_UNVERIFIED)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None


def _support_checker(
    app: AppContext, judge: str | None, semantic: str | None
) -> SupportChecker | None:
    """The settings' support checker with the command's choices laid over it; None when
    its model cannot be loaded (reported as support_checked: false)."""
    from ragcite.compose import make_embedder, make_support_checker

    if semantic:
        app.overrides["gate.support_semantic"] = semantic
    if judge:
        app.overrides["gate.support_judge"] = judge
    settings = app.settings
    try:
        # Only the transformer layer needs the MiniLM embedder; it is not loaded otherwise.
        layer = settings.gate.support_semantic.casefold()
        embedder = make_embedder(settings) if layer not in ("static", "none") else None
        return make_support_checker(settings, embedder)
    except ModelError:
        return None


COMMANDS = [verify]
