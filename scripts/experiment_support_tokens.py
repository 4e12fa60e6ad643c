"""Experiment: token-alignment (BERTScore-style) signals for the support checker.

    python scripts/experiment_support_tokens.py       # token features cached in /tmp

For each pair, MiniLM's contextual token vectors of the claim are aligned with those of
its lexically best evidence sentences: each content token of the claim (stopwords,
punctuation and special tokens out) takes its best cosine in the evidence. Signals:
the mean (BERTScore recall), the minimum and lower quartile (the weakest-supported
word: a swapped name or number), and the share of tokens below 0.5 / 0.6. They join
the existing signals in the shipped recipe (same pairs, splits, weighting, Platt
scaling, per-data-set validation thresholds as `scripts/train_support.py`).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from experiment_support_pairs import GROUPS, combine, held_out
from train_support import FEATURES, SEED, extract, load_splits, source_weights

from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.text.words import STOPWORDS
from ragcite.verify.support.lexical import lexical_support

CACHE = Path("/tmp/ragcite-support-exp/tokens.npz")


@dataclass(frozen=True)
class TokenVectors:
    """One text's word pieces and their contextual vectors (one row per piece)."""

    tokens: tuple[str, ...]
    vectors: np.ndarray


def embed_tokens(embedder: MiniLMEmbedder, texts: list[str]) -> list[TokenVectors]:
    """Each text's contextual token vectors (L2-normalised, [CLS]/[SEP] dropped): the
    forward pass `MiniLMEmbedder.embed` mean-pools, before pooling."""
    embedder.warm_up()
    out: list[TokenVectors] = []
    for start in range(0, len(texts), 64):
        encodings = embedder._tokenizer.encode_batch(texts[start : start + 64])
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = embedder._session.run(None, feeds)[0]
        for row, encoding in enumerate(encodings):
            keep = [j for j, special in enumerate(encoding.special_tokens_mask) if not special]
            keep = [j for j in keep if encoding.attention_mask[j]]
            vectors = hidden[row, keep]
            vectors /= np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
            out.append(TokenVectors(tuple(encoding.tokens[j] for j in keep), vectors))
    return out


TOKEN_SIGNALS = ("tok_recall", "tok_min", "tok_q25", "tok_below_50", "tok_below_70")
MAX_CHARS = 300  # each evidence sentence is aligned by its start only


def content_rows(tokens: tuple[str, ...]) -> list[int]:
    """Rows of the word pieces that carry content: no stopwords, no punctuation."""
    rows = []
    for i, token in enumerate(tokens):
        piece = token.removeprefix("##")
        if piece.isalnum() and (token.startswith("##") or piece.casefold() not in STOPWORDS):
            rows.append(i)
    return rows


def alignment_signals(claim: TokenVectors, evidence: list[TokenVectors]) -> dict[str, float]:
    """The claim's content pieces aligned with all the evidence pieces."""
    rows = content_rows(claim.tokens)
    pieces = [e.vectors for e in evidence if len(e.tokens)]
    if not rows or not pieces:
        return dict.fromkeys(TOKEN_SIGNALS, 0.0)
    best = (claim.vectors[rows] @ np.vstack(pieces).T).max(axis=1)
    return {
        "tok_recall": float(best.mean()),
        "tok_min": float(best.min()),
        "tok_q25": float(np.quantile(best, 0.25)),
        "tok_below_50": float((best < 0.5).mean()),
        "tok_below_70": float((best < 0.7).mean()),
    }


class TokenAligner:
    """Token alignment signals for many (claim, evidence sentences) at once, batched."""

    def __init__(self, embedder: MiniLMEmbedder) -> None:
        self.embedder = embedder

    def signals_many(
        self, claims: list[str], sentences: list[tuple[str, ...]]
    ) -> list[dict[str, float]]:
        texts = list(dict.fromkeys([*claims, *(s[:MAX_CHARS] for g in sentences for s in g)]))
        vectors = dict(zip(texts, embed_tokens(self.embedder, texts), strict=True))
        return [
            alignment_signals(vectors[claim], [vectors[s[:MAX_CHARS]] for s in group])
            for claim, group in zip(claims, sentences, strict=True)
        ]


def token_features(pairs: list[Any], sentences: int) -> np.ndarray:
    if CACHE.exists():
        loaded = np.load(CACHE)
        if int(loaded["n"]) == len(pairs) and int(loaded["sentences"]) == sentences:
            return np.asarray(loaded["x"])
    aligner = TokenAligner(MiniLMEmbedder())
    ranked = [lexical_support(p.claim, p.evidence).ranked_sentences for p in pairs]
    rows: list[dict[str, float]] = []
    start = time.perf_counter()
    batch = 512
    for i in range(0, len(pairs), batch):
        rows += aligner.signals_many(
            [p.claim for p in pairs[i : i + batch]],
            [r[:sentences] for r in ranked[i : i + batch]],
        )
        if i % (batch * 5) == 0:
            print(f"  tokens {i}/{len(pairs)} {time.perf_counter() - start:.0f}s", flush=True)
    x = np.array([[r[f] for f in TOKEN_SIGNALS] for r in rows])
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    np.savez(CACHE, x=x, n=np.array(len(pairs)), sentences=np.array(sentences))
    return x


def main() -> None:
    np.random.seed(SEED)
    data_set = load_splits()
    pairs, y, sources = data_set.pairs, data_set.y, data_set.sources
    tr, va, te = data_set.tr, data_set.va, data_set.te
    data = extract(pairs, MiniLMEmbedder(), Path("/tmp/ragcite_support_features.npz"))
    x_base = data["x"]
    assert x_base.shape[1] == len(FEATURES["semantic"])
    x_tok = token_features(pairs, sentences=int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    w = source_weights(sources[tr])
    results: dict[str, Any] = {}
    variants = {
        "before": x_base,
        "tokens alone": x_tok,
        "combined + tokens": np.hstack([x_base, x_tok]),
    }
    for name, x in variants.items():
        p, kind, auc = combine(x, data_set, w)
        results[name] = {"combiner": kind, "val_auc": auc, **held_out(p, y, va, te, sources)}
        print(f"{name:20s} {kind} val real AUC {auc:.3f}", flush=True)
    Path("/tmp/ragcite-support-exp/tokens-results.json").write_text(
        json.dumps(results, indent=1, default=float)
    )
    print("variant | val AUC | " + " | ".join(GROUPS))
    for name, r in results.items():
        cells = [f"{r[g]['acc']:.3f}/{r[g]['f1']:.3f}/{r[g]['auc']:.3f}" for g in GROUPS]
        print(f"{name} ({r['combiner']}) | {r['val_auc']:.3f} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
