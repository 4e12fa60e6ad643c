"""Sentence vectors with each sentence run through the model once (`ingest.sentence_pooling =
"heading"`).

A sentence has three forms (`ragcite.text.sentence_forms`): with its section heading (what
the reranker and the extractive generator embed), and stripped-and-cut or on one line (what
the gate embeds). This plan embeds the heading form whole, so the reranker and the generator
get exactly the vectors "separate" gives them, and pools the plain forms from that same
forward pass: the mean of the token states of the sentence's own characters inside it.
A plain form equal to its heading form up to whitespace (a sentence without a heading) takes
the heading form's vector; one whose span the token limit cut is embedded on its own.

    >>> plan = HeadingPlan.of(chunks)
    >>> vectors, pooled = embedder.embed_spans(plan.texts, plan.spans)
    >>> blobs = plan.blobs(vectors, pooled, embedder.embed)  # one per chunk
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ragcite.embed.base import Span, SpanVectors, Vectors
from ragcite.index.sentence_vectors import encode_sentence_vectors
from ragcite.models import SourceChunk
from ragcite.text.sentence_forms import one_line, sentences_with_forms, table_cell_forms

# Where a form's vector comes from: (index into `texts`, index into that text's spans), or
# (index into `texts`, None) for the text's own vector.
_Source = tuple[int, int | None]


@dataclass(frozen=True)
class HeadingPlan:
    """The heading forms to embed, the plain forms' spans inside them, and each chunk's forms
    (in `chunk_sentence_forms` order, which the stored vectors follow)."""

    per_chunk: list[list[str]]
    texts: list[str]
    spans: list[list[Span]]
    sources: dict[str, _Source]

    @classmethod
    def of(cls, chunks: Sequence[SourceChunk]) -> HeadingPlan:
        found = [sentences_with_forms(c.chunk_text, c.section_heading) for c in chunks]
        cells = [table_cell_forms(c.chunk_text, c.section_heading) for c in chunks]
        row: dict[str, int] = {}
        for sentences in found:
            for _, _, (heading_form, _, _) in sentences:
                row.setdefault(heading_form, len(row))
        for form in (f for forms in cells for f in forms):  # embedded whole, as they are
            row.setdefault(form, len(row))
        spans: list[list[Span]] = [[] for _ in row]
        sources: dict[str, _Source] = {text: (i, None) for text, i in row.items()}
        for chunk, sentences in zip(chunks, found, strict=True):
            for start, end, (heading_form, cut, whole) in sentences:
                own = _own_spans(heading_form, chunk.chunk_text[start:end], len(cut))
                for form, span in zip((cut, whole), own, strict=True):
                    if form not in sources:
                        sources[form] = _source(row[heading_form], heading_form, form, span, spans)
        per_chunk = [
            list(dict.fromkeys([*(f for _, _, forms in sentences for f in forms), *cell_forms]))
            for sentences, cell_forms in zip(found, cells, strict=True)
        ]
        return cls(per_chunk, list(row), spans, sources)

    def blobs(
        self,
        vectors: Vectors,
        pooled: SpanVectors | None,
        embed: Callable[[list[str]], Vectors],
    ) -> list[bytes | None]:
        """Each chunk's blob, from the vectors of `texts` and their spans' pooled vectors
        (None: the embedder cannot pool); the forms without a pooled vector are embedded on
        their own, all in one `embed` call."""

        def pooled_vector(form: str) -> Vectors | None:
            text, span = self.sources[form]
            return None if span is None or pooled is None else pooled[text][span]

        missing = [
            form
            for form, (_, span) in self.sources.items()
            if span is not None and pooled_vector(form) is None
        ]
        alone = dict(zip(missing, embed(missing) if missing else [], strict=True))

        def vector(form: str) -> Vectors:
            text, span = self.sources[form]
            if span is None:
                own: Vectors = vectors[text]
                return own
            found = pooled_vector(form)
            return alone[form] if found is None else found

        return [
            encode_sentence_vectors(forms, np.stack([vector(f) for f in forms])) if forms else None
            for forms in self.per_chunk
        ]


def _own_spans(heading_form: str, sentence: str, cut_chars: int) -> tuple[Span, Span]:
    """The sentence's stripped characters inside its heading form: cut to `cut_chars` (the
    gate's evidence form), and whole (the one-line form)."""
    offset = len(heading_form) - len(sentence)  # the sentence ends its heading form
    start = offset + len(sentence) - len(sentence.lstrip())
    end = offset + len(sentence.rstrip())
    return (start, min(end, start + cut_chars)), (start, end)


def _source(
    text: int, heading_form: str, form: str, span: Span, spans: list[list[Span]]
) -> _Source:
    """Where `form` gets its vector: its heading form's own vector when they differ only in
    whitespace (the model sees the same tokens), else its span pooled inside that form."""
    if one_line(form) == one_line(heading_form):
        return (text, None)
    if span not in spans[text]:
        spans[text].append(span)
    return (text, spans[text].index(span))
