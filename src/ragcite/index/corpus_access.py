"""Corpus access groups: who may read a whole corpus (`ragcite corpora set-access`).

A corpus with groups is readable only by readers sharing one of them, on top of each
document's own groups: a chunk is readable when the reader satisfies both (an empty list
is public). Stores apply it inside every query (`sqlite_filters`, `postgres/filters`).

    >>> acl = corpus_access_store(store)
    >>> acl.set_corpus_access("hr", ("hr", "legal"))
    >>> acl.corpus_access()
    {'hr': ('hr', 'legal')}
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ragcite.errors import StoreError


@runtime_checkable
class CorpusAccessStore(Protocol):
    def corpus_access(self) -> dict[str, tuple[str, ...]]:
        """Every corpus with access groups, by name (corpora without any are public)."""
        ...

    def set_corpus_access(self, corpus: str, groups: tuple[str, ...]) -> None:
        """Set a corpus's groups (empty: public again); moves the corpus version, so no
        answer cached under the old groups is served."""
        ...


def corpus_access_store(store: object) -> CorpusAccessStore:
    """The corpus access list kept next to `store` (its `corpus_acl` attribute)."""
    found = getattr(store, "corpus_acl", None)
    if isinstance(found, CorpusAccessStore):
        return found
    raise StoreError(
        f"the {type(store).__name__} store keeps no corpus access groups; use a store that "
        "does (the embedded SQLite store and the PostgreSQL store both do)"
    )
