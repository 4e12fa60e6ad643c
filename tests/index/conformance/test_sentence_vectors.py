"""Conformance: each chunk's sentence vectors (computed at ingest) stored with it, read
back by chunk, carried by export, and absent for chunks stored without them.
Run against every Store implementation."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ragcite.index.indexer import store_version
from ragcite.index.sentence_vectors import SentencePlan, decode_sentence_vectors
from ragcite.index.store import Store
from ragcite.text.sentence_forms import chunk_sentence_forms

from .builders import DIMENSION, version

TEXTS = ["Receipts are kept for ten years. Copies go to finance.", "Staff may work remotely."]


def _unit_rows(n: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(n, DIMENSION)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_sentence_vectors_round_trip_per_chunk(store: Store) -> None:
    new = version("fin", 1, TEXTS)
    plan = SentencePlan.of(new.chunks)
    vectors = _unit_rows(len(plan.texts), seed=3)
    store_version(store, replace(new, sentence_vectors=plan.blobs(vectors)))

    blobs = store.sentence_vectors([c.chunk_id for c in new.chunks] + ["missing"])

    assert sorted(blobs) == sorted(c.chunk_id for c in new.chunks)
    for chunk in new.chunks:
        forms = chunk_sentence_forms(chunk.chunk_text, chunk.section_heading)
        got = decode_sentence_vectors(blobs[chunk.chunk_id], forms)
        assert got is not None and got.shape == (len(forms), DIMENSION)
        want = vectors[[plan.texts.index(f) for f in forms]]
        assert np.allclose(got, want, atol=1e-3)  # stored as float16


def test_chunks_stored_without_sentence_vectors_have_none(store: Store) -> None:
    new = version("old", 1, TEXTS)
    store_version(store, new)

    assert store.sentence_vectors([c.chunk_id for c in new.chunks]) == {}
    assert store.sentence_vectors([]) == {}


def test_export_carries_sentence_vectors(store: Store) -> None:
    new = version("fin", 1, TEXTS)
    plan = SentencePlan.of(new.chunks)
    blobs = plan.blobs(_unit_rows(len(plan.texts), seed=4))
    store_version(store, replace(new, sentence_vectors=blobs))

    exported = list(store.export_versions())

    assert len(exported) == 1
    assert exported[0].sentence_vectors == blobs


def test_removing_a_version_drops_its_sentence_vectors(store: Store) -> None:
    new = version("fin", 1, TEXTS)
    plan = SentencePlan.of(new.chunks)
    store_version(store, replace(new, sentence_vectors=plan.blobs(_unit_rows(len(plan.texts), 5))))

    with store.write() as writer:
        assert writer.remove_version("fin", 1)

    assert store.sentence_vectors([c.chunk_id for c in new.chunks]) == {}
