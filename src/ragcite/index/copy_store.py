"""Copy a collection from one store to another (`ragcite migrate`), vectors included.

Every version goes over exactly as stored (`Store.export_versions`): status, supersession,
metadata, text, pages, chunks and their vectors, bit for bit, so nothing is re-embedded and
the target answers searches exactly as the source did. Each document's versions are
written in one transaction. Feedback, saved answers and the tombstones of erased
documents go too (when the whole collection is copied), each keeping its time, and the
corpus access groups (copy_records.py). A copy that would bring back an erased document
is refused before anything is written.

A target that already holds documents is refused, unless `append`: then a version the
target holds with the same content hash is skipped (so a second run copies nothing), a
version it holds with other content is a conflict, and the rest is added. The counts are
checked at the end; a mismatch is an error.

    >>> report = copy_collection(sqlite_store, postgres_store)
    >>> report.versions_added, report.chunks_added, report.counts.chunks
    (9, 25, 25)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from ragcite.errors import StoreError
from ragcite.index.copy_records import (
    check_erasures,
    copy_corpus_access,
    copy_saved_answers,
    copy_tombstones,
)
from ragcite.index.feedback import FeedbackRecord, FeedbackStore
from ragcite.index.store import NewVersion, Store, StoreCounts, StoreWriter
from ragcite.models import DocumentStatus


@dataclass(frozen=True)
class CopyReport:
    """What a copy did, and the target's counts after it."""

    versions_added: int
    versions_skipped: int
    chunks_added: int
    feedback_added: int
    feedback_skipped: int
    counts: StoreCounts
    answers_added: int = 0
    answers_skipped: int = 0
    tombstones_added: int = 0
    corpora_access_set: int = 0


@dataclass
class _Tally:
    """What was read from the source and what was written to the target."""

    documents: set[str] = field(default_factory=set)
    versions: int = 0
    chunks: int = 0
    added: int = 0
    skipped: int = 0
    chunks_added: int = 0
    live_added: int = 0

    def read(self, version: NewVersion) -> None:
        self.chunks += len(version.chunks)
        if version.document.status is not DocumentStatus.DELETED:
            self.versions += 1
            self.documents.add(version.document.document_id)


def copy_collection(
    source: Store,
    target: Store,
    *,
    corpus: str | None = None,
    append: bool = False,
    on_version: Callable[[NewVersion], None] | None = None,
) -> CopyReport:
    """Copy every version (only `corpus`'s when given), the feedback, saved answers,
    tombstones and corpus access groups from `source` to `target`; `on_version` is called
    after each version is read."""
    before = target.counts()
    if not append and target.list_documents():
        raise StoreError(
            f"the target store already holds {before.documents} documents; migrate into an "
            "empty store, or pass --append to add only the versions it lacks"
        )
    check_erasures(source, target)
    tally = _Tally()
    versions = source.export_versions(corpus)
    for _, group in itertools.groupby(versions, key=lambda v: v.document.document_id):
        with target.write() as writer:
            for version in group:
                tally.read(version)
                _copy_version(writer, version, tally)
                if on_version is not None:
                    on_version(version)
    whole = corpus is None
    feedback = _copy_feedback(source, target) if whole else (0, 0)
    answers = copy_saved_answers(source, target) if whole else (0, 0)
    tombstones = copy_tombstones(source, target) if whole else 0
    access = copy_corpus_access(source, target, corpus)
    after = target.counts()
    _check_counts(source, target, corpus, tally, before, after, fresh=not append)
    return CopyReport(
        tally.added,
        tally.skipped,
        tally.chunks_added,
        *feedback,
        after,
        *answers,
        tombstones,
        access,
    )


def _copy_version(writer: StoreWriter, version: NewVersion, tally: _Tally) -> None:
    doc = version.document
    held = {d.version: d for d in writer.versions(doc.document_id)}
    existing = held.get(doc.version)
    if existing is None:
        writer.add_version(version)
        tally.added += 1
        tally.chunks_added += len(version.chunks)
        tally.live_added += doc.status is not DocumentStatus.DELETED
    elif existing.content_sha256 == doc.content_sha256:
        tally.skipped += 1
    else:
        raise StoreError(
            f"'{doc.document_id}' version {doc.version} is in the target store with other "
            "content; the two collections have diverged: migrate into an empty store instead"
        )


def _feedback_of(store: Store) -> FeedbackStore | None:
    found = getattr(store, "feedback", None)
    return found if isinstance(found, FeedbackStore) else None


def _copy_feedback(source: Store, target: Store) -> tuple[int, int]:
    """(added, skipped): every feedback record, oldest first, keeping its time; a record
    the target already holds (same time and content) is skipped."""
    given, taking = _feedback_of(source), _feedback_of(target)
    if given is None or taking is None:
        return 0, 0
    held = {_feedback_key(r) for r in taking.list_feedback(limit=None)}
    added = skipped = 0
    for record in reversed(given.list_feedback(limit=None)):
        if _feedback_key(record) in held:
            skipped += 1
            continue
        taking.add_feedback(
            record.query,
            record.rating,
            chunk_id=record.chunk_id,
            claim_text=record.claim_text,
            comment=record.comment,
            response_json=record.response_json,
            created_at=record.created_at,
            key_name=record.key_name,
        )
        added += 1
    return added, skipped


def _feedback_key(record: FeedbackRecord) -> tuple[object, ...]:
    return (
        record.created_at.isoformat(),
        record.query,
        record.rating,
        record.chunk_id,
        record.claim_text,
        record.comment,
    )


def _check_counts(
    source: Store,
    target: Store,
    corpus: str | None,
    tally: _Tally,
    before: StoreCounts,
    after: StoreCounts,
    *,
    fresh: bool,
) -> None:
    """The counts read agree with the source's own, and the target gained what was added."""
    if corpus is None:
        held = source.counts()
        _expect("chunks read from the source", held.chunks, tally.chunks)
        _expect("versions read from the source", held.versions, tally.versions)
    if fresh:
        _expect("documents in the target", len(tally.documents), after.documents)
        _expect("versions in the target", tally.versions, after.versions)
        _expect("chunks in the target", tally.chunks, after.chunks)
        return
    _expect("versions in the target", before.versions + tally.live_added, after.versions)
    _expect("chunks in the target", before.chunks + tally.chunks_added, after.chunks)
    held_keys = {(d.document_id, d.version) for d in target.list_documents(corpus)}
    missing = {(d.document_id, d.version) for d in source.list_documents(corpus)} - held_keys
    if missing:
        document_id, number = sorted(missing)[0]
        raise StoreError(
            f"the copy is incomplete: {len(missing)} versions (e.g. '{document_id}' version "
            f"{number}) are not in the target store; run the migration again with --append"
        )


def _expect(what: str, expected: int, found: int) -> None:
    if expected != found:
        raise StoreError(
            f"the copy does not add up: {found} {what}, {expected} expected; was a store "
            "written to during the migration? Run it again into an empty store"
        )
