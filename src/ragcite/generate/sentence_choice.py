"""Which sentence answers the question: a small learned scorer over cheap signals.

The sentence most similar to the question often only restates it ("Uploads are limited to
50 MB"); the answer is often its neighbour ("Larger uploads are rejected with status 413").
Each candidate sentence gets signals that tell the two apart — its similarity and word
coverage (raw and relative to the best in the window), whether it holds the kind of answer
the question asks for (`focus`), how strongly its previous sentence matches the question,
whether it brings words the question lacks — and a logistic model trained by
`ragcite train sentences` on SQuAD 2.0 answer spans and HaluEval right answers (held out by
paragraph) turns them into the probability that it holds the answer. NumPy only at run time.

    >>> choice_scores("How long are invoices kept?", window)        # doctest: +SKIP
    array([0.08, 0.91, 0.12])
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from ragcite.generate.focus import focus_match, question_focus, question_proper
from ragcite.learn.model import LearnedModel, load_models, require_features
from ragcite.text.contacts import CONTACT_WORDS, gives_contact, wanted_contact
from ragcite.text.labels import label_of
from ragcite.text.ordinals import ORDINALS
from ragcite.text.table_rows import CELL_SEPARATOR, LABEL_SEPARATOR, is_table_row, row_cells
from ragcite.text.words import QUESTION_STOPWORDS, content_stems, content_words, words

FEATURES = (
    "sem",
    "sem_gap",
    "coverage",
    "coverage_gap",
    "focus",
    "prev_coverage",
    "prev_sem_gap",
    "next_sem_gap",
    "chunk_gap",
    "chunk_rank",
    "is_row",
    "length",
    "novelty",
    "complement",
    "adjacent_best",
    "after_best",
    "new_names",
    "anaphor",
)
RETRAIN = "ragcite train sentences"
MODEL_NAME = "sentence_choice"

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class WindowSentence:
    """One sentence of the window: its text (with heading words for coverage), its cosine to
    the question, its chunk's position in the window, and its index within that chunk."""

    text: str
    heading: str
    similarity: float
    chunk_rank: int
    position: int


def stems(text: str) -> set[str]:
    """The content words of `text`, cut to six letters ("retention", "retained" -> "retain")."""
    return {w[:6] for w in content_words(text, QUESTION_STOPWORDS)}


def focused_row(row: str, question: str) -> str:
    """A table row cut to its label and the cells whose header the question names, for
    comparing with the question ("Team — Users: 25" for "How many users does Team get?").

    >>> focused_row("Team — Storage: 100 GB; Users: 25", "How many users does Team allow?")
    'Team — Users: 25'
    """
    label, cells = row_cells(row)
    query = stems(question)
    named = [c for c in cells if query & stems(c.partition(":")[0])]
    return label + LABEL_SEPARATOR + CELL_SEPARATOR.join(named) if named else row


# A name or a number: what a who / which / what question usually wants and lacks.
_NAME = re.compile(r"\b(?:[A-Z][\w'’-]+|\d[\d,.]*)")
# A sentence that opens by pointing back ("He", "Their eighth album", "The village").
_POINTS_BACK = re.compile(
    r"^\W*(?:he|she|it|this|that|these|those|they|such|his|her|its|their|there|the\s+\w+)\b",
    re.IGNORECASE,
)


def _names(text: str) -> set[str]:
    return {m.group().lower() for m in _NAME.finditer(text)}


_AMOUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")
_BELOW = re.compile(r"^\W*(?:up\s+to|under|less\s+than|below|at\s+most)\b", re.IGNORECASE)
_ABOVE = re.compile(r"^\W*(?:over|above|more\s+than|from|at\s+least)\b", re.IGNORECASE)


# "over $5,000" in a question asks about every amount above it, not about 5,000 itself.
_OVER = re.compile(
    r"\b(?:over|above|more\s+than|exceeding|beyond)\s+\D{0,3}?(\d[\d,]*(?:\.\d+)?)", re.IGNORECASE
)


def _amounts(text: str) -> list[float]:
    return [float(m.group().replace(",", "")) for m in _AMOUNT.finditer(text)]


# Units of time, in minutes: "3 hours" asked is no "Up to 30 minutes".
_TIME_UNITS = {
    **dict.fromkeys(("minute", "minutes", "min", "mins"), 1.0),
    **dict.fromkeys(("hour", "hours", "hr", "hrs"), 60.0),
    **dict.fromkeys(("day", "days"), 1440.0),
    **dict.fromkeys(("week", "weeks"), 10080.0),
    **dict.fromkeys(("month", "months"), 43800.0),
    **dict.fromkeys(("year", "years"), 525600.0),
}
_TIMED_AMOUNT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*([a-z]+)?", re.IGNORECASE)


def _timed(text: str) -> list[tuple[float, float | None]]:
    """Each number of `text` with its unit of time in minutes, when one follows it."""
    return [
        (float(m.group(1).replace(",", "")), _TIME_UNITS.get((m.group(2) or "").lower()))
        for m in _TIMED_AMOUNT.finditer(text)
    ]


def _asked_in(question: str, label: str) -> list[float]:
    """The question's numbers in the unit of time of the label's first number ("3 hours"
    as 180 against "Up to 30 minutes"), or as written when either has no unit of time."""
    bound = _timed(label)
    unit = bound[0][1] if bound else None
    return [v * u / unit if u and unit else v for v, u in _timed(question)]


def band_bound(row: str) -> float | None:
    """How wide a table row's open-ended band is, smaller being tighter: the bound of "Up
    to 4 hours" (240, in minutes), the negated bound of "Over 65" (-65); None for another
    label. Of the rows whose band holds the question's number, the tightest answers."""
    label = row.partition(LABEL_SEPARATOR)[0]
    timed = _timed(label)
    if len(timed) != 1:
        return None
    value, unit = timed[0]
    value *= unit or 1.0
    if _BELOW.match(label):
        return value
    if _ABOVE.match(label):
        return -value
    return None


def _over_fit(label: str, over: list[float], bounds: list[float]) -> int:
    """1 when every amount over N is in the label's open range ("Over $50,000" holds all of
    "over $60,000"); a bounded range ("$1,001 to $10,000") never holds all of "over $5,000"."""
    return int(bool(_ABOVE.match(label)) and len(bounds) == 1 and any(n >= bounds[0] for n in over))


def _nearly_named(label: str, question: str) -> bool:
    """Whether the question says all but one of the label's three or more content words
    ("a routine check-up for an adult" of "Routine examination (adult)")."""
    own = content_stems(label)
    return len(own) >= 3 and len(own - content_stems(question)) <= 1


def row_fit(row: str, question: str) -> int:
    """How well a table row's label fits the question: 2 when the question says the label
    ("purchases over $50,000"), 1 when a number in the question falls in the label's range
    ("$25,000" in "$10,001 to $50,000", "3 hours" in "Up to 4 hours", units of time read),
    is the label's one number ("rated a 4" in "4 – Exceeds"), or every amount over the
    question's ("over $60,000" in "Over $50,000"), or the question names all but one of the
    label's three or more words (`_nearly_named`), else 0.

    >>> row_fit("$10,001 to $50,000 — Approver: Finance Director", "Who approves $25,000?")
    1
    """
    label = " ".join(row.partition(LABEL_SEPARATOR)[0].lower().split())
    if label and label in " ".join(question.lower().split()):
        return 2
    asked, bounds = _asked_in(question, label), _amounts(label)
    if not asked or not bounds:
        return int(_nearly_named(label, question))
    over = [float(m.group(1).replace(",", "")) for m in _OVER.finditer(question)]
    if over:
        return _over_fit(label, over, bounds)
    if _BELOW.match(label):
        return int(any(n <= bounds[0] for n in asked))
    if _ABOVE.match(label):
        return int(any(n > bounds[0] for n in asked))
    if len(bounds) == 2:
        return int(any(bounds[0] <= n <= bounds[1] for n in asked))
    return int(len(bounds) == 1 and bounds[0] in asked)  # "rated a 4": the row "4 – Exceeds"


# A range a sentence states: "aged 21 to 24", "21–24", "between 5 and 10", "grade 7 and
# above", "65 or over", "over-65s", "65+", "under-18s".
_NUM = r"(\d[\d,]*(?:\.\d+)?)"
_SENTENCE_RANGES = (
    (re.compile(rf"{_NUM}\s*(?:to|-|–|—)\s*{_NUM}"), "between"),
    (re.compile(rf"\bbetween\s+\D{{0,3}}{_NUM}\s+and\s+\D{{0,3}}{_NUM}", re.IGNORECASE), "between"),
    (
        re.compile(rf"{_NUM}\s+(?:and|or)\s+(?:above|over|more|older|higher)\b", re.IGNORECASE),
        "from",
    ),
    (
        re.compile(rf"{_NUM}\s+(?:and|or)\s+(?:below|under|less|younger|lower)\b", re.IGNORECASE),
        "upto",
    ),
    (re.compile(r"\b(?:over|above)[-\s](\d[\d,]*)s?\b", re.IGNORECASE), "from"),  # "over-65s"
    (re.compile(r"(?<![£$€\d.,])(\d[\d,]*)\+(?!\d)"), "from"),  # "65+", not "£5 + VAT"
    (re.compile(r"\b(?:under|below)[-\s](\d[\d,]*)s?\b", re.IGNORECASE), "upto"),  # "under-18s"
)


def range_fit(sentence: str, question: str) -> int:
    """1 when a number the question names falls in a range the sentence states ("I'm 23" in
    "Drivers aged 21 to 24 pay …", "grade 8" in "grade 7 and above"), else 0.

    >>> range_fit("Drivers aged 21 to 24 pay a surcharge.", "I'm 23 - do I pay extra?")
    1
    """
    asked = _amounts(question)
    if not asked:
        return 0
    for pattern, kind in _SENTENCE_RANGES:
        for m in pattern.finditer(sentence):
            low, high = (float(g.replace(",", "")) for g in (m.group(1), m.group(m.lastindex or 1)))
            if kind == "from":
                high = float("inf")
            elif kind == "upto":
                low, high = float("-inf"), low
            if low < high and any(low <= n <= high for n in asked):
                return 1
    return 0


def label_fit(sentence: str, question: str) -> int:
    """2, as for a table row whose label the question says, when the label opening a line
    holds one number and the question names it, in digits or as an ordinal ("the second lot
    of rent" for "Instalment 2: 35% of the total, due 10 January 2025"; "sev 2" for
    "Severity 2: …"), else 0.

    >>> label_fit("Instalment 2: 35% of the total, due 10 January 2025", "When is the second one?")
    2
    """
    numbers = _amounts(label_of(sentence))
    if len(numbers) != 1:
        return 0
    asked = set(_amounts(question)) | {ORDINALS[w] for w in words(question) if w in ORDINALS}
    return 2 if numbers[0] in asked else 0


def contact_fit(sentence: str, question: str, around: str = "") -> int:
    """1 when the question asks for a phone number, email or web address (`wanted_contact`)
    and `sentence` gives one and is about what is asked: the sentence or `around` (its
    heading, its line's label) shares a word of the question beyond the contact's
    ("report" in "To report a breakdown, call our Claims Line on 0800 046 7721" for "What
    number do I ring to report my dishwasher has broken down?"), else 0.

    >>> contact_fit("To report it, call 0800 046 7721.", "What number do I ring to report it?")
    1
    """
    kind, topic = _contact_asked(question)
    if kind is None or not gives_contact(kind, sentence):
        return 0
    return 1 if topic & content_stems(f"{around} {sentence}") else 0


@lru_cache(maxsize=64)
def _contact_asked(question: str) -> tuple[str | None, frozenset[str]]:
    """The contact `question` wants and its words beyond the contact's, read once per
    question rather than once per candidate sentence."""
    kind = wanted_contact(question_proper(question))
    return kind, frozenset(content_stems(question) - CONTACT_WORDS) if kind else frozenset()


def choice_features(
    question: str, window: Sequence[WindowSentence], own: Sequence[set[str]] | None = None
) -> Matrix:
    """One row of `FEATURES` per sentence of `window` (sentences of one chunk in order);
    `own`: each sentence's `stems`, when the caller has them already."""
    if not window:
        return np.zeros((0, len(FEATURES)))
    query = stems(question)
    focus = question_focus(question)
    sems = np.array([s.similarity for s in window], dtype=np.float64)
    own = list(own) if own is not None else [stems(s.text) for s in window]
    heading_words = {h: stems(h) for h in {s.heading for s in window}}
    cover = np.array(
        [
            len(query & (w | heading_words[s.heading])) / len(query) if query else 0.0
            for w, s in zip(own, window, strict=True)
        ],
        dtype=np.float64,
    )
    chunk_best: dict[int, float] = {}
    for s in window:
        chunk_best[s.chunk_rank] = max(chunk_best.get(s.chunk_rank, -1.0), s.similarity)
    best_sem, best_cover = float(sems.max()), float(cover.max())
    best_chunk = max(chunk_best.values())
    index = {(s.chunk_rank, s.position): i for i, s in enumerate(window)}
    rows = []
    for i, s in enumerate(window):
        prev = index.get((s.chunk_rank, s.position - 1))
        nxt = index.get((s.chunk_rank, s.position + 1))
        rows.append(
            [
                sems[i],
                sems[i] - best_sem,
                cover[i],
                cover[i] - best_cover,
                focus_match(focus, s.text),
                cover[prev] if prev is not None else 0.0,
                sems[prev] - sems[i] if prev is not None else 0.0,
                sems[nxt] - sems[i] if nxt is not None else 0.0,
                chunk_best[s.chunk_rank] - best_chunk,
                float(s.chunk_rank),
                1.0 if is_table_row(s.text) else 0.0,
                math.log1p(len(own[i])),
                len(own[i] - query) / len(own[i]) if own[i] else 0.0,
            ]
        )
    features = np.array(rows, dtype=np.float64)
    return np.hstack([features, _bridge_features(question, window, sems, own)])


def _bridge_features(
    question: str, window: Sequence[WindowSentence], sems: Matrix, own: list[set[str]]
) -> Matrix:
    """The signals of an answer one step away from the sentence most like the question
    ("… released by 10 Years in 2006." then "Their eighth album, … As Ghosts, …"): the share
    of the question's words it covers that its chunk's most similar sentence lacks, whether
    it is next to (or right after) that sentence, the names and numbers it brings that the
    question lacks, and whether it opens by pointing back."""
    query, asked = stems(question), _names(question)
    best: dict[int, int] = {}
    for i, s in enumerate(window):
        j = best.get(s.chunk_rank)
        if j is None or sems[i] > sems[j]:
            best[s.chunk_rank] = i
    rows = []
    for i, s in enumerate(window):
        b = best[s.chunk_rank]
        step = s.position - window[b].position
        rows.append(
            [
                len((query & own[i]) - own[b]) / len(query) if query and b != i else 0.0,
                1.0 if abs(step) == 1 else 0.0,
                1.0 if step == 1 else 0.0,
                math.log1p(len(_names(s.text) - asked)),
                1.0 if _POINTS_BACK.match(s.text) else 0.0,
            ]
        )
    return np.array(rows, dtype=np.float64)


@lru_cache(maxsize=1)
def shipped_model() -> LearnedModel:
    """The packaged sentence-choice model (checked against this version's features)."""
    source = resources.files("ragcite.generate").joinpath("assets/sentence_choice.json")
    model = load_models(source, what="sentence-choice model", retrain=RETRAIN)[MODEL_NAME]
    require_features(model, FEATURES, what="sentence-choice model", retrain=RETRAIN)
    return model


def choice_scores(
    question: str,
    window: Sequence[WindowSentence],
    model: LearnedModel | None = None,
    *,
    own: Sequence[set[str]] | None = None,
) -> Matrix:
    """Per sentence, the probability that it holds the answer to `question` (`own`: each
    sentence's `stems`, when the caller has them already)."""
    if not window:
        return np.zeros(0)
    return (model or shipped_model()).predict(choice_features(question, window, own))
