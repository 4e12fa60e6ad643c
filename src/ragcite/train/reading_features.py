"""Reading features, measured as inputs of the answerability model and not kept
(`bench/answerability_features.py`; docs/models/answerability.md says what each bought).

They read the quoted sentence and its neighbours (`ragcite.verify.reading.quote_window`):

* alignment: each question content word is aligned to the window exactly (same stem, or
  a shared prefix) or softly (MiniLM word cosine); words are weighted by their salience
  (how far removing the word moves the question's embedding), and the features are the
  weighted share left unaligned, the strongest unaligned word, and the weakest alignment;
* spread: the question's words are in the passage, but no one sentence holds them (the
  question joins facts the passage keeps apart);
* names elsewhere: a question name or number the passage holds in another sentence;
* antonyms: the window holds the opposite of a question word and not the word itself;
* a swapped modifier: the window holds "fixed set" where the question asks about a
  "flexible set" (a dissimilar word before the same head word);
* the answer would repeat the question: every date, amount, name… the quoted sentence
  offers for the expected answer type is already in the question;
* the residual: the question with the sentence's words removed, against the sentence.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import numpy as np

from ragcite.embed.base import Embedder
from ragcite.text.stems import stem
from ragcite.text.words import QUESTION_STOPWORDS, STOPWORDS, content_words, words
from ragcite.verify.answer_types import expected_type, type_spans
from ragcite.verify.opposites import opposite_pair
from ragcite.verify.reading import Quote, Window, quote_window

READING_FEATURES: tuple[str, ...] = (
    "read_unaligned",
    "read_unaligned_soft",
    "read_unaligned_max",
    "read_weakest",
    "read_sentence_unaligned",
    "read_spread",
    "read_names_elsewhere",
    "read_opposite",
    "read_swapped_modifier",
    "read_repeats_question",
    "read_residual_cosine",
    "read_residual_drop",
)


# A window word this similar to a question word (MiniLM word cosine) aligns it softly.
SOFT_ALIGNMENT = 0.6
_MIN_PREFIX = 5


def _stems(text: str) -> set[str]:
    return {stem(w) for w in words(text)}


def _aligned(word: str, stems: set[str], plain: set[str]) -> bool:
    """Exactly aligned: the same stem, or a shared prefix of 5+ letters (both 5+ long)."""
    if stem(word) in stems:
        return True
    if len(word) < _MIN_PREFIX:
        return False
    head = word[:_MIN_PREFIX]
    return any(len(p) >= _MIN_PREFIX and p.startswith(head) for p in plain)


def _question_terms(question: str) -> list[str]:
    """The question's content words, first form of each stem kept."""
    seen: dict[str, str] = {}
    for w in content_words(question, QUESTION_STOPWORDS):
        seen.setdefault(stem(w), w)
    return list(seen.values())


def _salience(question: str, terms: list[str], embedder: Embedder) -> np.ndarray:
    """How far removing each term moves the question's embedding (1 - cosine), ≥ 0.001."""
    without = [re.sub(rf"\b{re.escape(t)}\b", " ", question, flags=re.I) for t in terms]
    vectors = embedder.embed([question, *without])
    return np.asarray(np.maximum(1.0 - vectors[1:] @ vectors[0], 1e-3), dtype=np.float64)


def _soft_alignment(terms: list[str], window: set[str], embedder: Embedder) -> np.ndarray:
    """Each term's best MiniLM word cosine with a window word (0 with no window words)."""
    pool = sorted(w for w in window if w not in STOPWORDS and len(w) > 1)
    if not pool:
        return np.zeros(len(terms))
    vectors = embedder.embed([*terms, *pool])
    return np.asarray(np.max(vectors[len(terms) :] @ vectors[: len(terms)].T, axis=0))


def _unaligned_share(terms: list[str], weights: np.ndarray, text: str) -> float:
    plain = set(words(text))
    stems = {stem(w) for w in plain}
    missing = [not _aligned(t, stems, plain) for t in terms]
    return float(weights[np.array(missing, dtype=bool)].sum())


def _spread(terms: list[str], weights: np.ndarray, sentences: list[str]) -> float:
    """Weighted share of terms the passage holds beyond what its best sentence holds."""
    passage = _unaligned_share(terms, weights, " ".join(sentences))
    best = min((_unaligned_share(terms, weights, s) for s in sentences), default=1.0)
    return best - passage


def _names(question: str) -> set[str]:
    """Case-folded names and numbers of the question: capitalised words past the first,
    and numbers."""
    tokens = re.findall(r"[^\W_][\w'’-]*", question)
    return {
        t.casefold() for i, t in enumerate(tokens) if (i > 0 and t[0].isupper()) or t[0].isdigit()
    } - QUESTION_STOPWORDS


def _names_elsewhere(question: str, windows: Sequence[Window]) -> float:
    """Question names the quoted passages hold, but only outside the quoted windows."""
    names = _names(question)
    near = set().union(*(set(words(" ".join(w.window))) for w in windows))
    far = set().union(*(set(words(" ".join(w.sentences))) for w in windows))
    return float(sum(1 for n in names if set(words(n)) <= far and not set(words(n)) <= near))


def _swapped_modifiers(question: str, window_text: str, embedder: Embedder) -> float:
    """How many of the question's word pairs ("flexible set", "modern Europe") the window
    holds only with another, dissimilar word before the second ("fixed set", "medieval
    Europe"): a changed modifier (MiniLM word cosine of the two modifiers below
    SOFT_ALIGNMENT; "largest"/"biggest" is a paraphrase, not a change)."""
    said = words(window_text)
    pairs_said = set(itertools.pairwise(said))
    before: dict[str, set[str]] = {}
    for a, b in itertools.pairwise(said):
        if a not in QUESTION_STOPWORDS:
            before.setdefault(stem(b), set()).add(a)
    asked = words(question)
    swaps: list[tuple[str, list[str]]] = []
    for a, b in itertools.pairwise(asked):
        if a in QUESTION_STOPWORDS or b in QUESTION_STOPWORDS or (a, b) in pairs_said:
            continue
        others = sorted(z for z in before.get(stem(b), set()) if stem(z) != stem(a))
        if others:
            swaps.append((a, others))
    if not swaps:
        return 0.0
    vocab = sorted({a for a, _ in swaps} | {z for _, zs in swaps for z in zs})
    vectors = dict(zip(vocab, embedder.embed(vocab), strict=True))
    return float(
        sum(max(float(vectors[a] @ vectors[z]) for z in zs) < SOFT_ALIGNMENT for a, zs in swaps)
    )


def _repeats_question(question: str, quoted: list[str]) -> float:
    """1 when the quoted sentences offer an answer of the expected type only in pieces the
    question already names ("When did X happen in 1066?" over a sentence whose one date
    is 1066); 0 otherwise, and for yes/no and other questions."""
    kind = expected_type(question)
    spans = [s for q in quoted for s in type_spans(kind, q)]
    if not spans:
        return 0.0
    asked = set(words(question))
    return float(all(set(words(s)) <= asked for s in spans))


def _residual(question: str, sentence: str, embedder: Embedder) -> tuple[float, float]:
    """Cosine of the question with the sentence, and of the question with the sentence's
    words removed (what the sentence does not already say) with the sentence."""
    said = set(words(sentence))
    rest = " ".join(w for w in words(question) if w not in said) or "?"
    q, r, s = embedder.embed([question, rest, sentence])
    return float(q @ s), float(r @ s)


def reading_features(
    question: str, quotes: Sequence[Quote], embedder: Embedder
) -> dict[str, float]:
    """Every feature of READING_FEATURES for an answer quoting `quotes` (see the module doc)."""
    windows = [quote_window(q, c) for q, c in quotes]
    window_text = " ".join(s for w in windows for s in w.window)
    quoted = [s for w in windows for s in w.quoted]
    terms = _question_terms(question)
    out = {
        "read_names_elsewhere": _names_elsewhere(question, windows),
        "read_opposite": float(opposite_pair(question, window_text) is not None),
        "read_swapped_modifier": _swapped_modifiers(question, window_text, embedder),
        "read_repeats_question": _repeats_question(question, quoted),
    }
    full, rest = _residual(question, " ".join(quoted), embedder)
    out["read_residual_cosine"] = rest
    out["read_residual_drop"] = full - rest
    if not terms:
        out.update(
            read_unaligned=0.0, read_unaligned_soft=0.0, read_unaligned_max=0.0,
            read_weakest=1.0, read_sentence_unaligned=0.0, read_spread=0.0,
        )  # fmt: skip
        return out
    salience = _salience(question, terms, embedder)
    weights = salience / salience.sum()
    soft = _soft_alignment(terms, set(words(window_text)), embedder)
    plain = set(words(window_text))
    stems = {stem(w) for w in plain}
    exact = np.array([_aligned(t, stems, plain) for t in terms], dtype=bool)
    aligned = np.where(exact, 1.0, soft)
    loose = ~exact & (soft < SOFT_ALIGNMENT)
    out["read_unaligned"] = float(weights[~exact].sum())
    out["read_unaligned_soft"] = float(weights[loose].sum())
    out["read_unaligned_max"] = float(salience[loose].max()) if loose.any() else 0.0
    out["read_weakest"] = float(aligned.min())
    out["read_sentence_unaligned"] = _unaligned_share(terms, weights, " ".join(quoted))
    sentences = [s for w in windows for s in w.sentences]
    out["read_spread"] = _spread(terms, weights, sentences)
    return out
