"""The support checker's model card (docs/models/support-checker.md), from the report."""

from __future__ import annotations

from typing import Any

SOURCE_NOTES = {
    "attributionbench": "AttributionBench dev (research use, no upstream license file)",
    "wice": "WiCE oracle chunks (ODC-BY 1.0 annotations; Wikipedia CC BY-SA; Common Crawl)",
    "wice_gold": "WiCE claims vs their gold supporting sentences (as above)",
    "factcheck_gpt": "Factcheck-GPT subtask 3 (Apache-2.0)",
    "summedits": "SummEdits, 8 domains (Apache-2.0)",
    "healthver": "HealthVer dev + test (no license stated: research use)",
    "anli": "ANLI R1-R3 dev (CC BY-NC 4.0, non-commercial)",
    "climate_fever": "Climate-FEVER (no license stated; Wikipedia CC BY-SA)",
    "rgb": "RGB en_fact (CC BY-NC-SA 4.0, non-commercial)",
    "halueval": "HaluEval QA, first 3,000 items (MIT)",
    "halueval_swap": "entity / number swaps built from HaluEval passages (MIT)",
    "extractive": "built here from SQuAD 2.0 paragraphs (CC BY-SA 4.0) and HaluEval passages"
    " 3,000-3,999 (MIT): held out, never fitted on",
}
DEFAULT = "combined"
OVERLAP = "baseline: overlap"


def render_card(report: dict[str, Any]) -> str:
    """The model card, from the training report."""
    sections = (_recipe, _data, _heldout, _overlap_targets, _targets, _cost)
    return "\n".join(line for section in sections for line in section(report))


def _recipe(report: dict[str, Any]) -> list[str]:
    return [
        "# Support checker (`ragcite.verify.support`)",
        "",
        "Decides whether cited evidence supports a claim: a calibrated P(supported) and a",
        "verdict (supported / partial / unsupported / contradicted) with reasons.",
        "Rebuilt by `ragcite train support` (seed 13; training needs scikit-learn,",
        "`pip install 'ragcite[train]'`; inference needs NumPy only, plus onnxruntime for the",
        "embedder).",
        "",
        "## Recipe",
        "",
        'Citation markers ("[2]", "[doc-4]", "(source 2)", "^1") are removed from the claim',
        "first (`ragcite.verify.markers`): they are not part of what it says.",
        "",
        "1. **Hard checks** — numbers (digits, separators, scales, %, number words) in the",
        "   claim must be in the evidence; a different number of the same kind in the aligned",
        "   sentence is a conflict; negation polarity of claim vs aligned sentence; capitalised",
        "   names of the claim must be in the evidence (another name in the aligned sentence is",
        "   a conflict).",
        "2. **Lexical** — share of the claim's content words (stopwords out, light stemming,",
        "   irregular forms mapped) in the whole evidence (the *overlap* baseline), in the best",
        "   single sentence, in the best greedy set of up to 3 sentences across all chunks;",
        "   content-bigram coverage.",
        "3. **Semantic** — cosine of the claim with its 2 lexically best sentences: MiniLM",
        "   (int8) by default; or the *static* embedder (`ragcite.embed.static`: MiniLM's",
        "   word pieces each embedded alone, PCA 256, SIF-weighted, averaged; built by",
        "   `scripts/build_static_embedder.py`), which needs no transformer at check time.",
        "4. **Learned** — logistic regression or gradient-boosted trees over those signals,",
        "   free or with each signal's direction fixed (more coverage or similarity never",
        "   lowers the score; a missing or conflicting number or name, or a polarity",
        "   mismatch, never raises it: sign-bounded weights, or monotone histogram boosting),",
        "   Platt-scaled on validation. The shipped variants are then stacked with overlap",
        "   (`ragcite.train.support_overlap`): calibrated log-odds plus w times overlap's,",
        "   re-calibrated, folded into one logistic model; the form and w are chosen on",
        "   validation as the best real-world AUC among the candidates below overlap on no",
        "   validation data set (macro-F1 and AUC), else the smallest shortfall; other layer",
        "   sets keep the best validation real-world AUC. The question a claim answers is not",
        "   used: question-aware coverage lowered AttributionBench validation AUC (0.735 to",
        "   0.705).",
        "   SUPPORTED at or above the threshold maximising pooled validation macro-F1 (averaged",
        "   over 7 neighbouring cuts: the curve is flat near its top, its peak moves on noise);",
        "   PARTIAL below it down to a calibrated P(supported) of 1/3; UNSUPPORTED under that.",
        "   CONTRADICTED when below SUPPORTED and the hard checks find a conflicting number,",
        "   negation or name in a sentence holding at least half of the claim's content words.",
        "",
        f"Shipped: `semantic` variant (MiniLM, the default) = {_form(report, 'combined')}, "
        f"thresholds {_fmt_thresholds(report['thresholds']['semantic'])}; `static` variant = "
        f"{_form(report, 'combined (static variant)')}, thresholds "
        f"{_fmt_thresholds(report['thresholds']['static'])}; `lexical` variant (no embedder) = "
        f"{_form(report, 'combined (lexical-only variant)')}, thresholds "
        f"{_fmt_thresholds(report['thresholds']['lexical'])}.",
        "",
        "No cross-encoder is part of it: one fine-tuned on these pairs for 43 minutes on the CPU",
        "lowered held-out AttributionBench macro-F1 when stacked; see",
        "`support-checker-experiments.md`.",
        "",
    ]


def _data(report: dict[str, Any]) -> list[str]:
    lines = [
        "## Data",
        "",
        f"{report['n_pairs']} claim-evidence pairs from `../shared/datasets/` (each data set",
        "sampled to about 2,000 pairs, whole groups, to bound CPU time), split by group (claim,",
        "document or id; never by row) 60 / 20 / 20 into train / validation / test.",
        "Training weights each data set equally in total, real-world attribution sets double.",
        "",
        "| source | license | train | test |",
        "|---|---|---|---|",
    ]
    for source, note in SOURCE_NOTES.items():
        lines.append(
            f"| {source} | {note} | {report['train_counts'].get(source, 0)} "
            f"| {report['counts'].get(source, 0)} |"
        )
    lines += [
        "",
        "The embedder is all-MiniLM-L6-v2 (Apache-2.0). Because ANLI and RGB are CC BY-NC and",
        "several sets are research-use only, **the shipped model is trained partly on",
        "non-commercial / research-use data**; check this lineage before commercial use.",
        "",
    ]
    return lines


def _heldout(report: dict[str, Any]) -> list[str]:
    lines = [
        "## Held-out results (test split)",
        "",
        "Each cell: accuracy / macro-F1 / ROC-AUC / ECE. Every method's score is Platt-scaled",
        "on validation; its decision threshold is tuned on the *same data set's* validation",
        "split (so the baselines are measured exactly like the checker). Baselines: *overlap* =",
        "content-word overlap of claim and whole evidence; *cosine* = MiniLM cosine of claim",
        "and whole chunk. `halueval_swap` holds only negatives (accuracy = share rejected;",
        "AUC undefined). Per-data-set thresholds flatter every method alike; the shipped",
        "single-threshold figures are under Targets.",
        "",
    ]
    methods = list(next(iter(report["table"].values())))
    lines.append("| data set (test n) | " + " | ".join(methods) + " |")
    lines.append("|---" * (len(methods) + 1) + "|")
    for group, row in report["table"].items():
        cells = [
            f"{m['acc']:.2f} / **{m['f1']:.2f}** / {m['auc']:.2f} / {m['ece']:.2f}"
            for m in row.values()
        ]
        lines.append(f"| {group} ({report['counts'][group]}) | " + " | ".join(cells) + " |")
    return lines


def _overlap_targets(
    report: dict[str, Any], ours: str = DEFAULT, heading: str | None = None
) -> list[str]:
    """Issue 17: never below overlap on any held-out set; +5 points on real-world pooled."""
    lines = ["", "## Against the overlap baseline (issue 17)", ""]
    below = []
    for group, row in report["table"].items():
        mine, base = row[ours], row[OVERLAP]
        for metric in ("f1", "auc"):
            if mine[metric] < base[metric]:  # NaN (AUC of a one-class set) compares False
                below.append(f"{group} {metric} {mine[metric]:.3f} < {base[metric]:.3f}")
    lines.append(
        "- Never below content-word overlap on any held-out set (macro-F1 and AUC, the table"
        f" above, the `{heading or ours}` column): **{_met(not below)}**"
        + (f" (below on: {'; '.join(below)})." if below else ".")
    )
    pooled = report["table"]["real-world pooled (AttributionBench, WiCE, Factcheck-GPT)"]
    margin = pooled[ours]["f1"] - pooled[OVERLAP]["f1"]
    lines.append(
        f"- Real-world pooled macro-F1 at least 5 points above overlap: {pooled[ours]['f1']:.3f}"
        f" vs {pooled[OVERLAP]['f1']:.3f}, **{100 * margin:+.1f} points ({_met(margin >= 0.05)})**."
    )
    return lines


def overlap_comparison(report: dict[str, Any], columns: dict[str, str]) -> list[str]:
    """A held-out table of macro-F1 / ROC-AUC for the named columns of `report`'s table
    (label in the report -> heading), then the issue-17 lines for the first column."""
    lines = ["| data set (test n) | " + " | ".join(columns.values()) + " |"]
    lines.append("|---" * (len(columns) + 1) + "|")
    for group, row in report["table"].items():
        cells = [f"{row[c]['f1']:.3f} / {row[c]['auc']:.3f}" for c in columns]
        lines.append(f"| {group} ({report['counts'][group]}) | " + " | ".join(cells) + " |")
    first = next(iter(columns))
    return lines + _overlap_targets(report, first, columns[first])[3:]


def _targets(report: dict[str, Any]) -> list[str]:
    t = report["targets"]
    ab = report["table"]["attributionbench"]
    paraphrases = _ratio(t["hand_written"]["paraphrase"])
    rgb_test, rgb_all = t["rgb_positive_wrong_test"], t["rgb_positive_wrong_all"]
    return [
        "",
        "## Targets (issue 6)",
        "",
        f"- AttributionBench held-out macro-F1 >= 0.75: **{ab['combined']['f1']:.3f}** "
        f"({_met(ab['combined']['f1'] >= 0.75)}); overlap baseline "
        f"{ab['baseline: overlap']['f1']:.3f}, margin "
        f"{100 * (ab['combined']['f1'] - ab['baseline: overlap']['f1']):+.1f} points "
        f"({_met(ab['combined']['f1'] - ab['baseline: overlap']['f1'] >= 0.05)} for >= 5).",
        f"- The test split holds {report['counts']['attributionbench']} AttributionBench pairs,"
        " so its macro-F1 moves by a few points on noise. Cross-validated instead (5 group"
        " folds over train + validation,"
        f" {report['cv_counts']['AttributionBench']:,} AttributionBench and"
        f" {report['cv_counts']['real-world pooled']:,} real-world pairs; each variant in its"
        " chosen form, unstacked; ROC-AUC / best-threshold macro-F1, which flatters every"
        " method alike): "
        + "; ".join(
            f"{label} "
            + ", ".join(f"{g} {v['auc']:.3f} / {v['best_f1']:.3f}" for g, v in per_group.items())
            for label, per_group in report["cross_validation"].items()
        )
        + ".",
        f"- RGB `positive_wrong` rejected >= 90% (shipped verdicts): test split "
        f"**{rgb_test['rejected']:.0%}** of {rgb_test['n']} ({_met(rgb_test['rejected'] >= 0.9)}),"
        f" all 100 items {rgb_all['rejected']:.0%} of {rgb_all['n']} (of which "
        f"{rgb_all['contradicted']:.0%} CONTRADICTED); RGB `positive` accepted on test "
        f"{t['rgb_positive_test_accepted']:.0%}.",
        "- With the shipped verdicts (one pooled threshold, hard-check overrides) instead of a"
        " per-data-set threshold, held-out macro-F1 is "
        + ", ".join(
            f"{k.removeprefix('shipped_f1_')} {v:.3f}"
            for k, v in t.items()
            if k.startswith("shipped_f1_")
        )
        + " (static variant: "
        + ", ".join(
            f"{k.removeprefix('shipped_static_f1_')} {v:.3f}"
            for k, v in t.items()
            if k.startswith("shipped_static_f1_")
        )
        + ").",
        "- Hand-written pairs (`tests/data/support_pairs.jsonl`), right verdict per kind: "
        + ", ".join(f"{k} {v}" for k, v in t["hand_written"].items())
        + f" (paraphrases accepted >= 90%: {_met(paraphrases >= 0.9)}).",
        "",
    ]


def _cost(report: dict[str, Any]) -> list[str]:
    t = report["targets"]
    return [
        "## Cost",
        "",
        f"- Throughput on this 2-core machine, 1,000 real-world pairs, fresh caches: "
        f"{t['claims_per_s_with embedder']:.0f} claims/s with MiniLM (layers 1-4), "
        f"{t['claims_per_s_static embedder']:.0f} claims/s with the static embedder as layer 3, "
        f"{t['claims_per_s_without embedder']:.0f} claims/s without layer 3.",
        f"- Signal extraction for all pairs: {report['signal_seconds'] / 60:.1f} min with MiniLM,"
        f" {report['static_signal_seconds']:.0f} s with the static embedder; fitting:"
        f" {sum(report['fit_seconds'].values()):.0f} s (all layer models, both kinds); data loading"
        f" to held-out table {report['total_seconds'] / 60:.1f} min (the machine was shared).",
        "- MiniLM dominates: it embeds roughly 150-370 short texts/s on these 2 cores, and each"
        " fresh claim needs its own vector plus up to 2 sentence vectors, so with MiniLM the"
        " 500 claims/s target is not met on fresh text (inside `ask` too: the reranker's"
        " vectors carry section headings, so the gate embeds its own; about 100 claims/s,"
        " `bench/ingest_ask.py`). The static variant meets it: choose it with"
        ' `gate.support_semantic = "static"` where many fresh claims are checked.',
        "",
    ]


def _form(report: dict[str, Any], label: str) -> str:
    weight = report.get("overlap_stack_weights", {}).get(label, 0.0)
    form = str(report["kinds"][label])
    return form + (f" + {weight:g} x overlap" if weight else "")


def _fmt_thresholds(t: dict[str, float]) -> str:
    return f"supported >= {t['supported']:.3f}, partial >= {t['partial']:.3f}"


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _ratio(text: str) -> float:
    a, b = text.split("/")
    return int(a) / int(b)
