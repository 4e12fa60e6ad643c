"""Run folders (settings + results JSON + Markdown tables + plots) and comparing two runs.

runs/NAME/
  settings.json   the settings, data set (path and sha256), ragcite version, time
  results.json    every metric, nested by part
  report.md       the same as tables
  *.png           reliability diagrams
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragcite import __version__
from ragcite.compose import shown_store
from ragcite.config import Settings
from ragcite.errors import InputError


@dataclass(frozen=True)
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]


def fmt(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        return f"{value:.3f}"
    return str(value)


def _metric_table(title: str, metrics: dict[str, Any]) -> Table:
    rows = [[k, fmt(v)] for k, v in metrics.items() if isinstance(v, int | float)]
    return Table(title, ["metric", "value"], rows)


def tables(results: dict[str, Any]) -> list[Table]:
    """The results of one run as tables, in a fixed order."""
    out = []
    if "retrieval" in results:
        stages = results["retrieval"]
        metrics = list(next(iter(stages.values())))
        out.append(
            Table(
                "Retrieval per stage",
                ["metric", *stages],
                [[m, *(fmt(stages[s][m]) for s in stages)] for m in metrics],
            )
        )
    if "attribution" in results:
        out.append(
            _metric_table(
                f"Attribution (judge: {results['attribution'].get('judge')})",
                results["attribution"],
            )
        )
    if "abstention" in results:
        out.append(_metric_table("Abstention (positive = answered)", results["abstention"]))
    if "calibration" in results:
        out.append(_calibration_table(results["calibration"]))
    if "flags" in results:
        out.append(_metric_table("Warning-flag rates (share of questions)", results["flags"]))
    if "versions" in results:
        out.append(_metric_table("Version questions", results["versions"]))
    if "support" in results:
        sup = {k: v for k, v in results["support"].items() if not isinstance(v, dict)}
        out.append(_metric_table("Support checker", sup))
        c = results["support"]["confusion"]
        out.append(
            Table(
                "Support confusion matrix",
                ["actual \\ predicted", "supported", "not"],
                [
                    ["supported", str(c["tp"]), str(c["fn"])],
                    ["not supported", str(c["fp"]), str(c["tn"])],
                ],
            )
        )
    return out


def _calibration_table(cal: dict[str, Any]) -> Table:
    rows = [
        [level, when, *(fmt(m[k]) for k in ("ece", "brier", "mean_confidence", "accuracy", "n"))]
        for level in ("claim", "answer")
        for when in ("before", "after", "configured")
        if (m := cal.get(level, {}).get(when))
    ]
    return Table(
        "Calibration (held-out, 10-bin ECE)",
        ["level", "map", "ECE", "Brier", "mean conf.", "share correct", "n"],
        rows,
    )


def markdown(tables_: list[Table]) -> str:
    parts = []
    for t in tables_:
        parts.append(f"### {t.title}\n")
        parts.append("| " + " | ".join(t.columns) + " |")
        parts.append("|" + "---|" * len(t.columns))
        parts.extend("| " + " | ".join(r) + " |" for r in t.rows)
        parts.append("")
    return "\n".join(parts)


def _clean(value: Any) -> Any:
    """NaN is not JSON: write it as null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def write_run(
    out: Path, *, settings: Settings, dataset: str, command: str, results: dict[str, Any]
) -> Path:
    """Write the run folder `out` and return it."""
    out.mkdir(parents=True, exist_ok=True)
    path = Path(dataset)
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    meta = {
        "command": command,
        "dataset": dataset,
        "dataset_sha256": digest,
        "ragcite_version": __version__,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "settings": {
            **settings.model_dump(mode="json"),
            "store": shown_store(settings.store),
            "corpora": {
                name: {**corpus.model_dump(mode="json"), "store": shown_store(corpus.store)}
                for name, corpus in settings.corpora.items()
            },
        },
    }
    (out / "settings.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    (out / "results.json").write_text(
        json.dumps(_clean(results), indent=2, allow_nan=False) + "\n", encoding="utf-8"
    )
    (out / "report.md").write_text(
        f"# ragcite eval {command}: {dataset}\n\n" + markdown(tables(results)), encoding="utf-8"
    )
    return out


def read_run(folder: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """(settings.json, results.json) of a run folder."""
    try:
        meta = json.loads((folder / "settings.json").read_text(encoding="utf-8"))
        results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{folder}: not a ragcite eval run folder ({exc})") from None
    return meta, results


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            out.update(flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: data}


@dataclass(frozen=True)
class Comparison:
    metrics: list[tuple[str, float | None, float | None]]  # name, run A, run B
    settings: list[tuple[str, Any, Any]]  # settings that differ


def compare_runs(a: Path, b: Path) -> Comparison:
    """Every numeric metric of two runs side by side, and the settings that differ."""
    meta_a, res_a = read_run(a)
    meta_b, res_b = read_run(b)
    flat_a, flat_b = flatten(res_a), flatten(res_b)

    def numeric(v: Any) -> bool:
        return v is None or (isinstance(v, int | float) and not isinstance(v, bool))

    names = [
        k
        for k in dict.fromkeys([*flat_a, *flat_b])
        if numeric(flat_a.get(k)) and numeric(flat_b.get(k))
    ]
    set_a, set_b = flatten(meta_a.get("settings", {})), flatten(meta_b.get("settings", {}))
    differing = [
        (k, set_a.get(k), set_b.get(k))
        for k in dict.fromkeys([*set_a, *set_b])
        if set_a.get(k) != set_b.get(k) and k not in ("store", "store_path")
    ]
    return Comparison([(k, flat_a.get(k), flat_b.get(k)) for k in names], differing)
