"""The records kept next to a collection, copied by `ragcite migrate` (copy_store.py):
saved answers, the tombstones of erased documents and the corpus access groups.

Each goes over as stored: a saved answer keeps its ID, time, asker, groups, sources and
redactions, so it is readable afterwards by exactly the readers who could read it before;
a tombstone keeps its time and who erased. Copying again changes nothing: a record the
target already holds, alike, is skipped; one it holds with other content is a conflict
(the two stores have diverged), never overwritten, so a redaction is never undone.

    >>> copy_saved_answers(sqlite_store, postgres_store)
    (3, 0)
"""

from __future__ import annotations

import dataclasses

from ragcite.errors import StoreError
from ragcite.index.answers import AnswerStore, ErasingStore, SavedAnswer
from ragcite.index.corpus_access import CorpusAccessStore
from ragcite.index.store import Store


def _answers_of(store: Store) -> AnswerStore | None:
    found = getattr(store, "answers", None)
    return found if isinstance(found, AnswerStore) else None


def _access_of(store: Store) -> CorpusAccessStore | None:
    found = getattr(store, "corpus_acl", None)
    return found if isinstance(found, CorpusAccessStore) else None


def _erasing(store: Store) -> ErasingStore | None:
    return store if isinstance(store, ErasingStore) else None


def check_erasures(source: Store, target: Store) -> None:
    """Refuse, before anything is written, a copy that would undo an erasure: a document
    erased from one store that the other still holds."""
    given, taking = _erasing(source), _erasing(target)
    for erased, holder, where in (
        (given, target, "target"),
        (taking, source, "source"),
    ):
        for tombstone in [] if erased is None else erased.tombstones():
            if holder.latest_version(tombstone.document_id) is not None:
                raise StoreError(
                    f"'{tombstone.document_id}' was erased from one store but the {where} "
                    f"store still holds it; erase it there too (`ragcite documents erase "
                    f"{tombstone.document_id}`), or migrate into an empty store"
                )


def copy_tombstones(source: Store, target: Store) -> int:
    """Every tombstone the target lacks, keeping its time; how many were added."""
    given, taking = _erasing(source), _erasing(target)
    if given is None or taking is None:
        return 0
    return sum(taking.keep_tombstone(t) for t in reversed(given.tombstones()))


def copy_saved_answers(source: Store, target: Store) -> tuple[int, int]:
    """(added, skipped): every saved answer, oldest first; one the target holds alike is
    skipped, one it holds with other content is a StoreError."""
    given, taking = _answers_of(source), _answers_of(target)
    if given is None or taking is None:
        return 0, 0
    held = {a.answer_id: a for a in taking.list_answers(access_groups=None)}
    added = skipped = 0
    for answer in given.list_answers(access_groups=None):
        existing = held.get(answer.answer_id)
        if existing is None:
            taking.save_answer(answer)
            added += 1
        elif _comparable(existing) == _comparable(answer):
            skipped += 1
        else:
            raise StoreError(
                f"saved answer '{answer.answer_id}' is in the target store with other "
                "content (was a document erased there?); the two stores have diverged: "
                "migrate into an empty store instead"
            )
    return added, skipped


def _comparable(answer: SavedAnswer) -> SavedAnswer:
    return dataclasses.replace(
        answer,
        sources=tuple(sorted(answer.sources)),
        erased_documents=tuple(sorted(answer.erased_documents)),
    )


def copy_corpus_access(source: Store, target: Store, corpus: str | None = None) -> int:
    """Give the target each corpus's access groups (only `corpus`'s when given) that it
    lacks; how many corpora were set. A corpus the target gives other groups is a
    StoreError: which groups are right is for a person to decide."""
    given, taking = _access_of(source), _access_of(target)
    if given is None or taking is None:
        return 0
    wanted, held = given.corpus_access(), taking.corpus_access()
    names = sorted(set(wanted) | set(held)) if corpus is None else [corpus]
    changed = 0
    for name in names:
        groups, existing = wanted.get(name, ()), held.get(name, ())
        if set(groups) == set(existing):
            continue
        if existing:
            shown = ", ".join(groups) or "public"
            raise StoreError(
                f"corpus '{name}' is readable by {', '.join(existing)} in the target store "
                f"but by {shown} in the source; set the same groups in both (`ragcite "
                f"corpora set-access {name} --groups ...`) or migrate into an empty store"
            )
        taking.set_corpus_access(name, groups)
        changed += 1
    return changed
