"""Search filters as a SQL predicate over the `documents` table (aliased `d`).

Access groups are applied here, inside every query, so restricted chunks never reach
ranking: a document with no groups is public, otherwise it needs one group in common;
and the same holds for its corpus (`corpus_access`, set by `ragcite corpora set-access`).
"""

from __future__ import annotations

from typing import Any

from ragcite.index.store import SearchFilters


def filter_sql(filters: SearchFilters) -> tuple[str, tuple[Any, ...]]:
    """(`where` clause, its arguments); "1" when nothing is filtered."""
    clauses: list[str] = []
    args: list[Any] = []
    if filters.statuses:
        clauses.append(f"d.status IN ({_marks(filters.statuses)})")
        args += [str(s) for s in filters.statuses]
    if filters.corpora is not None:
        clauses.append(f"d.corpus IN ({_marks(filters.corpora)})")
        args += list(filters.corpora)
    if filters.document_ids is not None:
        clauses.append(f"d.document_id IN ({_marks(filters.document_ids)})")
        args += list(filters.document_ids)
    if filters.access_groups is not None:
        clauses.append(_groups_sql(filters.access_groups))
        args += [*filters.access_groups, *filters.access_groups]
    version_clauses, version_args = _version_sql(filters)
    return (" AND ".join(clauses + version_clauses) or "1"), (*args, *version_args)


def readable_sql(access_groups: tuple[str, ...] | None) -> tuple[str, tuple[Any, ...]]:
    """What a reader with `access_groups` may read, as a predicate over `documents d`.

    None (an admin, the local CLI) reads every version, deleted ones included (for
    audit); otherwise only versions that are not deleted and are public or share a group,
    in a corpus that is public or shares a group.
    """
    if access_groups is None:
        return "1", ()
    return (
        f"d.status != 'deleted' AND {_groups_sql(access_groups)}",
        (*access_groups, *access_groups),
    )


# A version in force on a date: it took effect by then and no later version (not deleted)
# did; a document without an effective date is in force while it is active.
_IN_FORCE_SQL = (
    "(CASE WHEN d.effective_date IS NULL THEN d.status = 'active' ELSE "
    "d.effective_date <= ? AND NOT EXISTS (SELECT 1 FROM documents n "
    "WHERE n.document_id = d.document_id AND n.version > d.version "
    "AND n.status != 'deleted' AND n.effective_date IS NOT NULL AND n.effective_date <= ?) END)"
)
_PREVIOUS_SQL = (
    "d.version = (SELECT MAX(p.version) FROM documents p "
    "WHERE p.document_id = d.document_id AND p.status = 'superseded')"
)


def _version_sql(filters: SearchFilters) -> tuple[list[str], list[Any]]:
    clauses: list[str] = []
    args: list[Any] = []
    if filters.as_of is not None:
        clauses.append(_IN_FORCE_SQL)
        args += [filters.as_of.isoformat()] * 2
    if filters.version is not None:
        clauses.append("d.version = ?")
        args.append(filters.version)
    if filters.previous_version:
        clauses.append(_PREVIOUS_SQL)
    return clauses, args


def _groups_sql(groups: tuple[str, ...]) -> str:
    """The document's groups, then its corpus's: `groups` is bound twice."""
    return (
        "(d.access = '[]' OR EXISTS "
        f"(SELECT 1 FROM json_each(d.access) WHERE value IN ({_marks(groups)}))) "
        "AND NOT EXISTS (SELECT 1 FROM corpus_access ca WHERE ca.corpus = d.corpus "
        "AND ca.groups != '[]' AND NOT EXISTS "
        f"(SELECT 1 FROM json_each(ca.groups) WHERE value IN ({_marks(groups)})))"
    )


def _marks(values: tuple[Any, ...]) -> str:
    """SQL placeholders for `values`; an empty tuple matches nothing (`IN (NULL)`)."""
    return ",".join("?" * len(values)) or "NULL"
