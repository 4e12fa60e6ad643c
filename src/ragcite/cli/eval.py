"""`ragcite eval`: measure retrieval, attribution, abstention, calibration, support; tune."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from ragcite.cli.context import AppContext
from ragcite.compose import local_data_dir, make_support_checker, shown_store, store_file
from ragcite.config import Settings, config_file_path
from ragcite.errors import InputError
from ragcite.eval.datasets import LOADERS
from ragcite.eval.harness import PARTS, evaluate
from ragcite.eval.questions import load_questions
from ragcite.eval.report import Table, compare_runs, fmt, markdown, tables, write_run
from ragcite.eval.support import load_support_pairs, support_metrics
from ragcite.eval.tune import GRID, Candidate, candidates_json, tune, tuned_settings_toml
from ragcite.pipeline import Ragcite
from ragcite.score.calibration import NO_MAP, calibration_to_dict


def _print(tables_: list[Table], console: Console) -> None:
    for t in tables_:
        table = RichTable(title=t.title, title_justify="left")
        for i, column in enumerate(t.columns):
            table.add_column(column, justify="left" if i == 0 else "right")
        for row in t.rows:
            table.add_row(*row)
        console.print(table)


@contextmanager
def _progress(console: Console, label: str, total: int) -> Iterator[Callable[[int], None]]:
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        yield advance


def _out(out: Path | None, name: str) -> Path:
    return out or Path("runs") / f"{name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"


def _calibration_target(app: AppContext, settings: Settings, explicit: Path | None) -> Path:
    """Where a fitted map goes: --calibration-out, score.calibration_path, or next to the
    settings file in use, or next to the store."""
    if explicit is not None:
        return explicit
    path = settings.score.calibration_path
    if path and path.strip().casefold() != NO_MAP:
        return Path(path).expanduser()
    config = config_file_path(app.config_path)
    if config.is_file():
        return config.with_name("calibration.json")
    store = store_file(settings)
    if store is None:
        return local_data_dir(settings) / "calibration.json"
    return store.with_name(store.stem + ".calibration.json")


def _asking_rag(app: AppContext) -> Ragcite:
    """The pipeline the questions are put to; an empty store is an error, not a report of
    zeros (every question would come back unanswered)."""
    rag = app.rag
    if rag.store.counts().chunks == 0:
        raise InputError(
            f"the store {shown_store(rag.settings.store)} holds no documents, so every question "
            "would go unanswered: ingest the documents the questions are about first "
            "(for the demo set: ragcite ingest demo/), or point --store at the store that "
            "has them"
        )
    return rag


def _run_part(
    app: AppContext,
    part: str,
    dataset: Path,
    out: Path | None,
    fit: bool,
    calibration_out: Path | None,
) -> None:
    console = app.console
    questions = load_questions(dataset)
    parts = PARTS if part == "all" else (part,)
    folder = _out(out, part)
    rag = _asking_rag(app)
    with _progress(console, "asking", len(questions)) as advance:
        report = evaluate(rag, questions, parts=parts, plots=folder, on_question=lambda: advance(1))
    write_run(
        folder, settings=rag.settings, dataset=str(dataset), command=part, results=report.results
    )
    _print(tables(report.results), console)
    if fit and report.fitted is not None:
        target = _calibration_target(app, rag.settings, calibration_out)
        target.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            **calibration_to_dict(report.fitted),
            "fitted_on": {
                "dataset": str(dataset),
                "claims": report.results["calibration"]["claim"]["before"]["n"],
            },
            "held_out": {
                k: report.results["calibration"]["claim"][k]["ece"] for k in ("before", "after")
            },
        }
        target.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        console.print(f"Calibration map ({payload['method']}) written to {target}")
        if str(target) != (rag.settings.score.calibration_path or ""):
            console.print(
                f'Use it at ask time: set [score] calibration_path = "{target}" in ragcite.toml',
                markup=False,
            )
    elif fit:
        console.print("[yellow]Too few labelled claims (or one class only) to fit a map.[/]")
    console.print(f"Run written to {folder}")


def _part_command(part: str, help_text: str) -> click.Command:
    @click.command(name=part, help=help_text)
    @click.argument("dataset", type=click.Path(dir_okay=False, path_type=Path))
    @click.option(
        "--out",
        type=click.Path(file_okay=False, path_type=Path),
        help="Run folder (default runs/PART-TIMESTAMP).",
    )
    @click.option(
        "--fit", is_flag=True, help="Fit a calibration map and store it (calibration and all only)."
    )
    @click.option(
        "--calibration-out",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Where --fit writes the map (default: score.calibration_path, or "
        "next to the settings file or store).",
    )
    @click.pass_obj
    def command(
        app: AppContext, dataset: Path, out: Path | None, fit: bool, calibration_out: Path | None
    ) -> None:
        _run_part(app, part, dataset, out, fit and part in ("calibration", "all"), calibration_out)

    return command


@click.group(name="eval")
def eval_group() -> None:
    """Measure the pipeline on labelled data; compare runs; tune weights."""


for _part, _help in (
    ("retrieval", "Precision/recall@k, MRR@10, nDCG@10 per stage on a labelled JSONL."),
    (
        "attribution",
        "Citation recall/precision, verbatim quotes, hallucinated IDs, unattributed sentences.",
    ),
    ("abstention", "Precision/recall/F1 of `answerable` against the labels."),
    ("calibration", "ECE, Brier and a reliability diagram, before and after a fitted map."),
    ("versions", "Questions naming a date or version: answered from the right version?"),
    (
        "all",
        "Retrieval, attribution, abstention, calibration, flag rates and version questions "
        "in one pass.",
    ),
):
    eval_group.add_command(_part_command(_part, _help))


@eval_group.command(name="support")
@click.argument("dataset")
@click.option(
    "--split",
    type=click.Choice(["train", "validation", "test", "all"]),
    default="test",
    show_default=True,
    help="Group-wise split of a shared data set.",
)
@click.option("--limit", type=click.IntRange(1), help="At most this many pairs.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path))
@click.pass_obj
def support(app: AppContext, dataset: str, split: str, limit: int | None, out: Path | None) -> None:
    """Support-checker accuracy, macro-F1, ROC-AUC, ECE on a JSONL or a shared data set."""
    if dataset not in LOADERS and not Path(dataset).is_file():
        raise click.BadParameter(
            f"{dataset!r} is neither a file nor one of {', '.join(LOADERS)}", param_hint="DATASET"
        )
    pairs = load_support_pairs(
        dataset,
        split=None if split == "all" else split,  # type: ignore[arg-type]
        limit=limit,
    )
    checker = app.rag.support_checker or make_support_checker(app.settings, app.rag.embedder)
    with _progress(app.console, "checking", len(pairs)) as advance:
        results = {
            "support": {
                "dataset": dataset,
                "split": split,
                **support_metrics(checker, pairs, on_batch=advance),
            }
        }
    folder = _out(out, "support")
    write_run(
        folder, settings=app.rag.settings, dataset=dataset, command="support", results=results
    )
    _print(tables(results), app.console)
    app.console.print(f"Run written to {folder}")


@eval_group.command(name="compare")
@click.argument("run_a", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("run_b", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--all-metrics", is_flag=True, help="Also list metrics that did not change.")
@click.pass_obj
def compare(app: AppContext, run_a: Path, run_b: Path, all_metrics: bool) -> None:
    """Two run folders side by side: every metric and the settings that differ."""
    result = compare_runs(run_a, run_b)
    rows = []
    for name, a, b in result.metrics:
        delta = b - a if a is not None and b is not None else None
        if all_metrics or delta is None or abs(delta) > 1e-9:
            rows.append([name, fmt(a), fmt(b), "–" if delta is None else f"{delta:+.3f}"])
    out = [Table(f"Metrics: {run_a.name} → {run_b.name}", ["metric", "A", "B", "Δ"], rows)]
    if result.settings:
        out.append(
            Table(
                "Settings that differ",
                ["setting", "A", "B"],
                [[k, str(a), str(b)] for k, a, b in result.settings],
            )
        )
    _print(out, app.console)
    if not rows:
        app.console.print("No metric changed.")


def _weights(text: str) -> list[float]:
    try:
        values = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise click.BadParameter(f"{text!r}: give comma-separated weights like 0.3,0.5") from None
    if not values or any(not 0 < v < 1 for v in values):
        raise click.BadParameter(f"{text!r}: weights must lie strictly between 0 and 1")
    return values


def candidate_table(candidates: list[Candidate], limit: int | None = None) -> Table:
    rows = [
        [
            f"{c.vector_weight:.1f}/{c.reranker_weight:.1f}",
            f"{c.claim_weight:.1f}/{c.chunk_weight:.1f}",
            fmt(c.answer_auc),
            fmt(c.claim_auc),
            fmt(c.false_alarm_rate),
            fmt(c.catch_rate),
            fmt(c.recall_at_5),
        ]
        for c in candidates[:limit]
    ]
    return Table(
        "Tuning candidates (best first)",
        [
            "vector/reranker",
            "claim/chunk",
            "answer AUC",
            "claim AUC",
            "false alarms",
            "catches",
            "reranked R@5",
        ],
        rows,
    )


@eval_group.command(name="tune")
@click.argument("dataset", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--vector-weights", default=",".join(map(str, GRID)), show_default=True)
@click.option("--claim-weights", default=",".join(map(str, GRID)), show_default=True)
@click.option(
    "--write",
    "write_to",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Settings TOML to write the chosen weights to (default: the settings "
    "file in use, or ./ragcite.toml).",
)
@click.option("--dry-run", is_flag=True, help="Only report; write no settings file.")
@click.pass_obj
def tune_command(
    app: AppContext,
    dataset: Path,
    out: Path | None,
    vector_weights: str,
    claim_weights: str,
    write_to: Path | None,
    dry_run: bool,
) -> None:
    """Grid-search the vector/reranker weights and the confidence blend; keep the best."""
    questions = load_questions(dataset)
    vws, cws = _weights(vector_weights), _weights(claim_weights)
    with _progress(app.console, "tuning", len(vws) * len(questions)) as advance:
        result = tune(
            _asking_rag(app),
            questions,
            vector_weights=vws,
            claim_weights=cws,
            on_question=lambda: advance(1),
        )
    folder = _out(out, "tune")
    table = candidate_table(result.candidates)
    results: dict[str, Any] = {
        "tune": {"best": candidates_json(result)[0], "candidates": candidates_json(result)}
    }
    write_run(
        folder, settings=app.rag.settings, dataset=str(dataset), command="tune", results=results
    )
    (folder / "report.md").write_text(
        f"# ragcite eval tune: {dataset}\n\n" + markdown([table]), encoding="utf-8"
    )
    _print([candidate_table(result.candidates, 10)], app.console)
    base = config_file_path(app.config_path)
    text = tuned_settings_toml(base, result.best, markdown([table]))
    (folder / "tuned.toml").write_text(text, encoding="utf-8")
    target = write_to or base
    if not dry_run:
        target.write_text(text, encoding="utf-8")
        app.console.print(f"Chosen weights written to {target}")
    app.console.print(f"Run written to {folder}")


COMMANDS = [eval_group]
