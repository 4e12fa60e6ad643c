"""The model card's issue-17 lines say where the checker is below overlap, and by how much."""

from __future__ import annotations

from ragcite.train.support_card import _overlap_targets, overlap_comparison

POOLED = "real-world pooled (AttributionBench, WiCE, Factcheck-GPT)"


def _row(ours: tuple[float, float], overlap: tuple[float, float]) -> dict[str, dict[str, float]]:
    return {
        "combined": {"f1": ours[0], "auc": ours[1]},
        "baseline: overlap": {"f1": overlap[0], "auc": overlap[1]},
    }


def test_a_set_below_overlap_is_named_and_the_target_missed() -> None:
    report = {
        "table": {
            "wice": _row((0.70, 0.74), (0.65, 0.75)),
            "halueval_swap": _row((0.49, float("nan")), (0.46, float("nan"))),
            POOLED: _row((0.75, 0.80), (0.69, 0.77)),
        }
    }
    text = "\n".join(_overlap_targets(report))
    assert "**NOT met** (below on: wice auc 0.740 < 0.750)." in text
    assert "halueval_swap" not in text  # one class: no AUC to compare
    assert "**+6.0 points (met)**" in text


def test_never_below_and_a_small_margin() -> None:
    report = {
        "table": {"wice": _row((0.7, 0.8), (0.7, 0.8)), POOLED: _row((0.72, 0.8), (0.7, 0.8))}
    }
    text = "\n".join(_overlap_targets(report))
    assert "the `combined` column): **met**." in text
    assert "**+2.0 points (NOT met)**" in text


def test_the_comparison_table_names_each_column_and_judges_the_first() -> None:
    report = {
        "table": {
            "wice": _row((0.70, 0.74), (0.65, 0.75)),
            POOLED: _row((0.75, 0.8), (0.69, 0.77)),
        },
        "counts": {"wice": 240, POOLED: 1009},
    }
    lines = overlap_comparison(report, {"combined": "shipped", "baseline: overlap": "overlap"})
    assert lines[0] == "| data set (test n) | shipped | overlap |"
    assert "| wice (240) | 0.700 / 0.740 | 0.650 / 0.750 |" in lines
    assert any("the `shipped` column): **NOT met** (below on: wice auc 0.740" in x for x in lines)
