"""An FAQ's answer is as relevant as its question, a list's item as its lead-in.

In an FAQ ("Can I buy software with my corporate card?" on a line of its own, then "No.
Software must always be purchased through the IT portal."), the answer seldom repeats the
question's words: a user asking "Can I pay for software with my company credit card?" is
close to the FAQ's question, not to its answer. The extractive generator scores each
sentence by its likeness to the user's question; a sentence that answers an FAQ question
(`ragcite.text.faq`) scores at least as its question does, and counts the question's words
as its own. So does a list's item with the lead-in its list hangs from ("Before your first
day:" over "- Sign the employment contract."). The question's or the lead-in's vector was
stored at ingest with the chunk's other sentences.

    >>> asked = faq_questions(chunks, [(0, 2)])        # doctest: +SKIP
    >>> faq_relevance(query, [form], asked, embedder).semantic  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ragcite.embed.base import Embedder
from ragcite.generate.lists import lead_ins
from ragcite.models import SourceChunk
from ragcite.text.faq import answered_questions
from ragcite.text.labels import labelled_by
from ragcite.text.sentence_forms import in_context
from ragcite.text.sentences import split_sentences


@dataclass(frozen=True)
class Asked:
    """The FAQ question a sentence answers (or the lead-in a list's item hangs from): its
    text, the form the stages embed, and whether it is an FAQ question."""

    text: str
    in_context: str
    is_question: bool = True
    is_label: bool = False


def faq_questions(
    chunks: Sequence[SourceChunk], places: Sequence[tuple[int, int]]
) -> list[Asked | None]:
    """For each (chunk index, sentence position in the chunk), the question on a line of
    its own that the sentence answers, or None."""
    per_chunk: dict[int, tuple[Asked | None, ...]] = {}
    out: list[Asked | None] = []
    for index, position in places:
        if index not in per_chunk:
            chunk = chunks[index]
            per_chunk[index] = _chunk_questions(chunk.chunk_text, chunk.section_heading)
        out.append(per_chunk[index][position])
    return out


@lru_cache(maxsize=4096)  # the same retrieved chunks are read for every question part
def _chunk_questions(text: str, heading: str | None) -> tuple[Asked | None, ...]:
    """Each sentence's FAQ question; else, for a sentence after a labelled one on its line,
    that sentence ("Severity 2: one system down." for "Respond within 4 hours."); else for
    a list's item the list's lead-in ("Before your first day:" for "- Sign the employment
    contract."), which asks what the items answer."""
    spans = split_sentences(text)
    out: list[Asked | None] = []
    hangs = zip(
        answered_questions(text, spans),
        labelled_by(text, spans),
        lead_ins(text, spans),
        strict=True,
    )
    for question, label, lead in hangs:
        above = next((x for x in (question, label, lead) if x is not None), None)
        if above is None:
            out.append(None)
        else:
            asked = text[slice(*spans[above])]
            out.append(
                Asked(asked, in_context(heading, asked), question is not None, above == label)
            )
    return tuple(out)


class Relevance(NamedTuple):
    """Each sentence's cosine with the question (`faq_relevance`), and the vectors it was
    computed from, for the generator's other uses of them."""

    semantic: npt.NDArray[np.float32]
    question: npt.NDArray[np.float32]
    sentences: npt.NDArray[np.float32]


def faq_relevance(
    query: str, in_context: Sequence[str], asked: Sequence[Asked | None], embedder: Embedder
) -> Relevance:
    """Each sentence's cosine with `query` (`in_context`: the sentences' embedded forms),
    raised to its FAQ question's where that is higher."""
    questions = list(dict.fromkeys(q.in_context for q in asked if q is not None))
    vectors = embedder.embed([query, *in_context, *questions])
    question, sentences = vectors[0], vectors[1 : 1 + len(in_context)]
    semantic: npt.NDArray[np.float32] = sentences @ question
    if not questions:
        return Relevance(semantic, question, sentences)
    of_question = vectors[1 + len(in_context) :] @ question
    by_question = dict(zip(questions, of_question.tolist(), strict=True))
    raised = [
        sem if q is None else max(sem, by_question[q.in_context])
        for sem, q in zip(semantic.tolist(), asked, strict=True)
    ]
    return Relevance(np.asarray(raised, dtype=np.float32), question, sentences)
