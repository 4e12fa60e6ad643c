"""Draw ask and retrieval p50 against corpus size, ragcite and its peers, as a PNG.

    python bench/plot.py        # reads docs/bench/scale.json and peers.json, writes
                                # docs/bench/latency_vs_size.png

The numbers come from bench/scale.py (ragcite at 10k, 100k, 1M chunks; "before": the
same stores measured with the index code before HNSW from 50k and the keyword changes) and
bench/peers.py (LlamaIndex CitationQueryEngine with MockLLM, same corpus and embedder).
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

DOCS = Path(__file__).resolve().parents[1] / "docs" / "bench"


def _series(rows: dict[str, dict[str, float]], key: str) -> tuple[list[int], list[float]]:
    points = sorted((int(size), row[key]) for size, row in rows.items() if key in row)
    return [p[0] for p in points], [p[1] for p in points]


def main() -> None:
    scale = json.loads((DOCS / "scale.json").read_text()) if (DOCS / "scale.json").exists() else {}
    peers = json.loads((DOCS / "peers.json").read_text()) if (DOCS / "peers.json").exists() else {}
    figure, axes = plt.subplots(figsize=(7, 4.5))
    lines = [
        (scale.get("ragcite", {}), "p50_ask_ms", "ragcite ask (full offline, gate)", "o-"),
        (scale.get("ragcite", {}), "p50_retrieve_ms", "ragcite retrieval (hybrid)", "s--"),
        (scale.get("before", {}), "p50_ask_ms", "ragcite ask, previous index code", "x:"),
        (scale.get("before", {}), "p50_retrieve_ms", "retrieval, previous index code", "+:"),
        (peers.get("query", {}), "p50_ragcite_ask_ms", "ragcite ask (peer run)", "o:"),
        (
            peers.get("query", {}),
            "p50_llamaindex_citation_ms",
            "LlamaIndex CitationQueryEngine (MockLLM)",
            "^-",
        ),
    ]
    for rows, key, label, style in lines:
        sizes, values = _series(rows, key)
        if sizes:
            axes.plot(sizes, values, style, label=label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("chunks in the corpus")
    axes.set_ylabel("p50 latency per question (ms)")
    machine = scale.get("machine") or peers.get("machine") or "unknown machine"
    axes.set_title(f"Latency vs corpus size\n{machine}", fontsize=9)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    out = DOCS / "latency_vs_size.png"
    figure.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
