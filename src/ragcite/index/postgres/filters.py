"""Search filters as a SQL predicate over `ragcite_documents` (aliased `d`).

Every filter is a predicate inside the search query itself, never a pass over its
results, so restricted chunks never reach ranking: a document with no access groups is
public, otherwise it needs one group in common with the reader (`&&`, array overlap).
"""

from __future__ import annotations

from typing import Any

from ragcite.index.store import SearchFilters


def filter_sql(filters: SearchFilters) -> tuple[str, list[Any]]:
    """(`where` clause, its arguments); "TRUE" when nothing is filtered.

    An empty tuple matches nothing (`= ANY('{}')` is false), as in the embedded store.
    """
    clauses: list[str] = []
    args: list[Any] = []
    if filters.statuses:
        clauses.append("d.status = ANY(%s::text[])")
        args.append([str(s) for s in filters.statuses])
    if filters.corpora is not None:
        clauses.append("d.corpus = ANY(%s::text[])")
        args.append(list(filters.corpora))
    if filters.document_ids is not None:
        clauses.append("d.document_id = ANY(%s::text[])")
        args.append(list(filters.document_ids))
    if filters.access_groups is not None:
        clauses.append(GROUPS_SQL)
        args.append(list(filters.access_groups))
    return (" AND ".join(clauses) or "TRUE"), args


GROUPS_SQL = "(cardinality(d.access) = 0 OR d.access && %s::text[])"


def readable_sql(access_groups: tuple[str, ...] | None) -> tuple[str, list[Any]]:
    """What a reader with `access_groups` may read, as a predicate over `ragcite_documents d`.

    None (an admin, the local CLI) reads every version, deleted ones included (for
    audit); otherwise only versions that are not deleted and are public or share a group.
    """
    if access_groups is None:
        return "TRUE", []
    return f"d.status != 'deleted' AND {GROUPS_SQL}", [list(access_groups)]
