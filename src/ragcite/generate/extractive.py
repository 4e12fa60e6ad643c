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
from ragcite.generate.faq_answers import faq_questions, faq_relevance
from ragcite.generate.focus import question_focus, states_focus
from ragcite.generate.lists import whole_list
from ragcite.generate.missing_parts import not_in_documents
from ragcite.generate.sentence_choice import (
    WindowSentence,
    choice_scores,
    focused_row,
    row_fit,
    stems,
)
from ragcite.generate.statements import claim_sentences
from ragcite.models import DraftAnswer, DraftCitation, DraftClaim, SourceChunk
from ragcite.rerank.question_parts import question_parts
from ragcite.rerank.sentence_similarity import sentence_in_context
from ragcite.text.sentence_forms import one_line
from ragcite.text.short_forms import spell_out
from ragcite.text.stems import stem
from ragcite.text.table_rows import is_table_row
from ragcite.text.words import STOPWORDS, content_words

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
# A rule's exception or limit leans on the rule (quoted with it when chosen), and on a may-I
# or yes/no question it joins the rule, since it may decide the answer: "Gifts worth up to
# EUR 50 may be accepted. Anything above that must be declined."
_EXCEPTION = (
    r"(?:Anything|Anyone|Everything|Everyone|Nothing|No\s+one)\s+"
    r"(?:above|over|below|under|beyond|else|more|less|other)\b"
    r"|(?:Above|Below|Beyond|Over|Under|Past)\s+(?:that|this|these|those|it|them)\b"
)
# A sentence that opens on these words leans on the one before it: both are quoted. Case
# matters: "IT enables encryption" names a department, "It is encrypted" points back.
_ANAPHOR = re.compile(
    r"^\W*(?:(?:[Ii]t|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Tt]hey|[Ss]uch|[Ii]ts|[Tt]heir|"
    r"[Tt]here|[Hh]e|[Ss]he|[Hh]is|[Hh]er)\b|[Tt]he\s+(?:latter|former)\b|" + _EXCEPTION + ")"
)
# The sentence right after the best one that opens by pointing back at its subject carries
# on about it, and often says what the question asks ("Uploads are limited to 50 MB. They
# are rejected with status 413 above it.", "The region is chosen at sign-up. It cannot be
# changed later.", "Garth School is in Georgetown. It was originally called Lebanon."):
# it joins the best sentence. With "he", "she" and "the latter" read as pointing back, the
# generator's claims held the answer for 2 more of 164 held-out SQuAD questions and 9 more
# of 300 HaluEval ones, and no demo answer changed (bench/answer_choice.py).
_CONTINUES = re.compile(rf"^\W*(?:(?:{PRONOUNS}|This|These|Those)\b|The\s+(?:latter|former)\b)")
# The foci on which a rule's exception joins the rule (see `_EXCEPTION`).
_EXCEPTS = re.compile(rf"^\W*(?:{_EXCEPTION})")
_YES_NO_FOCI = frozenset(("permission", "yes_no"))
# A sentence more relevant than the best one joins it only when the choice model gives it
# at least this probability of holding the answer (`_closer_in_words`): "Northwind matches
# 100% of your contributions …" (0.06) does not answer "Does Northwind match employee
# donations?", "… do not use the lifts …" (0.12) answers "Can I take the lift …?".
_CLOSER_CHOICE = 0.1
_UNLESS = re.compile(r"\b(?:unless|except)\b", re.IGNORECASE)
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
    asks: str = ""  # the FAQ question it answers, if any (not a list's lead-in)


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
        query = _spelled_out(query, window)
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
            chosen.extend(self._answers(query, candidates, window))
        claims = self._claims(query, _unique(chosen, self.embedder), candidates)
        if not claims:
            return DraftAnswer(answer_text="", claims=[], answerable=False, model_id=self.model_id)
        answer_text = " ".join([c.claim_text for c in claims] + not_in_documents(missing))
        return DraftAnswer(
            answer_text=answer_text, claims=claims, answerable=True, model_id=self.model_id
        )

    def best_relevance(self, query: str, chunks: list[SourceChunk]) -> float:
        """The best sentence score over `chunks` (what `answerable` is decided on)."""
        window = chunks[: self.max_chunks]
        scored = self._score(_spelled_out(query, window), window)
        return max((c.score for c in scored), default=0.0)

    def _answer_part(self, part: str, candidates: list[_Candidate]) -> _Candidate | None:
        """The part's best sentence, or None when nothing in the window is about it."""
        if not candidates or max(c.score for c in candidates) < self.min_relevance:
            return None
        return max(candidates, key=_rank)

    def _answers(
        self, query: str, candidates: list[_Candidate], window: list[SourceChunk]
    ) -> list[_Candidate]:
        """The sentence most likely to answer, then those nearly as likely and as relevant,
        the other items of its list when the question asks for the list (`whole_list`), the
        best one's neighbour when the answer may be one step on (`_next_step`), and the
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
        listed = whole_list(query, window[best.chunk_rank], best.position)
        extras += [
            c
            for c in sorted(candidates, key=lambda c: c.position)
            if c.chunk_rank == best.chunk_rank and c.position in listed
            and c is not best and c not in extras
        ]  # fmt: skip
        step = _next_step(query, best, candidates)
        chosen = [best, *extras, *([step] if step is not None and step not in extras else [])]
        other = _other_chunk(query, chosen, candidates)
        if other is not None and other.score >= self.min_relevance:
            chosen.append(other)
        closer = _closer_in_words(query, chosen, candidates, window[best.chunk_rank])
        if closer is not None:
            chosen.append(closer)
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
            opening = _faq_opening(c, by_place)
            if opening is not None:
                quoted.setdefault((c.chunk_rank, opening.start), opening)
            quoted.setdefault((c.chunk_rank, c.start), c)
        return [
            DraftClaim(
                claim_text=one_line(c.text),
                citations=[DraftCitation(chunk_id=c.chunk_id, quote=c.text)],
            )
            for _, c in sorted(quoted.items())
        ]

    def _score(self, query: str, chunks: list[SourceChunk]) -> list[_Candidate]:
        found = claim_sentences(chunks)
        if not found:
            return []
        in_context = [
            sentence_in_context(chunks[i], focused_row(text, query) if is_table_row(text) else text)
            for i, _, _, _, text in found
        ]
        asked = faq_questions(chunks, [(i, position) for i, position, *_ in found])
        semantic = faq_relevance(query, in_context, asked, self.embedder)
        query_words = stems(query)
        heading_words = {i: stems(chunks[i].section_heading or "") for i in {f[0] for f in found}}
        own = [stems(text) for *_, text in found]
        asked_words = [stems(q.text) if q is not None else set() for q in asked]
        window = [
            WindowSentence(text, chunks[i].section_heading or "", float(sem), i, position)
            for (i, position, _, _, text), sem in zip(found, semantic, strict=True)
        ]
        choice = choice_scores(query, window, own=own)
        out = []
        for (index, position, start, _end, text), context, sem, sentence_words, faq, p, q in zip(
            found, in_context, semantic, own, asked_words, choice, asked, strict=True
        ):
            chunk = chunks[index]
            chunk_words = sentence_words | heading_words[index] | faq
            coverage = len(query_words & chunk_words) / len(query_words) if query_words else 0.0
            score = 0.65 * float(sem) + 0.15 * coverage + 0.2 * chunk.composite_confidence
            fit = row_fit(text, query) if is_table_row(text) else 0
            out.append(
                _Candidate(
                    index,
                    position,
                    start,
                    text,
                    context,
                    chunk.chunk_id,
                    score,
                    fit,
                    float(p),
                    asks=q.text if q is not None and q.text.rstrip().endswith("?") else "",
                )
            )
        return out


def _spelled_out(query: str, chunks: list[SourceChunk]) -> str:
    """The question with its acronyms and shortened words in the passages' words ("PO":
    "purchase order", "prod": "production")."""
    return spell_out(query, [c.chunk_text for c in chunks])


def _leans_on(sentence: _Candidate, previous: _Candidate, focus: str, top: float) -> bool:
    """Whether `sentence` needs `previous` to be understood: it opens on a pronoun, or it
    says what follows from the rule that `previous` states, `previous` being the sentence
    most relevant to the question (relevance `top`) on a what-happens or may-I question."""
    if is_table_row(sentence.text) or is_table_row(previous.text):
        return False
    if _ANAPHOR.match(sentence.text) or points_back(sentence.text, previous.text):
        return True
    return focus in ("consequence", "permission") and previous.score >= top > sentence.score


def _faq_opening(
    sentence: _Candidate, by_place: dict[tuple[int, int], _Candidate]
) -> _Candidate | None:
    """The first sentence of the FAQ answer `sentence` is part of, when it is not that
    first sentence: an FAQ answers its question first ("Yes, if the phone is enrolled in
    device management."), and the sentences after it qualify that answer."""
    if not sentence.asks:
        return None
    opening = None
    place = (sentence.chunk_rank, sentence.position - 1)
    while (earlier := by_place.get(place)) is not None and earlier.asks == sentence.asks:
        opening, place = earlier, (place[0], place[1] - 1)
    return opening


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
    after = next((c for c in near if c.position == best.position + 1), None)
    if after is None:
        return None
    if _CONTINUES.match(after.text) or (focus in _YES_NO_FOCI and _excepts(after, best)):
        return after
    return None


def _excepts(after: _Candidate, rule: _Candidate) -> bool:
    """Whether `after` states an exception to `rule`, the sentence before it: it opens on
    one ("Anything above that must be declined …"), or says "unless" or "except" about
    something `rule` names ("Requests received after 60 days are declined unless the
    charge was made in error …" after "Customers can request a refund within 60 days.")."""
    if _EXCEPTS.match(after.text):
        return True
    return bool(_UNLESS.search(after.text)) and bool(
        _topic_stems(after.text) & _topic_stems(rule.text)
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


def _closer_in_words(
    query: str, chosen: list[_Candidate], candidates: list[_Candidate], passage: SourceChunk
) -> _Candidate | None:
    """The sentence more relevant to the question than the best one, when it holds a
    question word that neither a chosen sentence nor the best one's title and heading
    hold ("Can I take the lift during a fire
    alarm?": the choice model prefers "The fire alarm is tested every Wednesday …", and the
    more relevant "Leave by the nearest exit, do not use the lifts, …" is what answers),
    unless the choice model all but rules it out (`_CLOSER_CHOICE`)."""
    best = chosen[0]
    if is_table_row(best.text):
        return None
    closer = [
        c for c in candidates
        if c.score > best.score and c.choice >= _CLOSER_CHOICE and c not in chosen
        and not is_table_row(c.text)
    ]  # fmt: skip
    if not closer:
        return None
    top = max(closer, key=lambda c: c.score)
    heading = " ".join(x for x in (passage.document_title, passage.section_heading) if x)
    said = set().union(_topic_stems(heading), *(_topic_stems(c.text) for c in chosen))
    return top if (_topic_stems(query) & _topic_stems(top.text)) - said else None


def _topic_stems(text: str) -> set[str]:
    """The stems of `text`'s content words ("lifts": "lift")."""
    return {stem(w) for w in content_words(text, STOPWORDS)}


def _rank(candidate: _Candidate) -> float:
    return candidate.score + _CHOICE_WEIGHT * candidate.choice + _ROW_FIT * candidate.fit


def _unique(chosen: list[_Candidate], embedder: Embedder) -> list[_Candidate]:
    """`chosen` without repeats and near-duplicates (first kept): a near-duplicate restates
    a kept sentence in another chunk (chunks overlap). Rows of a table are alike by design
    ("Priority — Response time: 4 hours", "Critical — … 30 minutes"), and so are the items
    of a list in one chunk ("Below 99.9%: a credit of 10%", "Below 99.0%: … 25%"): a row is
    a duplicate only of the same text, a sentence only of one in another chunk."""
    kept: list[_Candidate] = []
    vectors: list[tuple[str, np.ndarray]] = []
    for candidate in chosen:
        if any(k.chunk_id == candidate.chunk_id and k.start == candidate.start for k in kept):
            continue
        if is_table_row(candidate.text):
            if all(k.text != candidate.text for k in kept):
                kept.append(candidate)
            continue
        vector = embedder.embed([candidate.text_in_context])[0]  # cached by _score
        if any(
            chunk_id != candidate.chunk_id and float(vector @ v) >= _DUPLICATE_SIMILARITY
            for chunk_id, v in vectors
        ):
            continue
        kept.append(candidate)
        vectors.append((candidate.chunk_id, vector))
    return kept
