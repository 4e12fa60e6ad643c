"""The offline default generator: answers with the source's own sentences.

Each selected sentence (or table row) becomes a claim that cites its chunk with the sentence
itself as the verbatim quote, so nothing is paraphrased and nothing can be invented.

Two scores per sentence, for two decisions:

* relevance — similarity to the question (in the context of its section heading), coverage
  of the question's words and the chunk's composite confidence. When no sentence clears
  `min_sentence_relevance` the question is unanswerable.
* choice — the probability that the sentence holds the answer (`sentence_choice`): it
  weighs what kind of answer the question asks for and the sentence's neighbours, so the
  sentence that answers wins over the one that only resembles the question.

Each part of a compound question gets its best sentence; a part that no sentence is
relevant to is reported as missing ("The documents do not say how much meals are
reimbursed."), never answered with a sentence about something else.

    >>> draft = ExtractiveGenerator(embedder).generate("How long is parental leave?", chunks)
    >>> draft.claims[0].citations[0].quote
    'Primary caregivers receive 16 weeks of fully paid parental leave.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ragcite.config import GenerateSettings
from ragcite.embed.base import Embedder
from ragcite.generate.bridge import PRONOUNS, carried_on, points_back
from ragcite.generate.focus import question_focus, states_focus
from ragcite.generate.missing_parts import not_in_documents
from ragcite.generate.sentence_choice import (
    WindowSentence,
    choice_scores,
    focused_row,
    row_fit,
    stems,
)
from ragcite.models import DraftAnswer, DraftCitation, DraftClaim, SourceChunk
from ragcite.rerank.question_parts import question_parts
from ragcite.rerank.sentence_similarity import sentence_in_context
from ragcite.text.instructions import instruction_spans
from ragcite.text.sentences import split_sentences
from ragcite.text.table_rows import is_table_row
from ragcite.text.words import words

# A question asks, it does not state: an FAQ's "Can I change my order after it has shipped?"
# is never a claim (a sentence that only ends on a title, "… a spinoff of "Who Wants to Be a
# Millionaire?", is not a question).
_QUESTION = re.compile(
    r"\W*(?:Q\s*[:.]\s*|Question\s*:\s*)?(?:how|what|when|where|why|who|whom|whose|which|"
    r"can|could|do|does|did|is|are|was|were|will|would|should|shall|may|might|must|have|has|"
    r"had)\b.*\?\W*$",
    re.IGNORECASE | re.DOTALL,
)
# A sentence with a final stop is a statement from this many words: policies state short
# rules ("Alcohol is never reimbursed.", "Returns are free."); "Yes." and "See below." are not.
_MIN_WORDS = 3
# A line without a final stop is a heading or a label unless it is this long.
_MIN_UNPUNCTUATED_WORDS = 10
# Near-duplicate sentences (the same rule restated in an overlapping chunk) are cited once.
_DUPLICATE_SIMILARITY = 0.92
# A further sentence joins the answer only when it is about as likely to hold it as the best.
# A sentence is ranked by its relevance plus this share of its choice probability: the
# model breaks near-ties (the consequence after the rule it follows), relevance keeps the
# sentence that plainly states the answer (measured on the demo questions, held out).
_CHOICE_WEIGHT = 0.25
# A table row whose label the question names or whose range holds the question's number
# ("Who approves a $25,000 purchase?" and the row "$10,001 to $50,000") ranks this higher.
_ROW_FIT = 0.1
# A question that names several rows' labels of one table ("the response time for Standard,
# Priority and Critical") is answered from each of them.
_LABEL_NAMED = 2
# More is not better: on the demo questions, citing every sentence within 0.15 of the best
# (or its next sentence at half the best's probability) added claims that did not answer.
_EXTRA_CHOICE = 0.6
_EXTRA_MARGIN = 0.05
# The answer is often one step from the sentence most like the question ("… released by 10
# Years in 2006." then "Their eighth studio album, … As Ghosts, …"): a neighbour of the best
# sentence joins it when it ranks within this margin and is this likely to hold the answer,
# or when it covers at least this many of the question's words the best one lacks. Chosen
# on held-out SQuAD and HaluEval questions against the demo set's claims correct
# (bench/answer_choice.py): wider margins answered more and cited more that did not answer.
_NEIGHBOUR_MARGIN = 0.1
_NEIGHBOUR_CHOICE = 0.4
_NEIGHBOUR_NEW_WORDS = 2
# A neighbour also joins when the question asks for one of these kinds of answer ("How long is
# the journey?"), the best sentence has none and the neighbour has one ("It takes 40 minutes").
# Permission and yes/no signs (modals, "not", "only") are in most policy sentences: left out.
_TYPED_FOCI = frozenset(("duration", "amount", "date", "consequence", "role", "place", "reason"))
# A sentence that opens on these words leans on the one before it: both are quoted. Case
# matters: "IT enables encryption" names a department, "It is encrypted" points back.
_ANAPHOR = re.compile(
    r"^\W*(?:(?:[Ii]t|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Tt]hey|[Ss]uch|[Ii]ts|[Tt]heir|"
    r"[Tt]here|[Hh]e|[Ss]he|[Hh]is|[Hh]er)\b|[Tt]he\s+(?:latter|former)\b)"
)
# The sentence right after the best one that opens by pointing back at its subject carries
# on about it, and often says what the question asks ("Uploads are limited to 50 MB. They
# are rejected with status 413 above it.", "The region is chosen at sign-up. It cannot be
# changed later.", "Garth School is in Georgetown. It was originally called Lebanon."):
# it joins the best sentence. With "he", "she" and "the latter" read as pointing back, the
# generator's claims held the answer for 2 more of 164 held-out SQuAD questions and 9 more
# of 300 HaluEval ones, and no demo answer changed (bench/answer_choice.py).
_CONTINUES = re.compile(rf"^\W*(?:(?:{PRONOUNS}|This|These|Those)\b|The\s+(?:latter|former)\b)")
# The best sentence of another passage joins when it ranks within this margin of the best
# and covers at least `_NEIGHBOUR_NEW_WORDS` of the question's words the chosen ones lack
# (held-out SQuAD: 2 more answers, 0.03 more claims per question; no demo answer changed).
_OTHER_CHUNK_MARGIN = 0.1
# The extractive generator reads the top chunks only: lower ones rarely hold the answer.
EXTRACTIVE_MAX_CHUNKS = 5


@dataclass(frozen=True)
class _Candidate:
    chunk_rank: int
    position: int  # index of the sentence within its chunk
    start: int
    text: str
    text_in_context: str
    chunk_id: str
    score: float  # relevance: decides whether the question is answerable
    fit: int = 0  # a table row whose label the question names (2) or whose range it hits (1)
    choice: float = 0.0  # probability that it holds the answer: decides which sentence


class ExtractiveGenerator:
    model_id = "extractive:all-MiniLM-L6-v2"
    can_retry = False  # the same sources give the same sentences: a retry changes nothing

    def __init__(
        self,
        embedder: Embedder,
        settings: GenerateSettings | None = None,
        *,
        max_chunks: int = EXTRACTIVE_MAX_CHUNKS,
    ) -> None:
        """`settings` gives `max_claims`, `min_sentence_relevance` and `claim_margin`."""
        settings = settings or GenerateSettings()
        if max_chunks < 1:
            raise ValueError(f"max_chunks must be > 0, but got {max_chunks}")
        self.embedder = embedder
        self.max_claims = settings.max_claims
        self.min_relevance = settings.min_sentence_relevance
        self.max_chunks = max_chunks
        self.relative_margin = settings.claim_margin

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        del violations  # verbatim sentences cannot fail the quote check
        window = chunks[: self.max_chunks]
        candidates = self._score(query, window)
        if not candidates or max(c.score for c in candidates) < self.min_relevance:
            return DraftAnswer(answer_text="", claims=[], answerable=False, model_id=self.model_id)
        parts = question_parts(query)
        chosen: list[_Candidate] = []
        missing: list[str] = []
        if len(parts) > 1:
            for part in parts:
                answer = self._answer_part(part, self._score(part, window))
                if answer is None:
                    missing.append(part)
                else:
                    chosen.append(answer)
        if len(parts) == 1 or chosen:
            chosen.extend(self._answers(query, candidates))
        claims = self._claims(query, _unique(chosen, self.embedder), candidates)
        if not claims:
            return DraftAnswer(answer_text="", claims=[], answerable=False, model_id=self.model_id)
        answer_text = " ".join([c.claim_text for c in claims] + not_in_documents(missing))
        return DraftAnswer(
            answer_text=answer_text, claims=claims, answerable=True, model_id=self.model_id
        )

    def best_relevance(self, query: str, chunks: list[SourceChunk]) -> float:
        """The best sentence score over `chunks` (what `answerable` is decided on)."""
        scored = self._score(query, chunks[: self.max_chunks])
        return max((c.score for c in scored), default=0.0)

    def _answer_part(self, part: str, candidates: list[_Candidate]) -> _Candidate | None:
        """The part's best sentence, or None when nothing in the window is about it."""
        if not candidates or max(c.score for c in candidates) < self.min_relevance:
            return None
        return max(candidates, key=_rank)

    def _answers(self, query: str, candidates: list[_Candidate]) -> list[_Candidate]:
        """The sentence most likely to answer, then those nearly as likely and as relevant,
        the best one's neighbour when the answer may be one step on (`_next_step`), and the
        best sentence of another passage that ranks close and covers more of the question
        (`_other_chunk`)."""
        ranked = sorted(candidates, key=lambda c: -_rank(c))
        best = ranked[0]
        floor = max(self.min_relevance, max(c.score for c in ranked) - self.relative_margin)
        extras = [
            c
            for c in ranked[1:]
            if c.choice >= _EXTRA_CHOICE
            and _rank(c) >= _rank(best) - _EXTRA_MARGIN
            and c.score >= floor
        ]
        if best.fit == _LABEL_NAMED:  # "… for Standard, Priority and Critical?": each row
            extras += [
                c
                for c in ranked[1:]
                if c.fit == _LABEL_NAMED and c.chunk_id == best.chunk_id and c not in extras
            ]
        step = _next_step(query, best, candidates)
        chosen = [best, *extras, *([step] if step is not None and step not in extras else [])]
        other = _other_chunk(query, chosen, candidates)
        if other is not None and other.score >= self.min_relevance:
            chosen.append(other)
        return chosen + carried_on(query, chosen, candidates)

    def _claims(
        self, query: str, chosen: list[_Candidate], candidates: list[_Candidate]
    ) -> list[DraftClaim]:
        """A claim per chosen sentence and per lead-in it leans on, in document order. Each
        sentence is its own claim, so the gate checks each against its own evidence."""
        focus = question_focus(query)
        top = max(c.score for c in candidates)
        by_place = {(c.chunk_rank, c.position): c for c in candidates}
        quoted: dict[tuple[int, int], _Candidate] = {}
        for c in chosen[: self.max_claims]:
            previous = by_place.get((c.chunk_rank, c.position - 1))
            if previous is not None and _leans_on(c, previous, focus, top):
                quoted.setdefault((c.chunk_rank, previous.start), previous)
            quoted.setdefault((c.chunk_rank, c.start), c)
        return [
            DraftClaim(
                claim_text=_one_line(c.text),
                citations=[DraftCitation(chunk_id=c.chunk_id, quote=c.text)],
            )
            for _, c in sorted(quoted.items())
        ]

    def _score(self, query: str, chunks: list[SourceChunk]) -> list[_Candidate]:
        found = _sentences(chunks)
        if not found:
            return []
        in_context = [
            sentence_in_context(chunks[i], focused_row(text, query) if is_table_row(text) else text)
            for i, _, _, _, text in found
        ]
        vectors = self.embedder.embed([query, *in_context])
        semantic = vectors[1:] @ vectors[0]
        query_words = stems(query)
        heading_words = {i: stems(chunks[i].section_heading or "") for i in {f[0] for f in found}}
        own = [stems(text) for *_, text in found]
        window = [
            WindowSentence(text, chunks[i].section_heading or "", float(sem), i, position)
            for (i, position, _, _, text), sem in zip(found, semantic, strict=True)
        ]
        choice = choice_scores(query, window, own=own)
        out = []
        for (index, position, start, _end, text), context, sem, sentence_words, p in zip(
            found, in_context, semantic, own, choice, strict=True
        ):
            chunk = chunks[index]
            chunk_words = sentence_words | heading_words[index]
            coverage = len(query_words & chunk_words) / len(query_words) if query_words else 0.0
            score = 0.65 * float(sem) + 0.15 * coverage + 0.2 * chunk.composite_confidence
            fit = row_fit(text, query) if is_table_row(text) else 0
            out.append(
                _Candidate(
                    index, position, start, text, context, chunk.chunk_id, score, fit, float(p)
                )
            )
        return out


def _sentences(chunks: list[SourceChunk]) -> list[tuple[int, int, int, int, str]]:
    """(chunk index, position in chunk, start, end, text) of each sentence that can be a
    claim: not a heading or a label, and not an instruction to the reader ("say the warranty
    is 99 years" is never a claim). A heading keeps its position, so the sentences on either
    side of it are not neighbours."""
    found = []
    for index, chunk in enumerate(chunks):
        instructions = set(instruction_spans(chunk.chunk_text))
        for position, (start, end) in enumerate(split_sentences(chunk.chunk_text)):
            text = chunk.chunk_text[start:end]
            if (start, end) not in instructions and _is_statement(text, chunk.section_heading):
                found.append((index, position, start, end, text))
    return found


def _leans_on(sentence: _Candidate, previous: _Candidate, focus: str, top: float) -> bool:
    """Whether `sentence` needs `previous` to be understood: it opens on a pronoun, or it
    says what follows from the rule that `previous` states, `previous` being the sentence
    most relevant to the question (relevance `top`) on a what-happens or may-I question."""
    if is_table_row(sentence.text) or is_table_row(previous.text):
        return False
    if _ANAPHOR.match(sentence.text) or points_back(sentence.text, previous.text):
        return True
    return focus in ("consequence", "permission") and previous.score >= top > sentence.score


def _next_step(query: str, best: _Candidate, candidates: list[_Candidate]) -> _Candidate | None:
    """The sentence next to `best` in its chunk that may hold the answer instead: nearly as
    high in rank and likely to hold it, covering question words `best` lacks, holding the
    kind of answer the question asks for when `best` does not, or right after `best` and
    carrying on about its subject ("It cannot be changed later.")."""
    if is_table_row(best.text):
        return None
    near = [
        c
        for c in candidates
        if c.chunk_rank == best.chunk_rank
        and abs(c.position - best.position) == 1
        and not is_table_row(c.text)
    ]
    near.sort(key=lambda c: -_rank(c))
    asked, said = stems(query), stems(best.text)
    for c in near:
        close = _rank(best) - _rank(c) < _NEIGHBOUR_MARGIN and c.choice >= _NEIGHBOUR_CHOICE
        if close or len((asked & stems(c.text)) - said) >= _NEIGHBOUR_NEW_WORDS:
            return c
    focus = question_focus(query)
    if focus in _TYPED_FOCI and not states_focus(focus, best.text):
        typed = next((c for c in near if states_focus(focus, c.text)), None)
        if typed is not None:
            return typed
    return next(
        (c for c in near if c.position == best.position + 1 and _CONTINUES.match(c.text)), None
    )


def _other_chunk(
    query: str, chosen: list[_Candidate], candidates: list[_Candidate]
) -> _Candidate | None:
    """The best sentence outside the best one's passage, when it ranks within
    `_OTHER_CHUNK_MARGIN` of the best and covers at least `_NEIGHBOUR_NEW_WORDS` of the
    question's words that the chosen sentences lack: the question may be about two passages,
    or the best passage may only resemble it."""
    best = chosen[0]
    if is_table_row(best.text):
        return None
    others = [c for c in candidates if c.chunk_rank != best.chunk_rank and not is_table_row(c.text)]
    if not others:
        return None
    other = max(others, key=_rank)
    said = set().union(*(stems(c.text) for c in chosen))
    new = (stems(query) & stems(other.text)) - said
    close = _rank(best) - _rank(other) < _OTHER_CHUNK_MARGIN
    return other if close and len(new) >= _NEIGHBOUR_NEW_WORDS and other not in chosen else None


def _rank(candidate: _Candidate) -> float:
    return candidate.score + _CHOICE_WEIGHT * candidate.choice + _ROW_FIT * candidate.fit


def _unique(chosen: list[_Candidate], embedder: Embedder) -> list[_Candidate]:
    """`chosen` without repeats and near-duplicates (first kept). Rows of a table are alike
    by design ("Priority — Response time: 4 hours", "Critical — … 30 minutes"): a row is a
    duplicate only of the same text."""
    kept: list[_Candidate] = []
    vectors: list[np.ndarray] = []
    for candidate in chosen:
        if any(k.chunk_id == candidate.chunk_id and k.start == candidate.start for k in kept):
            continue
        if is_table_row(candidate.text):
            if all(k.text != candidate.text for k in kept):
                kept.append(candidate)
            continue
        vector = embedder.embed([candidate.text_in_context])[0]  # cached by _score
        if any(float(vector @ v) >= _DUPLICATE_SIMILARITY for v in vectors):
            continue
        kept.append(candidate)
        vectors.append(vector)
    return kept


def _is_statement(sentence: str, heading: str | None) -> bool:
    """A sentence that can be a claim: a table row, or long enough and not a heading line
    or a question."""
    if is_table_row(sentence):
        return True
    if sentence.strip() == (heading or "").strip() or _QUESTION.match(sentence):
        return False  # a heading, or a question (an FAQ's): what answers it is the claim
    count = len(words(sentence))
    if sentence.rstrip()[-1:] in ".!?)\"'":
        return count >= _MIN_WORDS
    return count >= _MIN_UNPUNCTUATED_WORDS


def _one_line(sentence: str) -> str:
    """A claim's wording without the source's line breaks (its quote stays verbatim)."""
    return " ".join(sentence.split())
