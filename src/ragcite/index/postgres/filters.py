"""Search filters as a SQL predicate over `ragcite_documents` (aliased `d`).

Every filter is a predicate inside the search query itself, never a pass over its
results, so restricted chunks never reach ranking: a document with no access groups is
public, otherwise it needs one group in common with the reader (`&&`, array overlap);
and the same holds for its corpus (`ragcite_corpus_access`).
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
        args += [list(filters.access_groups)] * 2
    if filters.as_of is not None:
        clauses.append(IN_FORCE_SQL)
        args += [filters.as_of] * 2
    if filters.version is not None:
        clauses.append("d.version = %s")
        args.append(filters.version)
    if filters.previous_version:
        clauses.append(PREVIOUS_SQL)
    return (" AND ".join(clauses) or "TRUE"), args


# The document's groups, then its corpus's: the reader's groups are bound twice.
GROUPS_SQL = (
    "(cardinality(d.access) = 0 OR d.access && %s::text[]) AND NOT EXISTS "
    "(SELECT 1 FROM ragcite_corpus_access ca WHERE ca.corpus = d.corpus "
    "AND cardinality(ca.groups) > 0 AND NOT (ca.groups && %s::text[]))"
)
# A version in force on a date: it took effect by then and no later version (not deleted)
# did; a document without an effective date is in force while it is active.
IN_FORCE_SQL = (
    "(CASE WHEN d.effective_date IS NULL THEN d.status = 'active' ELSE "
    "d.effective_date <= %s::date AND NOT EXISTS (SELECT 1 FROM ragcite_documents n "
    "WHERE n.document_id = d.document_id AND n.version > d.version AND n.status != 'deleted' "
    "AND n.effective_date IS NOT NULL AND n.effective_date <= %s::date) END)"
)
PREVIOUS_SQL = (
    "d.version = (SELECT MAX(p.version) FROM ragcite_documents p "
    "WHERE p.document_id = d.document_id AND p.status = 'superseded')"
)


def readable_sql(access_groups: tuple[str, ...] | None) -> tuple[str, list[Any]]:
    """What a reader with `access_groups` may read, as a predicate over `ragcite_documents d`.

    None (an admin, the local CLI) reads every version, deleted ones included (for
    audit); otherwise only versions that are not deleted and are public or share a group,
    in a corpus that is public or shares a group.
    """
    if access_groups is None:
        return "TRUE", []
    return f"d.status != 'deleted' AND {GROUPS_SQL}", [list(access_groups)] * 2
