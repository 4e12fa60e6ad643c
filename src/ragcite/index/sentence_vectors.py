"""Sentence vectors computed once per chunk at ingest and stored with it.

At ask time the reranker, the extractive generator and the gate embed the sentences of
the retrieved chunks (`ragcite.text.sentence_forms`). Ingest embeds those strings once and
stores their vectors with the chunk (float16, in one blob); `prime_sentence_vectors` hands
them to the embedder's cache before reranking, so answering a question embeds the question
only. A chunk stored without them (an older store) is embedded on the fly, as before.

    >>> blob = encode_sentence_vectors(forms, vectors)
    >>> decode_sentence_vectors(blob, forms).shape
    (4, 384)
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ragcite.embed.base import Embedder, Vectors
from ragcite.index.store import Store
from ragcite.models import SourceChunk
from ragcite.text.sentence_forms import (
    chunk_sentence_forms,
    sentences_with_forms,
    table_cell_forms,
)

_HEADER = struct.Struct("<4sIHH")  # magic, crc32 of the forms, count, dimension
_MAGIC = b"RSV1"


def _forms_crc(forms: Sequence[str]) -> int:
    return zlib.crc32("\x1f".join(forms).encode("utf-8"))


def encode_sentence_vectors(forms: Sequence[str], vectors: Vectors) -> bytes:
    """One blob: a header naming the forms it was computed for, then float16 vectors."""
    count, dimension = int(vectors.shape[0]), int(vectors.shape[1])
    header = _HEADER.pack(_MAGIC, _forms_crc(forms), count, dimension)
    return header + np.asarray(vectors, dtype=np.float16).tobytes()


def decode_sentence_vectors(blob: bytes, forms: Sequence[str]) -> Vectors | None:
    """The vectors, in the order of `forms`; None when the blob was computed for other
    forms (the sentence splitter changed since ingest) or is not one of ours."""
    if len(blob) < _HEADER.size:
        return None
    magic, crc, count, dimension = _HEADER.unpack_from(blob)
    if magic != _MAGIC or count != len(forms) or crc != _forms_crc(forms):
        return None
    body = np.frombuffer(blob, dtype=np.float16, offset=_HEADER.size)
    if body.size != count * dimension:
        return None
    return body.reshape(count, dimension).astype(np.float32)


@dataclass(frozen=True)
class SentencePlan:
    """What ingest embeds for a version's sentences: each distinct form once.

    >>> plan = SentencePlan.of(chunks)
    >>> blobs = plan.blobs(embedder.embed(plan.texts))  # one per chunk
    """

    per_chunk: list[list[str]]
    texts: list[str]

    @classmethod
    def of(cls, chunks: Sequence[SourceChunk]) -> SentencePlan:
        per_chunk = [chunk_sentence_forms(c.chunk_text, c.section_heading) for c in chunks]
        texts = list(dict.fromkeys(form for forms in per_chunk for form in forms))
        return cls(per_chunk, texts)

    def blobs(self, vectors: Vectors) -> list[bytes | None]:
        """Each chunk's blob, from the vectors of `texts` in order."""
        row = {form: i for i, form in enumerate(self.texts)}
        return [
            encode_sentence_vectors(forms, vectors[[row[f] for f in forms]]) if forms else None
            for forms in self.per_chunk
        ]


@dataclass(frozen=True)
class SpanPlan:
    """Sentence vectors pooled from the chunks' own forward pass (`ingest.sentence_pooling =
    "spans"`): each sentence's span in the text embedded for its chunk, and which sentence
    gives each form its vector. A sentence the token limit cut is embedded on its own.

    >>> plan = SpanPlan.of(chunks, offsets)  # where each chunk's text starts in its input
    >>> vectors, pooled = embedder.embed_spans(inputs, plan.spans)
    >>> blobs = plan.blobs(pooled, embedder.embed)
    """

    per_chunk: list[list[str]]
    form_sentence: list[list[int | None]]  # None: a table row's cell form, embedded alone
    spans: list[list[tuple[int, int]]]

    @classmethod
    def of(cls, chunks: Sequence[SourceChunk], offsets: Sequence[int]) -> SpanPlan:
        per_chunk, form_sentence, spans = [], [], []
        for chunk, offset in zip(chunks, offsets, strict=True):
            sentences = sentences_with_forms(chunk.chunk_text, chunk.section_heading)
            forms: dict[str, int | None] = {}
            for k, (_, _, sentence_forms) in enumerate(sentences):
                for form in sentence_forms:
                    forms.setdefault(form, k)
            for form in table_cell_forms(chunk.chunk_text, chunk.section_heading):
                forms.setdefault(form, None)
            per_chunk.append(list(forms))
            form_sentence.append(list(forms.values()))
            text = chunk.chunk_text
            spans.append([(offset + a, offset + len(text[:b].rstrip())) for a, b, _ in sentences])
        return cls(per_chunk, form_sentence, spans)

    def blobs(
        self, pooled: list[list[Vectors | None]], embed: Callable[[list[str]], Vectors]
    ) -> list[bytes | None]:
        """Each chunk's blob from its sentences' pooled vectors; the forms of a sentence
        with none are embedded (all in one `embed` call)."""
        rows = list(zip(self.per_chunk, self.form_sentence, pooled, strict=True))
        missing = list(
            dict.fromkeys(
                form
                for forms, which, vectors in rows
                for form, k in zip(forms, which, strict=True)
                if k is None or vectors[k] is None
            )
        )
        alone = dict(zip(missing, embed(missing) if missing else [], strict=True))
        blobs: list[bytes | None] = []
        for forms, which, vectors in rows:
            chosen = [None if k is None else vectors[k] for k in which]
            stacked = [alone[f] if v is None else v for f, v in zip(forms, chosen, strict=True)]
            blobs.append(encode_sentence_vectors(forms, np.stack(stacked)) if forms else None)
        return blobs


def prime_sentence_vectors(embedder: Embedder, store: Store, chunks: Sequence[SourceChunk]) -> int:
    """Give the embedder's cache the stored sentence vectors of `chunks`; how many vectors.

    Does nothing for an embedder without a cache; chunks stored without sentence vectors
    (an older store) are skipped: the stages embed their sentences on the fly.
    """
    remember = getattr(embedder, "remember", None)
    if remember is None or not chunks:
        return 0
    blobs = store.sentence_vectors([c.chunk_id for c in chunks])
    texts: list[str] = []
    parts: list[Vectors] = []
    for chunk in chunks:
        blob = blobs.get(chunk.chunk_id)
        if blob is None:
            continue
        forms = chunk_sentence_forms(chunk.chunk_text, chunk.section_heading)
        vectors = decode_sentence_vectors(blob, forms)
        if vectors is None:  # stored before table rows' cell forms were
            forms = chunk_sentence_forms(chunk.chunk_text, chunk.section_heading, cells=False)
            vectors = decode_sentence_vectors(blob, forms)
        if vectors is not None and len(forms) and vectors.shape[1] == embedder.dimension:
            texts.extend(forms)
            parts.append(vectors)
    if texts:
        remember(texts, np.concatenate(parts))
    return len(texts)
