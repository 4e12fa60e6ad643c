"""`ingest.sentence_pooling = "heading"`: each sentence through the model once, as its heading
form; its plain forms pooled from that forward pass."""

from __future__ import annotations

import numpy as np
import pytest

from ragcite.config import load_settings
from ragcite.embed.base import Vectors
from ragcite.embed.minilm import MiniLMEmbedder
from ragcite.errors import ConfigError
from ragcite.index.heading_plan import HeadingPlan
from ragcite.index.sentence_vectors import decode_sentence_vectors
from ragcite.models import SourceChunk
from ragcite.text.sentence_forms import chunk_sentence_forms

from ..generate.chunks import passage_chunk

KEPT = "Customer records are kept for three years."
ERASED = "Then they are erased\nwithin thirty days."
FLOAT16 = 2e-3  # the stored vectors are float16


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def _chunk(text: str, heading: str | None) -> SourceChunk:
    return passage_chunk("c1", text, heading=heading, document_id="d", title="Policy")


class Recording:
    """The real embedder's `embed`, recording what it was asked to embed on its own."""

    def __init__(self, embedder: MiniLMEmbedder) -> None:
        self.embedder = embedder
        self.texts: list[str] = []

    def __call__(self, texts: list[str]) -> Vectors:
        self.texts.extend(texts)
        return self.embedder.embed(texts)


def _stored(
    plan: HeadingPlan, chunk: SourceChunk, embedder: MiniLMEmbedder, alone: Recording
) -> dict[str, Vectors]:
    vectors, pooled = embedder.embed_spans(plan.texts, plan.spans)
    (blob,) = plan.blobs(vectors, pooled, alone)
    forms = chunk_sentence_forms(chunk.chunk_text, chunk.section_heading)
    assert blob is not None
    decoded = decode_sentence_vectors(blob, forms)
    assert decoded is not None
    return dict(zip(forms, decoded, strict=True))


def test_heading_forms_are_embedded_whole_and_plain_forms_pooled_inside_them(
    embedder: MiniLMEmbedder,
) -> None:
    chunk = _chunk(f"{KEPT} {ERASED}\n", "Records")
    plan = HeadingPlan.of([chunk])
    heading_forms = [f"Records: {KEPT}", f"Records: {ERASED}"]
    assert plan.texts == heading_forms
    # Each sentence's own characters inside its heading form (one span: both plain forms).
    assert plan.spans == [[(9, 9 + len(KEPT))], [(9, 9 + len(ERASED))]]
    alone = Recording(embedder)

    stored = _stored(plan, chunk, embedder, alone)

    assert alone.texts == []  # nothing embedded on its own
    whole = embedder.embed(heading_forms)
    for form, vector in zip(heading_forms, whole, strict=True):
        assert np.allclose(stored[form], vector, atol=FLOAT16)
    _, pooled = embedder.embed_spans(heading_forms[1:], [[(9, 9 + len(ERASED))]])
    assert pooled[0][0] is not None
    assert np.allclose(
        stored["Then they are erased within thirty days."], pooled[0][0], atol=FLOAT16
    )
    assert np.allclose(stored[ERASED], pooled[0][0], atol=FLOAT16)
    # Pooled from the sentence's own tokens: nearest its own wording, not its neighbour's.
    kept_alone, erased_alone = embedder.embed([KEPT, ERASED])
    assert float(stored[KEPT] @ kept_alone) > float(stored[KEPT] @ erased_alone)
    assert float(stored[ERASED] @ erased_alone) > float(stored[ERASED] @ kept_alone)


def test_without_a_heading_the_plain_forms_take_the_sentences_own_vector(
    embedder: MiniLMEmbedder,
) -> None:
    chunk = _chunk(f"  {ERASED}\n", None)
    plan = HeadingPlan.of([chunk])
    alone = Recording(embedder)

    stored = _stored(plan, chunk, embedder, alone)

    assert plan.texts == [ERASED] and plan.spans == [[]]  # nothing pooled
    assert alone.texts == []
    on_one_line = "Then they are erased within thirty days."
    assert np.array_equal(stored[on_one_line], stored[ERASED])
    assert np.allclose(stored[on_one_line], embedder.embed([on_one_line])[0], atol=FLOAT16)


def test_a_span_the_token_limit_cut_is_embedded_on_its_own() -> None:
    short = MiniLMEmbedder(max_tokens=16)
    tail = "Records past the limit are shredded."
    sentence = "One two three four five six seven eight nine ten eleven; " + tail
    chunk = _chunk(f"{KEPT} {sentence}", "Records")
    plan = HeadingPlan.of([chunk])
    alone = Recording(short)

    stored = _stored(plan, chunk, short, alone)

    assert alone.texts == [sentence]  # the first sentence was pooled, the long one was cut
    assert np.allclose(stored[sentence], short.embed([sentence])[0], atol=FLOAT16)
    assert np.allclose(
        stored[f"Records: {sentence}"], short.embed([f"Records: {sentence}"])[0], atol=FLOAT16
    )


def test_an_embedder_that_cannot_pool_embeds_the_plain_forms_on_their_own(
    embedder: MiniLMEmbedder,
) -> None:
    chunk = _chunk(f"{KEPT} {ERASED}", "Records")
    plan = HeadingPlan.of([chunk, chunk])  # the same sentences twice: each embedded once
    alone = Recording(embedder)

    blobs = plan.blobs(embedder.embed(plan.texts), None, alone)

    assert alone.texts == [KEPT, ERASED, "Then they are erased within thirty days."]
    forms = chunk_sentence_forms(chunk.chunk_text, chunk.section_heading)
    decoded = decode_sentence_vectors(blobs[0] or b"", forms)
    assert decoded is not None
    assert np.allclose(decoded, embedder.embed(forms), atol=FLOAT16)


def test_an_unknown_pooling_is_refused_naming_the_value_and_the_choices() -> None:
    with pytest.raises(ConfigError, match=r"ingest\.sentence_pooling: .*'heading'.*not 'head'"):
        load_settings(overrides={"ingest.sentence_pooling": "head"})
