"""Sentence vectors stored at ingest: `ask` embeds the question only, and a store
without them (an older one) gives the same answer by embedding on the fly."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from ragcite.config import load_settings
from ragcite.embed.base import Vectors
from ragcite.index.sentence_vectors import decode_sentence_vectors, encode_sentence_vectors
from ragcite.pipeline import Ragcite
from ragcite.text.sentence_forms import chunk_sentence_forms, sentences_with_forms

from ..conftest import DEMO

QUESTION = "How much parental leave does the primary caregiver get?"


class CountingEmbedder:
    """The real embedder, recording each text it is asked to embed."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.model_id = inner.model_id  # type: ignore[attr-defined]
        self.dimension = inner.dimension  # type: ignore[attr-defined]
        self.texts: list[str] = []

    def embed(self, texts: list[str]) -> Vectors:
        self.texts.extend(texts)
        vectors: Vectors = self.inner.embed(texts)  # type: ignore[attr-defined]
        return vectors


def _open(path: Path, *, sentence_vectors: bool = True, pooling: str | None = None) -> Ragcite:
    overrides: dict[str, object] = {
        "cache.enabled": False,
        "ingest.sentence_vectors": sentence_vectors,
    }
    if pooling is not None:
        overrides["ingest.sentence_pooling"] = pooling
    return Ragcite.open(load_settings(store_path=path, overrides=overrides))


def _handbook_both_ways(tmp_path: Path, pooling: str) -> tuple[Ragcite, Ragcite]:
    """The demo handbook ingested with sentence forms embedded alone and with `pooling`."""
    (tmp_path / "docs").mkdir()
    for name in ("employee-handbook.pdf", "employee-handbook.pdf.meta.yaml"):
        shutil.copy(DEMO / name, tmp_path / "docs")
    separate = _open(tmp_path / "separate.db", pooling="separate")
    pooled = _open(tmp_path / f"{pooling}.db", pooling=pooling)
    assert not separate.ingest([tmp_path / "docs"]).failed
    assert not pooled.ingest([tmp_path / "docs"]).failed
    return separate, pooled


def _answers_from_stored_vectors(rag: Ragcite) -> None:
    """`rag` answers QUESTION embedding the question only: every sentence vector is stored."""
    counting = _cold(rag)
    response = rag.ask(QUESTION)
    assert response.answerable and response.cited_claims
    assert counting.texts == [QUESTION]


def _cold(rag: Ragcite) -> CountingEmbedder:
    """Forget every cached vector and count what the real model embeds from now on."""
    rag.embedder.clear()  # type: ignore[attr-defined]
    semantic = getattr(rag.support_checker, "semantic", None)
    if semantic is not None:
        semantic._cache.clear()
    counting = CountingEmbedder(rag.embedder.inner)  # type: ignore[attr-defined]
    rag.embedder.inner = counting  # type: ignore[attr-defined]
    return counting


def test_ask_on_a_store_with_sentence_vectors_embeds_the_question_only(
    demo_store_path: Path,
) -> None:
    rag = _open(demo_store_path)
    counting = _cold(rag)

    response = rag.ask(QUESTION)

    assert response.answerable and response.cited_claims
    assert counting.texts == [QUESTION]
    rag.close()


def test_a_store_without_sentence_vectors_gives_the_same_answer(
    tmp_path: Path, demo_store_path: Path
) -> None:
    (tmp_path / "docs").mkdir()
    for name in ("employee-handbook.pdf", "employee-handbook.pdf.meta.yaml"):
        shutil.copy(DEMO / name, tmp_path / "docs")
    old = _open(tmp_path / "old.db", sentence_vectors=False)
    assert not old.ingest([tmp_path / "docs"]).failed
    assert old.store.sentence_vectors([c.chunk_id for c in old.search("leave")[0]]) == {}
    new = _open(tmp_path / "new.db")
    assert not new.ingest([tmp_path / "docs"]).failed
    counting = _cold(old)
    _cold(new)

    before, after = old.ask(QUESTION), new.ask(QUESTION)

    assert len(counting.texts) > 1  # the old store's sentences were embedded at ask time
    assert [c.claim_text for c in after.cited_claims] == [c.claim_text for c in before.cited_claims]
    assert after.overall_confidence == pytest.approx(before.overall_confidence, abs=0.01)
    old.close()
    new.close()


def test_vectors_computed_for_other_sentences_are_not_used() -> None:
    vectors = np.eye(2, 384, dtype=np.float32)
    blob = encode_sentence_vectors(["One.", "Two."], vectors)

    assert decode_sentence_vectors(blob, ["One.", "Two."]) is not None
    assert decode_sentence_vectors(blob, ["One.", "Three."]) is None
    assert decode_sentence_vectors(blob, ["One."]) is None
    assert decode_sentence_vectors(b"junk", ["One."]) is None


def test_span_pooled_sentence_vectors_keep_the_chunk_vectors_and_serve_ask(
    tmp_path: Path,
) -> None:
    separate, spans = _handbook_both_ways(tmp_path, "spans")
    one, two = (list(r.store.export_versions()) for r in (separate, spans))
    assert np.array_equal(one[0].vectors, two[0].vectors)  # the chunk vectors are unchanged
    assert two[0].sentence_vectors and all(b is not None for b in two[0].sentence_vectors)
    _answers_from_stored_vectors(spans)
    separate.close()
    spans.close()


def test_heading_pooled_sentence_vectors_keep_what_the_reranker_sees_and_serve_ask(
    tmp_path: Path,
) -> None:
    separate, heading = _handbook_both_ways(tmp_path, "heading")
    (one,), (two,) = (list(r.store.export_versions()) for r in (separate, heading))
    assert np.array_equal(one.vectors, two.vectors)  # the chunk vectors are unchanged
    assert one.sentence_vectors and two.sentence_vectors
    compared = 0
    for chunk, old, new in zip(one.chunks, one.sentence_vectors, two.sentence_vectors, strict=True):
        forms = chunk_sentence_forms(chunk.chunk_text, chunk.section_heading)
        before, after = (decode_sentence_vectors(b or b"", forms) for b in (old, new))
        assert before is not None and after is not None
        found = sentences_with_forms(chunk.chunk_text, chunk.section_heading)
        for own in {f[0] for _, _, f in found}:  # the heading forms: the vectors "separate" has
            assert np.array_equal(before[forms.index(own)], after[forms.index(own)])
            compared += 1
    assert compared > 10
    _answers_from_stored_vectors(heading)
    separate.close()
    heading.close()


TABLE_QUESTION = "How many users can a Team workspace have?"


@pytest.mark.parametrize("pooling", ["separate", "heading", "spans"])
def test_a_question_naming_one_column_of_a_table_embeds_the_question_only(
    tmp_path: Path, pooling: str
) -> None:
    """The generator compares a question naming one column with each row cut to its label
    and that cell ("Team — Users: 25"); ingest stores those forms too."""
    (tmp_path / "docs").mkdir()
    shutil.copy(DEMO / "plans-and-pricing.md", tmp_path / "docs")
    rag = _open(tmp_path / "plans.db", pooling=pooling)
    assert not rag.ingest([tmp_path / "docs"]).failed
    counting = _cold(rag)

    response = rag.ask(TABLE_QUESTION)

    assert counting.texts == [TABLE_QUESTION]
    assert response.cited_claims[0].citations[0].quote.startswith("Team — ")
    rag.close()


def test_a_store_written_before_cell_forms_still_serves_its_sentence_vectors(
    tmp_path: Path,
) -> None:
    """Blobs computed for the forms without the cells (an older store) are still read: only
    the cell forms a question needs are embedded at ask time, and the answer is the same."""
    (tmp_path / "docs").mkdir()
    shutil.copy(DEMO / "plans-and-pricing.md", tmp_path / "docs")
    rag = _open(tmp_path / "plans.db", pooling="separate")
    assert not rag.ingest([tmp_path / "docs"]).failed
    _cold(rag)
    now = rag.ask(TABLE_QUESTION)
    rag.close()
    with sqlite3.connect(tmp_path / "plans.db") as db:  # rewrite the blobs as before the cells
        rows = db.execute("SELECT rowid, chunk_text, section_heading, sentence_vectors FROM chunks")
        for rowid, text, heading, blob in rows.fetchall():
            forms = chunk_sentence_forms(text, heading)
            base = chunk_sentence_forms(text, heading, cells=False)
            vectors = decode_sentence_vectors(blob, forms)
            assert vectors is not None
            old = encode_sentence_vectors(base, vectors[[forms.index(f) for f in base]])
            db.execute("UPDATE chunks SET sentence_vectors = ? WHERE rowid = ?", (old, rowid))
    older = _open(tmp_path / "plans.db")
    counting = _cold(older)

    before = older.ask(TABLE_QUESTION)

    assert counting.texts[0] == TABLE_QUESTION
    assert counting.texts[1:] and all(" — Users: " in t for t in counting.texts[1:])
    assert [c.claim_text for c in before.cited_claims] == [c.claim_text for c in now.cited_claims]
    older.close()
