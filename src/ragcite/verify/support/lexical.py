"""Layer 2: how much of the claim's wording the evidence covers, aligned by sentence.

`lex_overlap` — the share of the claim's content words found anywhere in the evidence —
is the plain baseline; the other signals align the claim with its best single sentence
and its best set of up to three sentences (chunks judged jointly), and count bigrams.

    >>> result = lexical_support("Stores close at 9 pm on Sundays.",
    ...                          ["Opening hours. On Sundays our stores close at 9 pm."])
    >>> result.signals["lex_best_sentence"]
    1.0
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from ragcite.text.stems import stem
from ragcite.verify.support.text import content_words, split_sentences

SIGNAL_NAMES = (
    "lex_overlap",
    "lex_best_sentence",
    "lex_best_window",
    "lex_bigram",
    "lex_claim_words",
)
WINDOW = 3


@dataclass(frozen=True)
class LexicalResult:
    """Signals, and the evidence sentences ranked by how much of the claim each covers."""

    signals: dict[str, float]
    ranked_sentences: tuple[str, ...]
    aligned: str  # the best window's sentences, in evidence order


@lru_cache(maxsize=4096)
def _analysed(chunk: str) -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple((s, frozenset(content_words(s))) for s in split_sentences(chunk))


def _bigrams(tokens: list[str]) -> set[tuple[str, str]]:
    return set(itertools.pairwise(tokens))


@lru_cache(maxsize=4096)
def _chunk_bigrams(chunk: str) -> frozenset[tuple[str, str]]:
    return frozenset(_bigrams(content_words(chunk)))


def clear_caches() -> None:
    """Forget the cached per-chunk analyses (and stems): benchmarks measure fresh text."""
    for cached in (_analysed, _chunk_bigrams, stem):
        cached.cache_clear()


def lexical_support(claim: str, evidence: list[str]) -> LexicalResult:
    """Coverage of `claim` by `evidence` (one or more chunk texts, judged jointly)."""
    claim_tokens = content_words(claim)
    claim_set = set(claim_tokens)
    sentences = [item for chunk in evidence for item in _analysed(chunk)]
    signals = dict.fromkeys(SIGNAL_NAMES, 0.0)
    signals["lex_claim_words"] = min(len(claim_set), 40) / 40
    if not claim_set or not sentences:
        return LexicalResult(signals, tuple(s for s, _ in sentences[:WINDOW]), "")

    size = len(claim_set)
    evidence_words: set[str] = set().union(*(words for _, words in sentences))
    signals["lex_overlap"] = len(claim_set & evidence_words) / size

    hits = [len(claim_set & words) for _, words in sentences]
    order = sorted(range(len(sentences)), key=lambda i: -hits[i])
    signals["lex_best_sentence"] = hits[order[0]] / size

    # Greedy cover: the sentence adding the most uncovered claim words, up to WINDOW.
    chosen: list[int] = []
    covered: set[str] = set()
    for _ in range(WINDOW):
        gains = [(len((claim_set - covered) & w), -i) for i, (_, w) in enumerate(sentences)]
        gain, neg_index = max(gains)
        if gain == 0:
            break
        chosen.append(-neg_index)
        covered |= sentences[-neg_index][1]
    signals["lex_best_window"] = len(claim_set & covered) / size

    claim_bigrams = _bigrams(claim_tokens)
    if claim_bigrams:
        evidence_bigrams: set[tuple[str, str]] = set().union(*map(_chunk_bigrams, evidence))
        signals["lex_bigram"] = len(claim_bigrams & evidence_bigrams) / len(claim_bigrams)

    aligned = " ".join(sentences[i][0] for i in sorted(chosen)) or sentences[order[0]][0]
    ranked = tuple(sentences[i][0] for i in order[:WINDOW])
    return LexicalResult(signals, ranked, aligned)
