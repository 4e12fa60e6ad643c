"""The offline default generator: answers with the source's own sentences.

Each selected sentence (or table row) becomes a claim that cites its chunk with the sentence
itself as the verbatim quote, so nothing is paraphrased and nothing can be invented.

Two scores per sentence, for two decisions:

* relevance — similarity to the question (in the context of its section heading), coverage
  of the question's words and the chunk's composite confidence. Whether the question is
  answered at all is decided over the candidates (`answer_decision`: a learned model, or
  `min_sentence_relevance` as a floor); sentences joined to the answer must clear the floor.
* choice — the probability that the sentence holds the answer (`sentence_choice`): it
  weighs what kind of answer the question asks for and the sentence's neighbours, so the
  sentence that answers wins over the one that only resembles the question.

Each part of a compound question gets its best sentence; a part that no sentence is
relevant to, or whose best sentence lacks the price or contact it asks for, is reported as
missing ("The documents do not say how much meals are reimbursed."), never answered with a
sentence about something else.

    >>> draft = ExtractiveGenerator(embedder).generate("How long is parental leave?", chunks)
    >>> draft.claims[0].citations[0].quote
    'Primary caregivers receive 16 weeks of fully paid parental leave.'
"""

from __future__ import annotations

from collections.abc import Sequence, Set

import numpy as np
import numpy.typing as npt

from ragcite.config import GenerateSettings
from ragcite.embed.base import Embedder
from ragcite.generate.answer_decision import Decision, deciding, decision_features, decline_reason
from ragcite.generate.bands import tightest_bands
from ragcite.generate.bridge import carried_on
from ragcite.generate.conditions import cases_settled
from ragcite.generate.contact_fit import contact_fit
from ragcite.generate.faq_answers import Asked, Relevance, faq_questions, faq_relevance
from ragcite.generate.fits import candidate_fit
from ragcite.generate.focus import question_focus
from ragcite.generate.joining import (
    Candidate,
    faq_opening,
    gives_the_contact,
    labelled_opening,
    leans_on,
    next_step,
    price_kept_honest,
    rank,
    states_what_is_asked,
)
from ragcite.generate.leeways import contact_allowance, leeway
from ragcite.generate.lists import whole_list
from ragcite.generate.missing_parts import (
    beside_the_last_answer,
    gives_what_is_asked,
    not_in_documents,
)
from ragcite.generate.new_amount import gives_a_new_amount
from ragcite.generate.other_case import (
    answer_order,
    asker_case_first,
    not_done_first,
    of_the_other_case,
    same_case,
)
from ragcite.generate.question_adapter import rank_shift
from ragcite.generate.repeats import without_repeats
from ragcite.generate.rivals import closer_in_words, other_chunk
from ragcite.generate.row_rules import rules_over_rows
from ragcite.generate.sentence_choice import WindowSentence, choice_scores, focused_row, stems
from ragcite.generate.slot_fill import fills_the_gap
from ragcite.generate.statements import Statement, statements_for
from ragcite.models import DraftAnswer, DraftCitation, DraftClaim, SourceChunk
from ragcite.rerank.question_parts import question_parts
from ragcite.rerank.sentence_similarity import sentence_in_context
from ragcite.text.labels import line_label
from ragcite.text.sentence_forms import one_line
from ragcite.text.short_forms import spell_out
from ragcite.text.table_rows import is_table_row

# A question that names several rows' labels of one table ("the response time for Standard,
# Priority and Critical") is answered from each of them.
_LABEL_NAMED = 2
# A sentence ranked this close to the best one is cited beside it when the choice model
# gives it this much (the generator cannot tell which of the two answers). More is not
# better: at 0.1, claims correct on the paraphrased demo questions fell 0.812 -> 0.682 (the
# pension-match sentence beside the health-insurance one let "donations" pass as
# "contributions"), and citing every sentence within 0.15 of the best added claims that did
# not answer.
_EXTRA_MARGIN = 0.05
_EXTRA_CHOICE = 0.45
# A compound question none of whose parts reaches the relevance floor alone is answered as
# a whole when the answer decision takes it and its relevance is this close to the floor.
_NEAR = 0.05
# A sentence's relevance weighs its cosine with the question this much (its word coverage
# 0.15, its chunk's composite confidence 0.2).
SIMILARITY_WEIGHT = 0.65
# The extractive generator reads the top chunks only: lower ones rarely hold the answer.
EXTRACTIVE_MAX_CHUNKS = 5


class ExtractiveGenerator:
    model_id = "extractive:all-MiniLM-L6-v2"
    can_retry = False  # the same sources give the same sentences: a retry changes nothing
    checks_relevance = True  # every sentence quoted scores above `min_relevance`

    def __init__(
        self,
        embedder: Embedder,
        settings: GenerateSettings | None = None,
        *,
        max_chunks: int = EXTRACTIVE_MAX_CHUNKS,
        decision: Decision | None = None,
    ) -> None:
        """`settings` gives `max_claims`, `min_sentence_relevance`, `claim_margin`,
        `question_map`, `answer_decision` and `answer_threshold`; `decision`, when given,
        decides whether to answer instead (`answer_decision`)."""
        settings = settings or GenerateSettings()
        if max_chunks < 1:
            raise ValueError(f"max_chunks must be > 0, but got {max_chunks}")
        self.embedder = embedder
        self.max_claims = settings.max_claims
        self.min_relevance = settings.min_sentence_relevance
        self.max_chunks = max_chunks
        self.relative_margin = settings.claim_margin
        self.question_map = settings.question_map
        self.decision = decision or deciding(settings)

    def generate(
        self, query: str, chunks: list[SourceChunk], *, violations: list[str] | None = None
    ) -> DraftAnswer:
        del violations  # verbatim sentences cannot fail the quote check
        query, candidates = self.candidates(query, chunks)
        window = chunks[: self.max_chunks]
        if not candidates:
            return DraftAnswer(answer_text="", claims=[], answerable=False, model_id=self.model_id)
        read = decision_features(query, candidates, window, _relevance(candidates))
        if not self.decision(read):
            return DraftAnswer(
                answer_text="",
                answerable=False,
                model_id=self.model_id,
                decline_reason=decline_reason(read),
            )
        parts = question_parts(query)
        chosen: list[Candidate] = []
        missing: list[str] = []
        if len(parts) > 1:
            for part in parts:
                answer = self._answer_part(part, self._score(part, window))
                answer = answer or beside_the_last_answer(
                    part, chosen, candidates, self.min_relevance
                )
                if answer is None:
                    missing.append(part)
                else:
                    chosen.append(answer)
        if len(missing) == len(parts) and _relevance(candidates) >= self.min_relevance - _NEAR:
            missing = []  # no part alone, but the question as a whole is close enough
        if chosen or not missing:
            chosen.extend(self._answers(query, candidates, window))
        claims = self._claims(query, without_repeats(chosen, self.embedder), candidates)
        if not claims:
            return DraftAnswer(answer_text="", claims=[], answerable=False, model_id=self.model_id)
        answer_text = " ".join([c.claim_text for c in claims] + not_in_documents(missing))
        return DraftAnswer(
            answer_text=answer_text, claims=claims, answerable=True, model_id=self.model_id
        )

    def candidates(self, query: str, chunks: list[SourceChunk]) -> tuple[str, list[Candidate]]:
        """The question in the passages' words and its scored candidate sentences over the
        window of `chunks` (what `ragcite train question-map` learns from)."""
        window = chunks[: self.max_chunks]
        query = spell_out(query, [c.chunk_text for c in window])  # "PO": "purchase order"
        return query, self._score(query, window)

    def decision_inputs(self, query: str, chunks: list[SourceChunk]) -> dict[str, float] | None:
        """What the answer decision reads for `query` over `chunks` (`decision_features`;
        None without candidate sentences)."""
        query, candidates = self.candidates(query, chunks)
        if not candidates:
            return None
        window = chunks[: self.max_chunks]
        return decision_features(query, candidates, window, _relevance(candidates))

    def _answer_part(self, part: str, candidates: list[Candidate]) -> Candidate | None:
        """The part's best sentence, or None when nothing in the window is about it or when
        the part asks for a price or a contact that its best sentence does not give ("…, and
        how much does it cost?" over a row saying who may order the monitor)."""
        if _relevance(candidates) < self.min_relevance:
            return None
        best = max(candidates, key=rank)
        return best if gives_what_is_asked(part, best.text) else None

    def _answers(
        self, query: str, candidates: list[Candidate], window: list[SourceChunk]
    ) -> list[Candidate]:
        """The sentence most likely to answer, then those ranked nearly as high and as relevant,
        the other items of its list when the question asks for the list (`whole_list`), the
        best one's neighbour when the answer may be one step on (`joining.next_step`), the
        best sentence of another passage that ranks close and covers more of the question
        (`rivals.other_chunk`), the one filling the question's gap (`slot_fill`) and the one
        naming the amount asked when the chosen ones repeat the asker's (`new_amount`)."""
        ranked = not_done_first(
            query, asker_case_first(query, sorted(candidates, key=answer_order))
        )
        best = ranked[0]
        extras = self._ranked_as_high(ranked)
        listed = whole_list(query, window[best.chunk_rank], best.position)
        extras += [
            c
            for c in sorted(candidates, key=lambda c: c.position)
            if c.chunk_rank == best.chunk_rank and c.position in listed
            and c is not best and c not in extras and not of_the_other_case(c)
        ]  # fmt: skip
        step = next_step(query, best, candidates)
        chosen = [best, *extras, *([step] if step is not None and step not in extras else [])]
        other = other_chunk(query, chosen, candidates)
        if other is not None and other.score >= self.min_relevance:
            chosen.append(other)
        closer = closer_in_words(query, chosen, candidates, window[best.chunk_rank])
        if closer is not None:
            chosen.append(closer)
        for join in (fills_the_gap, gives_a_new_amount, states_what_is_asked):
            joined = join(query, chosen, candidates)
            if joined is not None:
                chosen.append(joined)
        contact = gives_the_contact(
            query,
            chosen,
            candidates,
            self.min_relevance,
            contact_allowance(candidates, window, self.min_relevance),
        )
        if contact is not None:
            chosen.append(contact)
        chosen = same_case(query, chosen)
        return chosen + carried_on(query, chosen, candidates)

    def _ranked_as_high(self, ranked: list[Candidate]) -> list[Candidate]:
        """The sentences after the best (`ranked[0]`) that join it: ranked nearly as high and
        as relevant, every row whose label the question names with the best's, and the first
        sentence that fits the question when the best does not."""
        best = ranked[0]
        floor = max(self.min_relevance, max(c.score for c in ranked) - self.relative_margin)
        extras = [
            c
            for c in ranked[1:]
            if rank(c) >= rank(best) - _EXTRA_MARGIN
            and c.choice >= _EXTRA_CHOICE
            and c.score >= floor
            and not of_the_other_case(c)
        ]
        if best.fit == _LABEL_NAMED:  # "… for Standard, Priority and Critical?": each row
            extras += [
                c
                for c in ranked[1:]
                if c.fit == _LABEL_NAMED and c.chunk_id == best.chunk_id and c not in extras
            ]
        fitting = [
            c for c in ranked[1:] if c.fit and c.score >= self.min_relevance and c not in extras
        ]
        if not best.fit and fitting:  # "6 weeks before" in "Between 4 and 8 weeks before: …"
            extras.append(fitting[0])
        return extras

    def _claims(
        self, query: str, chosen: list[Candidate], candidates: list[Candidate]
    ) -> list[DraftClaim]:
        """A claim per chosen sentence and per sentence it leans on (the one before it, its
        FAQ answer's opening, the labelled sentence opening its line), in document order. Each
        sentence is its own claim, so the gate checks each against its own evidence."""
        focus = question_focus(query)
        top = max(c.score for c in candidates)
        by_place = {(c.chunk_rank, c.position): c for c in candidates}
        quoted: dict[tuple[int, int], Candidate] = {}
        for c in chosen[: self.max_claims]:
            previous = by_place.get((c.chunk_rank, c.position - 1))
            if previous is not None and leans_on(c, previous, focus, top):
                quoted.setdefault((c.chunk_rank, previous.start), previous)
            for opening in (faq_opening(c, by_place), labelled_opening(c, by_place)):
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

    def _score(self, query: str, chunks: list[SourceChunk]) -> list[Candidate]:
        found = statements_for(query, chunks)
        if not found:
            return []
        in_context = [
            sentence_in_context(chunks[i], focused_row(text, query) if is_table_row(text) else text)
            for i, _, _, _, text in found
        ]
        asked = faq_questions(chunks, [(i, position) for i, position, *_ in found])
        relevance = faq_relevance(query, in_context, asked, self.embedder)
        semantic = relevance.semantic
        own = [stems(text) for *_, text in found]
        window = [
            WindowSentence(text, chunks[i].section_heading or "", float(sem), i, position)
            for (i, position, _, _, text), sem in zip(found, semantic, strict=True)
        ]
        labelled = [
            w | stems(line_label(q.text)) if q is not None and q.is_label else w
            for w, q in zip(own, asked, strict=True)
        ]
        choice = choice_scores(query, window, own=labelled)
        coverage = _coverage(query, chunks, found, own, asked)
        out = []
        for (index, position, start, _, text), context, sem, covered, p, q, shift in zip(
            found, in_context, semantic, coverage, choice, asked, self._shifts(relevance),
            strict=True,
        ):  # fmt: skip
            chunk = chunks[index]
            score = (
                SIMILARITY_WEIGHT * float(sem) + 0.15 * covered + 0.2 * chunk.composite_confidence
            )
            fit, other_case = candidate_fit(text, query, is_row=is_table_row(text))
            around = f"{chunk.section_heading or ''} {line_label(text)}"
            out.append(
                Candidate(
                    index,
                    position,
                    start,
                    text,
                    context,
                    chunk.chunk_id,
                    score,
                    fit,
                    float(p),
                    asks=q.text if q is not None and q.is_question else "",
                    label=q.text if q is not None and q.is_label else "",
                    contact=contact_fit(text, query, around),
                    other_case=other_case,
                    shift=float(shift),
                )
            )
        settled = tightest_bands(query, cases_settled(query, out))
        return price_kept_honest(query, rules_over_rows(query, settled))

    def _shifts(self, relevance: Relevance) -> npt.NDArray[np.float32]:
        """Each sentence's rank shift under the learned question map (none when it is off)."""
        if not self.question_map:
            return np.zeros(len(relevance.sentences), dtype=np.float32)
        return rank_shift(relevance.question, relevance.sentences)


def _coverage(
    query: str,
    chunks: list[SourceChunk],
    found: list[Statement],
    own: Sequence[Set[str]],
    asked: list[Asked | None],
) -> list[float]:
    """The share of the question's words each sentence holds with its heading and the FAQ
    question it answers."""
    query_words = stems(query)
    if not query_words:
        return [0.0] * len(found)
    heading_words = {i: stems(chunks[i].section_heading or "") for i in {f[0] for f in found}}
    return [
        len(query_words & (words | heading_words[f[0]] | (stems(q.text) if q else set())))
        / len(query_words)
        for f, words, q in zip(found, own, asked, strict=True)
    ]


def _relevance(candidates: list[Candidate]) -> float:
    """The best score, a sentence the question singles out (`Candidate.fit`,
    `Candidate.contact`) counting its `leeway` more (0 without candidates)."""
    return max((c.score + leeway(c) for c in candidates), default=0.0)
